// @qc/mf-config: the ONE Module Federation shared-dependency list and the webpack helpers that the
// host and every remote build with (DESIGN §3). CommonJS because webpack configs load it directly.
'use strict';

const path = require('node:path');
const fs = require('node:fs');
const HtmlWebpackPlugin = require('html-webpack-plugin');
const MinimizerPlugin = require('minimizer-webpack-plugin');
const zlib = require('node:zlib');

/**
 * pnpm gives each package its own copy of webpack (peer variants). The federation plugin must use
 * the SAME copy as the CLI that runs the build, or its modules are not cacheable ("No serializer
 * registered for ConsumeSharedModule"). enhanced reads FEDERATION_WEBPACK_PATH, so point it at the
 * app's webpack before enhanced is loaded.
 */
function loadFederationPlugin(appDir) {
  if (!process.env.FEDERATION_WEBPACK_PATH) {
    let webpackPath;
    try {
      webpackPath = require.resolve('webpack', { paths: [appDir] });
    } catch {
      webpackPath = require.resolve('webpack'); // an app without its own webpack: ours
    }
    process.env.FEDERATION_WEBPACK_PATH = webpackPath;
  }
  return require('@module-federation/enhanced/webpack').ModuleFederationPlugin;
}

const REPO_ROOT = path.resolve(__dirname, '../..');

/** Version of a dependency as installed for the app being built (pnpm links it in the app folder). */
function installedVersion(name, appDir) {
  const pkg = require.resolve(`${name}/package.json`, { paths: [appDir, process.cwd(), __dirname] });
  return JSON.parse(fs.readFileSync(pkg, 'utf8')).version;
}

/**
 * Workspace state packages: `workspace:*` is not semver, so they carry an explicit version. Raise
 * it when their API grows (1.1.0: the session's `unreachable` state, `retryStartUp`, `endsSession`;
 * 1.2.0: the two-factor set-up step, `requires2FASetup` and its actions), so a remote built against
 * the new API says so to an older host.
 */
const WORKSPACE_SINGLETONS = ['@qc/auth', '@qc/ui-state'];
const WORKSPACE_SINGLETON_VERSION = '1.2.0';

/** npm packages that must exist once on the page: key -> package whose version it follows. */
const NPM_SINGLETONS = {
  react: 'react',
  'react/jsx-runtime': 'react',
  'react-dom': 'react-dom',
  'react-dom/client': 'react-dom',
  'react-router-dom': 'react-router-dom',
  zustand: 'zustand',
  '@tanstack/react-query': '@tanstack/react-query',
  i18next: 'i18next',
  'react-i18next': 'react-i18next',
};

/**
 * The shared map given to ModuleFederationPlugin. antd is deliberately NOT shared (notes "A + C"):
 * each app tree-shakes its own copy and themes it from @qc/ui-state. @qc/contracts, @qc/api-client,
 * @qc/i18n and @qc/ui are bundled into each app. Never `eager`: the async boundary stays.
 */
function sharedDependencies(appDir = process.cwd(), overrides = {}) {
  const shared = {};
  for (const [key, pkg] of Object.entries(NPM_SINGLETONS)) {
    const version = installedVersion(pkg, appDir);
    shared[key] = { singleton: true, requiredVersion: `^${version}`, version };
  }
  for (const name of WORKSPACE_SINGLETONS) {
    shared[name] = {
      singleton: true,
      requiredVersion: `^${WORKSPACE_SINGLETON_VERSION}`,
      version: WORKSPACE_SINGLETON_VERSION,
      // A remote built against a newer API than the console offers refuses to load (the page's
      // boundary says "needs a newer console") instead of running against functions that are not
      // there and failing later, half-way through an action.
      strictVersion: true,
    };
  }
  return { ...shared, ...overrides };
}

/** Emits small static files (favicon, robots.txt...) from webpack so `output.clean` never loses them. */
class EmitStaticFilesPlugin {
  constructor(files) {
    this.files = files; // { 'favicon.svg': '<svg…>' }
  }
  apply(compiler) {
    const { webpack } = compiler;
    compiler.hooks.thisCompilation.tap('EmitStaticFilesPlugin', (compilation) => {
      compilation.hooks.processAssets.tap(
        { name: 'EmitStaticFilesPlugin', stage: webpack.Compilation.PROCESS_ASSETS_STAGE_ADDITIONAL },
        () => {
          for (const [name, content] of Object.entries(this.files)) {
            compilation.emitAsset(name, new webpack.sources.RawSource(content));
          }
        },
      );
    });
  }
}

/**
 * Writes a .br and a .gz beside every text asset, so the api serves them precompressed
 * (@fastify/static preCompressed) at full compression with no work per request.
 */
class PrecompressPlugin {
  apply(compiler) {
    const { webpack } = compiler;
    compiler.hooks.thisCompilation.tap('PrecompressPlugin', (compilation) => {
      const cache = compilation.getCache('PrecompressPlugin');
      compilation.hooks.processAssets.tapPromise(
        { name: 'PrecompressPlugin', stage: webpack.Compilation.PROCESS_ASSETS_STAGE_OPTIMIZE_TRANSFER },
        async (assets) => {
          for (const name of Object.keys(assets)) {
            if (!/\.(js|json|html|css|svg)$/.test(name)) continue;
            const source = compilation.getAsset(name).source;
            const buffer = source.buffer();
            if (buffer.length < 1024) continue;
            const etag = cache.getLazyHashedEtag(source);
            const [br, gz] = await Promise.all(
              ['br', 'gz'].map((kind) =>
                cache.providePromise(`${name}.${kind}`, etag, async () =>
                  kind === 'br'
                    ? zlib.brotliCompressSync(buffer, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } })
                    : zlib.gzipSync(buffer, { level: 9 }),
                ),
              ),
            );
            compilation.emitAsset(`${name}.br`, new webpack.sources.RawSource(br));
            compilation.emitAsset(`${name}.gz`, new webpack.sources.RawSource(gz));
          }
        },
      );
    });
  }
}

/**
 * Base webpack config shared by every app.
 * @param {object} o
 * @param {string} o.app        cache/unique name (folder name, e.g. 'host', 'remote-mail')
 * @param {string} o.appDir     absolute path of the app folder
 * @param {'production'|'development'} [o.mode]
 * @param {string} [o.publicPath] '/' for the host, 'auto' for remotes
 * @param {string} [o.configFile] webpack config path (cache invalidation)
 */
function baseConfig({ app, appDir, mode = 'production', publicPath = 'auto', configFile }) {
  const production = mode === 'production';
  return {
    mode,
    context: appDir,
    entry: { main: './src/index.ts' },
    target: 'web',
    // No eval-based source maps: the console's CSP forbids 'unsafe-eval' (DESIGN §7).
    devtool: production ? false : 'cheap-module-source-map',
    output: {
      path: path.join(appDir, 'dist'),
      publicPath,
      filename: production ? '[name].[contenthash:8].js' : '[name].js',
      chunkFilename: production ? '[name].[contenthash:8].js' : '[name].js',
      assetModuleFilename: 'assets/[name].[contenthash:8][ext]',
      uniqueName: app.replace(/-/g, '_'),
      clean: true,
      // Spec §9: script chunk loading times out after 120 s.
      chunkLoadTimeout: 120000,
    },
    resolve: { extensions: ['.tsx', '.ts', '.js', '.mjs', '.json'] },
    module: {
      rules: [
        {
          test: /\.tsx?$/,
          exclude: /node_modules/,
          loader: require.resolve('ts-loader'),
          // Type errors are caught by `tsc --noEmit` (transpileOnly hides them here).
          options: { transpileOnly: true, configFile: path.join(appDir, 'tsconfig.json') },
        },
      ],
    },
    cache: {
      type: 'filesystem',
      cacheDirectory: path.join(REPO_ROOT, '.cache', 'webpack', app),
      name: `${app}-${mode}`,
      buildDependencies: { config: [__filename, ...(configFile ? [configFile] : [])] },
    },
    optimization: {
      // webpack's own minimizer plugin (minimizer-webpack-plugin) with the swc minifier:
      // same bytes as terser, about half the build time (notes, "Faster builds").
      minimizer: [
        new MinimizerPlugin({
          minify: MinimizerPlugin.swcMinify,
          minimizerOptions: { compress: { passes: 2 }, mangle: true },
          extractComments: false,
        }),
      ],
    },
    performance: { hints: false },
    stats: production ? 'errors-warnings' : 'minimal',
  };
}

/** ModuleFederationPlugin with the project defaults (manifest on, no type download). */
function federation({ name, appDir, exposes, filename = 'remoteEntry.js' }) {
  const ModuleFederationPlugin = loadFederationPlugin(appDir);
  const shared = sharedDependencies(appDir);
  // A remote brings no copy of a singleton: the console provides each one (`import: false`). With
  // its own copy in the share scope, 'loaded-first' could hand a remote built for a newer console
  // its own @qc/auth 2.x (when both are "loading") instead of refusing it, and the page then ran
  // against a second auth store and crashed; with only the console's copy the check is certain.
  if (exposes) for (const key of Object.keys(shared)) shared[key] = { ...shared[key], import: false };
  return new ModuleFederationPlugin({
    name,
    ...(exposes ? { filename, exposes } : {}),
    remotes: {},
    shared,
    // 'loaded-first': share negotiation never fetches remotes. With the default 'version-first' the
    // runtime loads EVERY registered remote's entry when a chunk first consumes a shared module, so
    // remotes were downloaded before their route was visited and a remote that is down broke the
    // host's own shared modules (DESIGN §3: nothing of a remote before its route).
    shareStrategy: 'loaded-first',
    dts: false,
    manifest: { fileName: 'mf-manifest.json' },
  });
}

const FAVICON_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#1677ff"/>' +
  '<path d="M8 11h16v10H8z" fill="none" stroke="#fff" stroke-width="2"/><path d="M8 11l8 6 8-6" fill="none" stroke="#fff" stroke-width="2"/></svg>';

/** The host: served at '/', no remotes baked in (registered at run time from /remotes.json). */
function hostConfig({ appDir, configFile, mode, title = 'Quarantine Console' }) {
  const config = baseConfig({ app: 'host', appDir, mode, publicPath: '/', configFile });
  config.plugins = [
    federation({ name: 'host', appDir }),
    new HtmlWebpackPlugin({
      templateContent: ({ htmlWebpackPlugin }) => `<!doctype html>
<html lang="fr">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <meta name="color-scheme" content="light dark" />
    <title>${htmlWebpackPlugin.options.title}</title>
    <link rel="icon" type="image/svg+xml" href="/favicon.svg" />
    <style>
      /* Shown from the first byte until React replaces #root's content: on a slow link the code
         takes seconds, and a blank page reads as a dead one. */
      body { margin: 0; font-family: system-ui, sans-serif; }
      .qc-splash { display: flex; align-items: center; justify-content: center; min-height: 100vh;
        margin: 0; font-size: 20px; color: #595959; animation: qc-splash 1.2s ease-in-out infinite alternate; }
      @media (prefers-color-scheme: dark) { body { background: #141414; } .qc-splash { color: #bfbfbf; } }
      @keyframes qc-splash { from { opacity: 0.45; } to { opacity: 1; } }
      @media (prefers-reduced-motion: reduce) { .qc-splash { animation: none; } }
    </style>
  </head>
  <body>
    <noscript>Quarantine Console needs JavaScript. / Quarantine Console nécessite JavaScript.</noscript>
    <div id="root"><p class="qc-splash" aria-busy="true">Quarantine Console</p></div>
  </body>
</html>`,
      title,
      scriptLoading: 'defer',
      chunks: ['main'],
    }),
    new EmitStaticFilesPlugin({ 'favicon.svg': FAVICON_SVG }),
    new PrecompressPlugin(),
  ];
  return config;
}

/** A remote container: served from any origin (publicPath auto), exposes its page groups. */
function remoteConfig({ name, app, appDir, exposes, configFile, mode }) {
  const config = baseConfig({ app, appDir, mode, publicPath: 'auto', configFile });
  // A remote has no page of its own: the container entry is its only entry.
  config.entry = {};
  config.plugins = [federation({ name, appDir, exposes }), new PrecompressPlugin()];
  // The manifest plugin logs "Manifest will use absolute path resolution ... publicPath='auto'":
  // expected, the runtime resolves the remote's assets from the manifest's own URL.
  return config;
}

module.exports = {
  sharedDependencies,
  baseConfig,
  federation,
  hostConfig,
  remoteConfig,
  EmitStaticFilesPlugin,
  PrecompressPlugin,
  WORKSPACE_SINGLETONS,
  NPM_SINGLETONS,
};
