const { remoteConfig } = require('@qc/mf-config');
const { version } = require('./package.json');

/**
 * MF container `remote_haraka` (admin only): Haraka's logs, their summary and logs per day. Built,
 * versioned and deployed on its own (issue 19): QC_REMOTE_VERSION names the build (else
 * package.json's version) and is shown in its pages.
 */
const exposes = {
  './Logs': './src/exposed/Logs.tsx',
  './StatisticsSummary': './src/exposed/StatisticsSummary.tsx',
  './LogsPerDay': './src/exposed/LogsPerDay.tsx',
};

module.exports = (_env, argv) => {
  const config = remoteConfig({
    name: 'remote_haraka',
    app: 'remote-haraka',
    appDir: __dirname,
    exposes,
    configFile: __filename,
    mode: argv.mode ?? 'production',
  });
  // The app's own webpack (mf-config pointed FEDERATION_WEBPACK_PATH at it): one copy per build.
  const webpack = require(process.env.FEDERATION_WEBPACK_PATH || 'webpack');
  const shown = process.env.QC_REMOTE_VERSION || version;
  config.plugins.push(new webpack.DefinePlugin({ __QC_REMOTE_VERSION__: JSON.stringify(shown) }));
  // Another version string is another build: the persistent cache must not serve the old one.
  config.cache.version = shown;
  return config;
};
