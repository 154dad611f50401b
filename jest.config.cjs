// One jest run for the whole workspace: a node project for the api and a jsdom one for the front end.
const swc = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', tsx: true },
      transform: { react: { runtime: 'automatic' } },
      target: 'es2022',
    },
    module: { type: 'commonjs' },
  },
];
// ESM-only packages jest must transform (pnpm paths have an optional ".pnpm/<pkg>@<ver>/node_modules/" part).
const esmOnly = [
  'ky',
  '@ant-design/colors',
  'jose',
  'kysely',
  'content-disposition',
  'cookie',
  '@noble/hashes',
  '@scure/base',
  'file-type',
  'strtok3',
  'token-types',
  'uint8array-extras',
  '@tokenizer/inflate',
  '@borewit/text-codec',
  'openid-client',
  'oauth4webapi',
];
const transformIgnorePatterns = [`/node_modules/(?!(\\.pnpm/[^/]+/node_modules/)?(${esmOnly.join('|')})[@/])`];

module.exports = {
  // The api suites run side by side (SQLite ∥ PostgreSQL) on a busy 2-core machine: a test that
  // takes 2–3 s when idle must not fail at jest's 5 s default there (the web project sets its own).
  testTimeout: 15_000,
  projects: [
    {
      displayName: 'api',
      testEnvironment: 'node',
      rootDir: '<rootDir>',
      transform: { '^.+\\.(t|j)sx?$': swc },
      transformIgnorePatterns,
      testMatch: ['<rootDir>/api/src/**/*.test.ts', '<rootDir>/test/**/*.test.ts'],
    },
    {
      // Real Haraka, Rspamd and Redis on loopback (started once per file); kept apart from 'api'
      // so the PostgreSQL stage does not run them twice.
      displayName: 'mail',
      testEnvironment: 'node',
      rootDir: '<rootDir>',
      transform: { '^.+\\.(t|j)sx?$': swc },
      transformIgnorePatterns,
      testMatch: ['<rootDir>/haraka-plugin-qconsole/test/**/*.test.js', '<rootDir>/mailstack/test/**/*.test.js'],
    },
    {
      displayName: 'web',
      testEnvironment: '<rootDir>/test/jsdom-with-fetch.cjs',
      rootDir: '<rootDir>',
      transform: { '^.+\\.(t|j)sx?$|^.+\\.mjs$': swc },
      transformIgnorePatterns,
      setupFilesAfterEnv: ['<rootDir>/test/setup-web.ts'],
      testMatch: [
        '<rootDir>/{host,remote-mail,remote-admin,remote-rspamd,remote-haraka,shared}/**/src/**/*.test.{ts,tsx}',
      ],
      moduleNameMapper: {
        '\\.(css|svg|png)$': '<rootDir>/test/file-stub.cjs',
        // The apps import antd's ES build (antd/es/*) for tree-shaking; jest runs its CommonJS twin.
        '^antd/es/(.*)$': 'antd/lib/$1',
        '^@ant-design/(charts|plots)$': '<rootDir>/test/charts-stub.cjs',
      },
    },
  ],
};
