const { remoteConfig } = require('@qc/mf-config');

/** MF container `remote_rspamd` (admin only): standard filters, control-panel filters, system rules. */
const exposes = {
  './Filters': './src/exposed/Filters.tsx',
  './ApanelFilters': './src/exposed/ApanelFilters.tsx',
  './SystemRules': './src/exposed/SystemRules.tsx',
};

module.exports = (_env, argv) =>
  remoteConfig({
    name: 'remote_rspamd',
    app: 'remote-rspamd',
    appDir: __dirname,
    exposes,
    configFile: __filename,
    mode: argv.mode ?? 'production',
  });
