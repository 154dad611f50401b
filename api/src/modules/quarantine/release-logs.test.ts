import { bearer, createTestApp, freePort } from '../../test/helpers';
import { INGEST_TOKEN, ingestOk, meta, startSink } from '../../test/quarantine';

// Issue 29 item 10: a relay's refusal or absence is an outcome the console expects, not a fault of
// its own: one warning line without a stack. A fault of its own (here, no relay configured) stays
// an error with its stack.

interface LogLine {
  level: number;
  msg: string;
  code?: string;
  err?: { stack?: string };
}

/** Releases one mail through an app on `relayUrl` (none: no relay configured); its status and log lines. */
async function releaseAndLog(relayUrl: string | undefined): Promise<{ status: number; lines: LogLine[] }> {
  const lines: LogLine[] = [];
  const app = await createTestApp(
    { QC_INGEST_TOKEN: INGEST_TOKEN, QC_LOG_LEVEL: 'warn', ...(relayUrl ? { QC_SMTP_URL: relayUrl } : {}) },
    { logStream: { write: (line) => void lines.push(JSON.parse(line) as LogLine) } },
  );
  try {
    await app.createUser({ email: 'ann@a.example', role: 'user' });
    const token = (await app.login('ann@a.example')).access;
    const id = await ingestOk(app, meta({ rcpt_to: ['ann@a.example'] }));
    const res = await app.app.inject({ method: 'POST', url: `/api/quarantine/${id}/release/`, headers: bearer(token) });
    return { status: res.statusCode, lines };
  } finally {
    await app.close();
  }
}

test('a relay refusing the message: a warning naming the code, without a stack', async () => {
  const sink = await startSink();
  sink.mode = 'reject-rcpt';
  try {
    const { status, lines } = await releaseAndLog(sink.url);
    expect(status).toBe(502);
    expect(lines.map(({ level, msg, code, err }) => ({ level, msg, code, err }))).toEqual([
      {
        level: 40,
        msg: 'The mail relay refused the message; it stays in quarantine.',
        code: 'relay_refused',
        err: undefined,
      },
    ]);
  } finally {
    await sink.close();
  }
});

test('a relay that cannot be reached: a warning, without a stack', async () => {
  const { status, lines } = await releaseAndLog(`smtp://127.0.0.1:${await freePort()}`);
  expect(status).toBe(502);
  expect(lines.map((l) => [l.level, l.code, l.err])).toEqual([[40, 'relay_unreachable', undefined]]);
});

test('no relay configured is the console’s own fault: an error, with its stack', async () => {
  const { status, lines } = await releaseAndLog(undefined);
  expect(status).toBe(503);
  expect(lines).toEqual([
    expect.objectContaining({
      level: 50,
      err: expect.objectContaining({ stack: expect.stringContaining('HttpError') }),
    }),
  ]);
});
