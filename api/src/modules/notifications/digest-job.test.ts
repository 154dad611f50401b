import type { MailMessage, Mailer } from '../../lib/mailer';
import { createTestApp, type TestApp } from '../../test/helpers';
import { INGEST_TOKEN, ingestOk, meta, mime } from '../../test/quarantine';
import { findJobLock } from '../jobs/jobs.repository';
import { scheduleJobs } from '../jobs/jobs.service';
import { DIGEST_JOB } from './digest.service';

// The digest on the jobs runner of an api process (scheduleJobs), on the real clock: a schedule of
// every second (QC_DIGEST_SCHEDULE), a mailer that records instead of sending. Users are on the
// built-in defaults (daily, on): a message held ten minutes ago is in their first digest.

let t: TestApp;
const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };

beforeAll(async () => {
  t = await createTestApp({
    QC_INGEST_TOKEN: INGEST_TOKEN,
    // Never contacted: the recording mailer stands in for it; the schedule needs a relay configured.
    QC_SMTP_URL: 'smtp://127.0.0.1:9',
    QC_DIGEST_SCHEDULE: '* * * * * *',
  });
});
afterAll(async () => {
  await t.close();
});

function recorder(): Mailer & { sent: MailMessage[] } {
  const sent: MailMessage[] = [];
  return {
    sent,
    async send(message) {
      sent.push(message);
    },
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const rowsOf = (userId: string) =>
  t.db.selectFrom('digest_sends').select(['kind', 'status', 'item_count']).where('user_id', '=', userId).execute();

/** A user with a message held for them ten minutes ago. */
async function userWithHeldMail(email: string) {
  const user = await t.createUser({ email });
  await ingestOk(
    t,
    meta({ rcpt_to: [email], received_at: new Date(Date.now() - 10 * 60_000).toISOString() }),
    mime({ subject: `Held for ${email}`, to: email }),
  );
  return user;
}

test('the jobs runner sends the digest on QC_DIGEST_SCHEDULE and records the period; stop() stops it', async () => {
  const mailer = recorder();
  const ann = await userWithHeldMail('ann@a.example');
  const jobs = scheduleJobs({ db: t.db, config: t.config, mailer }, quiet);
  try {
    for (let i = 0; i < 50 && (await rowsOf(ann.id)).length === 0; i++) await sleep(100);
    for (let i = 0; i < 20 && !mailer.sent.some((m) => m.to === 'ann@a.example'); i++) await sleep(100);
  } finally {
    await jobs.stop();
  }
  expect(await rowsOf(ann.id)).toEqual([{ kind: 'user', status: 'sent', item_count: 1 }]);
  const mails = mailer.sent.filter((m) => m.to === 'ann@a.example');
  expect(mails).toHaveLength(1);
  expect(mails[0]!.subject).toBe('Quarantaine\u00a0: 1 message en attente');
  expect(mails[0]!.text).toContain('Held for ann@a.example');
  expect(await findJobLock(t.db, DIGEST_JOB)).toMatchObject({ locked_until: 0 });

  // Stopped: a user due now gets nothing any more.
  const sent = mailer.sent.length;
  const bob = await userWithHeldMail('bob@a.example');
  await sleep(2500);
  expect(await rowsOf(bob.id)).toEqual([]);
  expect(mailer.sent).toHaveLength(sent);
});

test.each<[string, string, Partial<TestApp['config']>]>([
  ['QC_DIGEST_SCHEDULE=off', 'off@a.example', { digestSchedule: 'off' }],
  ['no QC_SMTP_URL', 'norelay@a.example', { smtpUrl: null }],
])('%s: the digest is not scheduled', async (_, email, change) => {
  const mailer = recorder();
  const user = await userWithHeldMail(email);
  const jobs = scheduleJobs({ db: t.db, config: { ...t.config, ...change }, mailer }, quiet);
  try {
    await sleep(2500); // more than two ticks of the every-second schedule
  } finally {
    await jobs.stop();
  }
  expect(await rowsOf(user.id)).toEqual([]);
  expect(mailer.sent).toEqual([]);
});
