// jsdom lacks Node's fetch family and TextEncoder; ky and react-query need them.
const { TestEnvironment } = require('jest-environment-jsdom');
module.exports = class JsdomWithFetch extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
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
};
