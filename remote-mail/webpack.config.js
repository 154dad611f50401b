const { remoteConfig } = require('@qc/mf-config');

/** MF container `remote_mail`: one exposed module per page group, each wrapped in its own theme root. */
const exposes = {
  './Dashboard': './src/exposed/Dashboard.tsx',
  './Quarantine': './src/exposed/Quarantine.tsx',
  './History': './src/exposed/History.tsx',
  './Statistics': './src/exposed/Statistics.tsx',
};

module.exports = (_env, argv) =>
  remoteConfig({
    name: 'remote_mail',
    app: 'remote-mail',
    appDir: __dirname,
    exposes,
    configFile: __filename,
    mode: argv.mode ?? 'production',
  });
