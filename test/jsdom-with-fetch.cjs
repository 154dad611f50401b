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
  }
};
