import { createTestEnv, postgresOnly } from '../test/helpers'; // first: it makes jest able to load kysely
import { buildApp } from '../app';
import { loadConfig } from '../config';
import { openMigratedDatabase, unsafeDurability } from './database';

test('fsync or synchronous_commit off is unsafe; on, local and remote_write are not', () => {
  expect(unsafeDurability({ fsync: 'on', synchronous_commit: 'on' })).toEqual([]);
  expect(unsafeDurability({ fsync: 'on', synchronous_commit: 'local' })).toEqual([]);
  expect(unsafeDurability({ fsync: 'on', synchronous_commit: 'remote_write' })).toEqual([]);
  expect(unsafeDurability({ fsync: 'off', synchronous_commit: 'on' })).toEqual(['fsync']);
  expect(unsafeDurability({ fsync: 'off', synchronous_commit: 'off' })).toEqual(['fsync', 'synchronous_commit']);
  expect(unsafeDurability({ fsync: 'on', synchronous_commit: 'OFF' })).toEqual(['synchronous_commit']);
});

/** The app's start-up log lines, on the test server with these session settings (`-c name=value`). */
async function startupLines(settings: string[]): Promise<{ level: number; msg: string; setting?: string }[]> {
  const env = await createTestEnv({ QC_LOG_LEVEL: 'warn' });
  const url = new URL(env.env.QC_DATABASE_URL!);
  url.searchParams.set('options', [url.searchParams.get('options'), ...settings].join(' '));
  const config = loadConfig({ ...env.env, QC_DATABASE_URL: url.toString() }, env.tmpDir);
  const lines: string[] = [];
  const app = await buildApp(config, {
    database: await openMigratedDatabase(config.database),
    logStream: { write: (line) => void lines.push(line) },
  });
  try {
    await app.ready();
  } finally {
    await app.close();
    await env.cleanup();
  }
  return lines.map((l) => JSON.parse(l) as { level: number; msg: string; setting?: string });
}

postgresOnly('start-up warns when PostgreSQL runs with synchronous_commit off, naming it and the risk', async () => {
  // The test server runs durable: a session-level setting stands for a server or role configured so.
  const warned = (await startupLines(['-c synchronous_commit=off'])).filter((l) => l.setting);
  expect(warned).toEqual([
    expect.objectContaining({
      level: 40,
      setting: 'synchronous_commit',
      msg: expect.stringMatching(/synchronous_commit = off: mail the console accepted.*lost.*crashes/),
    }),
  ]);
  expect((await startupLines([])).filter((l) => l.setting)).toEqual([]);
});
