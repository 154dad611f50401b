// jsdom lacks Node's fetch family and TextEncoder; ky and react-query need them.
const { TestEnvironment } = require('jest-environment-jsdom');
// The front-end tests run in a zone with summer time (the machine and CI are UTC, which has none):
// day bounds, DST crossings and formatted dates are then tested where they can go wrong. Node
// picks up a TZ assigned at run time (Date and Intl); it is put back for the next file of the worker.
const ZONE = 'Europe/Paris';
module.exports = class JsdomWithFetch extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    this.previousTz = process.env.TZ;
    process.env.TZ = ZONE;
    for (const k of [
      'fetch',
      'Request',
      'Response',
      'Headers',
      'FormData',
      'ReadableStream',
      'TextEncoder',
      'TextDecoder',
      'structuredClone',
      'AbortController',
      'AbortSignal',
      'Blob',
      'BroadcastChannel',
    ]) {
      if (globalThis[k]) this.global[k] = globalThis[k];
    }
    // antd's form (@rc-component/form) queues macro tasks through MessageChannel, which jsdom lacks.
    // Node's own would keep jest alive (its ports are ref'd), so: a tiny timer-based stand-in.
    const env = this.global;
    env.MessageChannel = class MessageChannel {
      constructor() {
        const port = () => ({
          onmessage: null,
          start() {},
          close() {},
          addEventListener() {},
          removeEventListener() {},
        });
        this.port1 = port();
        this.port2 = port();
        const link = (from, to) => {
          from.postMessage = (data) => env.setTimeout(() => to.onmessage && to.onmessage({ data }), 0);
        };
        link(this.port1, this.port2);
        link(this.port2, this.port1);
      }
    };
  }

  async teardown() {
    if (this.previousTz === undefined) delete process.env.TZ;
    else process.env.TZ = this.previousTz;
    await super.teardown();
  }
};
