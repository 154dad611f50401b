import '@testing-library/jest-dom';
import { setDefaultNoticeDurationForTests } from '@qc/ui-state';
import { configure } from '@testing-library/react';

// antd asks for matchMedia (responsive observers) and measures with getComputedStyle(el, pseudo),
// which jsdom does not implement.
Object.defineProperty(window, 'matchMedia', {
  writable: true,
  value: (query: string) => ({
    matches: false,
    media: query,
    onchange: null,
    addListener: () => {},
    removeListener: () => {},
    addEventListener: () => {},
    removeEventListener: () => {},
    dispatchEvent: () => false,
  }),
});
const computed = window.getComputedStyle.bind(window);
window.getComputedStyle = (el: Element) => computed(el);

// jsdom's getComputedStyle matches the element against every rule of every stylesheet, through
// nwsapi, which keeps its compiled selectors in an LRU of 1000. antd's CSS-in-JS puts more
// selectors than that in the page, and rules are always walked in the same order: the LRU then
// never hits and every selector is parsed and compiled again on every call (two thirds of a test's
// CPU time). The match caches are made unbounded for the document's life (a test file): the same
// compiled selectors, so the same results, compiled once.
type SelectorCache = {
  get(key: string): unknown;
  set(key: string, value: unknown): unknown;
  has(key: string): boolean;
  clear(): void;
  size(): number;
};
function unbounded(cache: SelectorCache) {
  const map = new Map<string, unknown>();
  cache.get = (key) => map.get(key);
  cache.set = (key, value) => (map.set(key, value), value);
  cache.has = (key) => map.has(key);
  cache.clear = () => map.clear();
  cache.size = () => map.size;
}
const implSymbol = Object.getOwnPropertySymbols(document).find((s) => s.description === 'impl');
const documentImpl = implSymbol && (document as unknown as Record<symbol, Record<string, unknown>>)[implSymbol];
if (!documentImpl) throw new Error('setup-web: jsdom document internals not found (jsdom upgraded?)');
// jsdom creates its nwsapi instances lazily, one for getComputedStyle (no throw) and one for the DOM API.
for (const field of ['_nwsapiDontThrow', '_nwsapi']) {
  let instance = documentImpl[field] as Record<string, SelectorCache> | undefined;
  const patch = (nw: Record<string, SelectorCache> | undefined) => {
    if (!nw) return;
    if (!nw.matchResolvers || !nw.matchLambdas) throw new Error('setup-web: nwsapi caches not found');
    unbounded(nw.matchResolvers);
    unbounded(nw.matchLambdas);
  };
  patch(instance);
  Object.defineProperty(documentImpl, field, {
    configurable: true,
    get: () => instance,
    set: (nw: Record<string, SelectorCache>) => {
      patch(nw);
      instance = nw;
    },
  });
}

// antd pages typed into key by key take seconds in jsdom, many more on a loaded 2-core machine (a
// test must not depend on the machine being idle): a hang still fails, at 90 s. (testTimeout in a
// project of jest.config.cjs is not read: it is a global option.)
jest.setTimeout(90_000);

// antd renders slowly on a loaded 2-core CI machine: give findBy*/waitFor more than the 1 s default.
configure({ asyncUtilTimeout: 10_000 });

// Notices hide after 5 s; a loaded machine may check for one later than that: they stay a minute
// here (notify.store.test.ts sets the 5 s back to test the hiding itself).
setDefaultNoticeDurationForTests(60_000);
