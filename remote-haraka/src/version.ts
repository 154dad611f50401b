/** Set at build time by webpack.config.js (QC_REMOTE_VERSION, else package.json's version). */
declare const __QC_REMOTE_VERSION__: string | undefined;

/** The version of this build of remote-haraka ('dev' outside a webpack build, e.g. in jest). */
export const REMOTE_VERSION: string = typeof __QC_REMOTE_VERSION__ === 'string' ? __QC_REMOTE_VERSION__ : 'dev';
