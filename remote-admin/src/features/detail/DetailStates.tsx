/** The record page states are every app's (@qc/ui); kept here under their old path for this remote's pages. */
export { DetailStates, NotFound } from '@qc/ui';
