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

// antd pages typed into key by key take seconds in jsdom, many more on a loaded 2-core machine (a
// test must not depend on the machine being idle): a hang still fails, at 90 s. (testTimeout in a
// project of jest.config.cjs is not read: it is a global option.)
jest.setTimeout(90_000);

// antd renders slowly on a loaded 2-core CI machine: give findBy*/waitFor more than the 1 s default.
configure({ asyncUtilTimeout: 10_000 });

// Notices hide after 5 s; a loaded machine may check for one later than that: they stay a minute
// here (notify.store.test.ts sets the 5 s back to test the hiding itself).
setDefaultNoticeDurationForTests(60_000);
