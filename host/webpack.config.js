const { hostConfig } = require('@qc/mf-config');

module.exports = (_env, argv) =>
  hostConfig({ appDir: __dirname, configFile: __filename, mode: argv.mode ?? 'production' });
