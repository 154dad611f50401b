const { remoteConfig } = require('@qc/mf-config');

/**
 * MF container `remote_admin`: users (admin, domain_admin), domains and the directory (admin), each
 * wrapped in its own theme root.
 */
const exposes = {
  './Users': './src/exposed/Users.tsx',
  './Domains': './src/exposed/Domains.tsx',
  './Directory': './src/exposed/Directory.tsx',
};

module.exports = (_env, argv) =>
  remoteConfig({
    name: 'remote_admin',
    app: 'remote-admin',
    appDir: __dirname,
    exposes,
    configFile: __filename,
    mode: argv.mode ?? 'production',
  });
