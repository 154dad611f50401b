import { createRequire } from 'node:module';
import path from 'node:path';

// The console provides every singleton; a remote brings none (see `federation` in @qc/mf-config).
// With its own copy in the share scope, a remote built for a newer console could be handed that
// copy instead of being refused (a second auth store, and a crash in place of the notice).
const mf = createRequire(__filename)(path.resolve(__dirname, '..', 'shared', 'mf-config', 'index.cjs'));
const appDir = path.resolve(__dirname, '..', 'remote-haraka');
const sharedOf = (plugin: { _options: { shared: Record<string, { import?: false }> } }) => plugin._options.shared;

test('a remote consumes every singleton from the console and bundles none', () => {
  const shared = sharedOf(mf.federation({ name: 'remote_x', appDir, exposes: { './X': './x.tsx' } }));
  const singletons = [...mf.WORKSPACE_SINGLETONS, ...Object.keys(mf.NPM_SINGLETONS)];
  expect(Object.keys(shared).sort()).toEqual([...singletons].sort());
  for (const key of singletons) expect({ key, import: shared[key].import }).toEqual({ key, import: false });
});

test('the host provides each of them', () => {
  const shared = sharedOf(mf.federation({ name: 'host', appDir }));
  for (const [key, config] of Object.entries(shared))
    expect({ key, import: config.import }).toEqual({ key, import: undefined });
});
