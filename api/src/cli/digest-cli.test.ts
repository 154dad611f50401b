import { simpleParser } from 'mailparser';
import { createTestApp, type TestApp } from '../test/helpers';
import { INGEST_TOKEN, ingestOk, meta, mime, startSink, type Sink } from '../test/quarantine';
import { runCli, type CliIo } from './run-cli';

// `digest:run [--now]` on the real clock, against the app's database and a real SMTP server.

let t: TestApp;
let sink: Sink;
beforeAll(async () => {
  sink = await startSink();
  t = await createTestApp({ QC_INGEST_TOKEN: INGEST_TOKEN, QC_SMTP_URL: sink.url });
});
afterAll(async () => {
  await t.close();
  await sink.close();
});

async function cli(args: string[], env = t.env) {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    env,
    cwd: t.tmpDir,
    stdout: (s) => (stdout += s),
    stderr: (s) => (stderr += s),
    readStdin: async () => '',
  };
  return { code: await runCli(args, io), stdout, stderr };
}

test('digest:run sends what is due once; --now sends the next period early, once; no relay is an error', async () => {
  // On the built-in defaults (daily at 08:00, Paris): the first digest covers the last period.
  await t.createUser({ email: 'ivy@a.example' });
  // Five minutes ago: a digest lists what arrived until two minutes before its run (DIGEST_GRACE_MS).
  const fiveMinutesAgo = new Date(Date.now() - 5 * 60_000).toISOString();
  await ingestOk(
    t,
    meta({ rcpt_to: ['ivy@a.example'], received_at: fiveMinutesAgo }),
    mime({ to: 'ivy@a.example', subject: 'Held now' }),
  );

  expect(await cli(['digest:run'])).toEqual({
    code: 0,
    stdout: 'Digests: 1 sent, 0 empty (nothing held, not sent), 0 failed, 0 claimed by another runner\n',
    stderr: '',
  });
  const mail = await simpleParser(sink.messages[0]!.raw);
  expect(mail.subject).toBe('Quarantaine\u00a0: 1 message en attente');
  expect(mail.text).toContain('Held now');
  expect((await cli(['digest:run'])).stdout).toMatch(/^Digests: 0 sent, 0 empty/);

  // --now: this period is done, so the next one's digest goes now (nothing new: recorded empty).
  expect((await cli(['digest:run', '--now'])).stdout).toMatch(/^Digests: 0 sent, 1 empty/);
  expect((await cli(['digest:run', '--now'])).stdout).toMatch(/^Digests: 0 sent, 0 empty/);
  expect(sink.messages).toHaveLength(1);
  const rows = await t.db
    .selectFrom('digest_sends')
    .select(['status', 'period_start'])
    .orderBy('period_start')
    .execute();
  expect(rows.map((r) => r.status)).toEqual(['sent', 'empty']);

  const { QC_SMTP_URL: _, ...withoutRelay } = t.env;
  expect(await cli(['digest:run'], withoutRelay)).toEqual({
    code: 1,
    stdout: '',
    stderr: 'error: QC_SMTP_URL is not set: digests cannot be sent\n',
  });
});
