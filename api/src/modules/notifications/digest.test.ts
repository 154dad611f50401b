import { DIGEST_LIMITS, type NotificationPrefs } from '@qc/contracts';
import { simpleParser, type ParsedMail } from 'mailparser';
import { createMailer } from '../../lib/mailer';
import { bearer, createTestApp, type TestApp } from '../../test/helpers';
import { INGEST_TOKEN, ingestOk, meta, mime, startSink, type Sink } from '../../test/quarantine';
import { verifyDigestLink, type DigestLinkClaims } from './digest-link';
import { claimDigest, digestCandidates } from './digest.repository';
import { DIGEST_GRACE_MS, runDigests, sendTestDigest, type DigestDeps } from './digest.service';

// The digest job on a real database (SQLite, or PostgreSQL with QC_TEST_DATABASE_URL), sending
// through the console's own mailer to a real SMTP server, on fake clocks (`now`). Held mail is
// ingested with received_at in March 2026 around Paris's change to summer time (29 March).

const PUBLIC = 'https://console.example.org';
let t: TestApp;
let sink: Sink;
let deps: DigestDeps;

beforeAll(async () => {
  sink = await startSink();
  t = await createTestApp({
    QC_INGEST_TOKEN: INGEST_TOKEN,
    QC_SMTP_URL: sink.url,
    QC_PUBLIC_URL: `${PUBLIC}/`,
    QC_MAIL_FROM: 'console@example.org',
    QC_RETENTION_DAYS: '0',
  });
  deps = { db: t.db, config: t.config, mailer: createMailer(t.config, { info: () => undefined }) };
  // Users without their own settings get nothing here: each test turns on only its own users.
  await t.db
    .insertInto('notification_defaults')
    .values({
      id: 1,
      enabled: 0,
      frequency: 'daily',
      send_time: '08:00',
      time_zone: 'Europe/Paris',
      language: 'fr',
      updated_at: 0,
    })
    .execute();
});
afterAll(async () => {
  await t.close();
  await sink.close();
});
afterEach(async () => {
  await t.db.updateTable('notification_settings').set({ enabled: 0 }).execute();
  sink.mode = 'accept';
  sink.delayMs = 0;
});

const at = (iso: string) => Date.parse(iso);
// Monday 30 March 2026, 08:02 in Paris (summer time): the daily 08:00 period began two minutes ago;
// the one before began Sunday 29 March 08:00 CEST.
const NOW = at('2026-03-30T06:02:00Z');
const DAY = 24 * 3600 * 1000;
const DAILY: NotificationPrefs = {
  enabled: true,
  frequency: 'daily',
  send_time: '08:00',
  time_zone: 'Europe/Paris',
  language: 'fr',
};

async function user(
  email: string,
  prefs: Partial<NotificationPrefs> = {},
  extra: { role?: 'user' | 'domain_admin'; domain?: string; domainDigest?: boolean } = {},
) {
  const u = await t.createUser({ email, role: extra.role ?? 'user', domain: extra.domain });
  const p = { ...DAILY, ...prefs };
  await t.db
    .insertInto('notification_settings')
    .values({
      user_id: u.id,
      enabled: p.enabled ? 1 : 0,
      frequency: p.frequency,
      send_time: p.send_time,
      time_zone: p.time_zone,
      language: p.language,
      domain_digest: extra.domainDigest ? 1 : 0,
      updated_at: 0,
    })
    .execute();
  return u;
}

/** A message held for `to`, received at `iso`; its id. */
function held(to: string[], iso: string, subject = 'Win a prize') {
  return ingestOk(
    t,
    meta({ rcpt_to: to, received_at: iso, mail_from: 'king@spam.example' }),
    mime({ subject, to: to.join(', ') }),
  );
}

async function mailsTo(address: string): Promise<ParsedMail[]> {
  return Promise.all(sink.messages.filter((m) => m.to.includes(address)).map((m) => simpleParser(m.raw)));
}

const rowsOf = (userId: string) =>
  t.db.selectFrom('digest_sends').selectAll().where('user_id', '=', userId).orderBy('period_start').execute();

/** Every digest link in a text: its claims (null when it does not verify). */
function links(text: string): { url: string; claims: DigestLinkClaims | null }[] {
  return [...text.matchAll(/https:\/\/console\.example\.org\/digest\/([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+)/g)].map((m) => ({
    url: m[0],
    claims: verifyDigestLink(t.config.secretKey, m[1]!),
  }));
}

const summary = (sent: number, empty = 0, failed = 0, skipped = 0) => ({ sent, empty, failed, skipped });

test('the French digest: newest first, why held, three signed links per item, console, one-click unsubscribe', async () => {
  const ann = await user('ann@a.example');
  const older = await held(['ann@a.example'], '2026-03-28T10:00:00Z', 'Before the last period');
  const m1 = await held(['ann@a.example'], '2026-03-29T10:00:00Z', 'Win a prize');
  // An encoded-word may carry what a header line cannot: a line break, a bell, a bidi override.
  const tricky = Buffer.from('<b>Bold</b> \u202Egnp.exe\r\n\u0007X', 'utf8').toString('base64');
  const m2 = await held(['ann@a.example', 'bob@a.example'], '2026-03-29T20:00:00Z', `=?UTF-8?B?${tricky}?=`);
  const gone = await held(['ann@a.example'], '2026-03-29T21:00:00Z', 'Deleted since');
  await t.db.updateTable('quarantine_recipients').set({ status: 'deleted' }).where('message_id', '=', gone).execute();
  await held(['bob@a.example'], '2026-03-29T22:00:00Z', 'Not for Ann');

  expect(await runDigests(deps, { now: NOW })).toEqual(summary(1));
  const [mail, ...more] = await mailsTo('ann@a.example');
  expect(more).toHaveLength(0);
  expect(mail!.subject).toBe('Quarantaine\u00a0: 2 messages en attente');
  expect(mail!.from?.value[0]?.address).toBe('console@example.org');
  const text = mail!.text!;
  expect(text).toContain('2 messages adressés à ann@a.example sont retenus en quarantaine depuis le dernier résumé.');
  expect(text).not.toContain('Before the last period'); // the first digest covers the last period only
  expect(text).not.toContain('Deleted since');
  expect(text).not.toContain('Not for Ann');
  // Newest first; the date on the user's clock (20:00 UTC is 22:00 in Paris); score and reasons,
  // strongest first, with their descriptions; the subject's controls are neither kept nor hidden.
  expect(text.indexOf('[U+202E]gnp.exe')).toBeLessThan(text.indexOf('Win a prize'));
  expect(text).toContain('* <b>Bold</b> [U+202E]gnp.exe X\n');
  expect(text).toMatch(/29 mars 2026.*22:00 · Score 15/);
  expect(text).toContain(
    'Raisons\u00a0: R_SPF_SOFTFAIL – SPF softfail (0,5); GTUBE – Test pattern (0); R_DKIM_ALLOW (-0,2)',
  );
  expect(text).toContain(`Ouvrir la quarantaine dans la console\u00a0: ${PUBLIC}/quarantine`);

  // Every link verifies, is Ann's, and names its message and action; they expire in 7 days.
  const found = links(text);
  expect(found).toHaveLength(7);
  const claims = found.map((l) => l.claims!);
  expect(claims.every((c) => c.userId === ann.id && c.kind === 'user')).toBe(true);
  expect(
    claims.every(
      (c) => c.expiresAt === Math.floor((NOW + DIGEST_LIMITS.linkTtlMs) / 1000) * 1000 || c.action === 'unsubscribe',
    ),
  ).toBe(true);
  expect(claims.map((c) => [c.action, c.messageId])).toEqual([
    ['release', m2],
    ['allow_sender', m2],
    ['delete', m2],
    ['release', m1],
    ['allow_sender', m1],
    ['delete', m1],
    ['unsubscribe', null],
  ]);
  expect(new Set(claims.map((c) => c.id)).size).toBe(7);
  expect(text).toContain(`Libérer\u00a0: ${found[0]!.url}\n`);

  // RFC 8058: the api URL of the same unsubscribe token, and the one-click POST header.
  const header =
    '\r\n' +
    sink.messages
      .find((m) => m.to.includes('ann@a.example'))!
      .raw.toString('utf8')
      .split('\r\n\r\n')[0]!
      .replace(/\r\n[ \t]+/g, ' ');
  const unsubscribeToken = found[6]!.url.split('/digest/')[1]!;
  expect(header).toContain(`\r\nList-Unsubscribe: <${PUBLIC}/api/digest/${unsubscribeToken}/>\r\n`);
  expect(header).toContain('\r\nList-Unsubscribe-Post: List-Unsubscribe=One-Click\r\n');

  // The HTML: the same content, everything from the mail escaped, no remote content.
  const html = mail!.html as string;
  expect(html).toContain('&lt;b&gt;Bold&lt;/b&gt; [U+202E]gnp.exe X');
  expect(html).not.toContain('<b>Bold');
  expect(html).not.toMatch(/[\u202E\u0000-\u0008]/);
  expect(html).not.toMatch(/<img|src=|url\(|<script/i);
  expect(html).toContain('<html lang="fr">');
  expect(html).toContain(`href="${found[0]!.url}"`);
  expect(html).toContain('>Autoriser l’expéditeur</a>');
  expect(html).toContain(`href="${PUBLIC}/digest/${unsubscribeToken}"`);

  // The period is recorded: the run's time less the grace is the next digest's cutoff.
  expect(await rowsOf(ann.id)).toEqual([
    expect.objectContaining({
      kind: 'user',
      status: 'sent',
      attempts: 1,
      item_count: 2,
      error: null,
    }),
  ]);
  const [row] = await rowsOf(ann.id);
  expect([Number(row!.period_start), Number(row!.cutoff), Number(row!.sent_at)]).toEqual([
    at('2026-03-30T06:00:00Z'),
    NOW - DIGEST_GRACE_MS,
    NOW,
  ]);
  expect(older).toBeTruthy();
});

test('the test digest: in the language of the settings (English), all that is held now, no period recorded; nothing held still sends', async () => {
  const cy = await user('cy@a.example', { enabled: false, language: 'en' });
  await held(['cy@a.example'], '2026-03-01T10:00:00Z', 'Old one');
  await held(['cy@a.example'], '2026-03-29T10:00:00Z', 'New one');
  const res = await sendTestDigest(deps, cy.id, { now: NOW });
  expect(res).toEqual({ sent: true, count: 2, relay_response: expect.stringMatching(/^250 /) });
  const [mail] = await mailsTo('cy@a.example');
  expect(mail!.subject).toBe('[Test] Quarantine: 2 messages held');
  expect(mail!.text).toContain('2 messages to cy@a.example are held in quarantine right now (test digest).');
  expect(mail!.text).toContain('Reasons: R_SPF_SOFTFAIL – SPF softfail (0.5); GTUBE – Test pattern (0)');
  expect(mail!.text).toMatch(/Release: https:.*\n {2}Allow sender: https:.*\n {2}Delete: https:/);
  expect(mail!.text).toContain('Times in Europe/Paris.');
  expect(mail!.html).toContain('<html lang="en">');
  expect(links(mail!.text!).every((l) => l.claims?.userId === cy.id)).toBe(true);
  expect(await rowsOf(cy.id)).toEqual([]);

  const dee = await user('dee@a.example');
  expect(await sendTestDigest(deps, dee.id, { now: NOW })).toMatchObject({ sent: true, count: 0 });
  const [empty] = await mailsTo('dee@a.example');
  expect(empty!.subject).toBe('[Test] Quarantaine\u00a0: aucun message en attente');
  expect(empty!.text).toContain('Aucun message n’est retenu pour vous en ce moment.');
  expect(links(empty!.text!).map((l) => l.claims?.action)).toEqual(['unsubscribe']);

  sink.mode = 'reject-data';
  expect(await sendTestDigest(deps, dee.id, { now: NOW })).toEqual({
    sent: false,
    count: 0,
    relay_response: expect.stringMatching(/^550 5\.7\.1/),
  });
});

test('the periodic digest in English: subject, intro since the last digest, dates, reasons, links, footer', async () => {
  const lea = await user('lea@a.example', { language: 'en' });
  const id = await held(['lea@a.example'], '2026-03-29T10:00:00Z', 'Cheap pills');
  expect(await runDigests(deps, { now: NOW })).toEqual(summary(1));
  const [mail, ...more] = await mailsTo('lea@a.example');
  expect(more).toHaveLength(0);
  expect(mail!.subject).toBe('Quarantine: 1 message held');
  const text = mail!.text!;
  expect(text).toContain('1 message to lea@a.example is held in quarantine since the last digest.');
  expect(text).not.toContain('test digest');
  expect(text).toContain('  29 Mar 2026, 12:00 · Score 15\n  From: king@spam.example\n'); // 10:00 UTC, Paris's clock
  expect(text).toContain('A link works once and expires on 6 April 2026 at 08:02 at the latest.');
  expect(text).toContain('Reasons: R_SPF_SOFTFAIL – SPF softfail (0.5); GTUBE – Test pattern (0); R_DKIM_ALLOW (-0.2)');
  expect(text).toMatch(/Release: https:.*\n {2}Allow sender: https:.*\n {2}Delete: https:/);
  expect(text).toContain(`Open the quarantine in the console: ${PUBLIC}/quarantine`);
  expect(text).toContain('You receive this digest because quarantine notifications are on for your account.');
  expect(text).toContain('Times in Europe/Paris.');
  expect(mail!.html).toContain('<html lang="en">');
  expect(mail!.html).toContain('>Stop these digests</a>');
  const claims = links(text).map((l) => l.claims!);
  expect(claims.map((c) => [c.action, c.messageId, c.userId])).toEqual([
    ['release', id, lea.id],
    ['allow_sender', id, lea.id],
    ['delete', id, lea.id],
    ['unsubscribe', null, lea.id],
  ]);
});

test('two runners at once: exactly one digest per user and period; a fresh claim is left alone, a stale one taken over', async () => {
  const users = await Promise.all(['r1', 'r2', 'r3', 'r4'].map((n) => user(`${n}@a.example`)));
  for (const u of users) await held([u.email], '2026-03-29T12:00:00Z');
  const other = { ...deps, mailer: createMailer(t.config, { info: () => undefined }) };
  sink.delayMs = 100; // both runners are mid-send together
  const [a, b] = await Promise.all([runDigests(deps, { now: NOW }), runDigests(other, { now: NOW })]);
  expect(a.sent + b.sent).toBe(4);
  expect(a.failed + b.failed + a.empty + b.empty).toBe(0);
  for (const u of users) {
    expect(await mailsTo(u.email)).toHaveLength(1);
    expect((await rowsOf(u.id)).map((r) => r.status)).toEqual(['sent']);
  }
  expect(await runDigests(deps, { now: NOW + 5 * 60_000 })).toEqual(summary(0));

  // The claim itself, raced: of ten runners exactly one gets (user, kind, period).
  const key = { userId: users[0]!.id, kind: 'user' as const, periodStart: NOW + DAY };
  const wins = await Promise.all(Array.from({ length: 10 }, (_, i) => claimDigest(t.db, key, `r${i}`, NOW, 60_000)));
  expect(wins.filter(Boolean)).toHaveLength(1);

  // Another runner's claim: fresh, it is left to it; 20 minutes old (that runner died), it is taken over.
  const [s1, s2] = await Promise.all(['s1', 's2'].map((n) => user(`${n}@a.example`)));
  for (const u of [s1!, s2!]) await held([u.email], '2026-03-29T12:00:00Z');
  const period = at('2026-03-30T06:00:00Z');
  await t.db
    .insertInto('digest_sends')
    .values([
      {
        user_id: s1!.id,
        kind: 'user',
        period_start: period,
        status: 'sending',
        claimed_by: 'x',
        claimed_at: NOW - 60_000,
        attempts: 0,
      },
      {
        user_id: s2!.id,
        kind: 'user',
        period_start: period,
        status: 'sending',
        claimed_by: 'y',
        claimed_at: NOW - 20 * 60_000,
        attempts: 0,
      },
    ])
    .execute();
  expect(await runDigests(deps, { now: NOW })).toEqual(summary(1, 0, 0, 1));
  expect(await mailsTo('s1@a.example')).toHaveLength(0);
  expect(await mailsTo('s2@a.example')).toHaveLength(1);
});

test('nothing held: recorded empty, nothing sent; the next period lists what came since', async () => {
  const eve = await user('eve@a.example');
  expect(await runDigests(deps, { now: NOW })).toEqual(summary(0, 1));
  expect(await mailsTo('eve@a.example')).toHaveLength(0);
  const [row] = await rowsOf(eve.id);
  expect([row!.status, Number(row!.cutoff), row!.item_count]).toEqual(['empty', NOW - DIGEST_GRACE_MS, 0]);

  await held(['eve@a.example'], '2026-03-30T09:00:00Z', 'After the empty one');
  expect(await runDigests(deps, { now: NOW + DAY })).toEqual(summary(1));
  const [mail] = await mailsTo('eve@a.example');
  expect(mail!.text).toContain('After the empty one');
});

test('after downtime: one digest for the current period with everything since the last one, not one per missed day', async () => {
  const fay = await user('fay@a.example');
  await held(['fay@a.example'], '2026-03-29T12:00:00Z', 'Day 0');
  expect(await runDigests(deps, { now: NOW })).toEqual(summary(1));
  for (const [day, iso] of [
    [1, '2026-03-30T12:00:00Z'],
    [2, '2026-03-31T12:00:00Z'],
    [3, '2026-04-01T12:00:00Z'],
  ] as const)
    await held(['fay@a.example'], iso, `Day ${day}`);
  // Down from Monday 08:02 to Thursday 13:00: Tuesday's, Wednesday's and Thursday's periods were missed.
  const later = at('2026-04-02T11:00:00Z');
  expect(await runDigests(deps, { now: later })).toEqual(summary(1));
  expect(await runDigests(deps, { now: later + 5 * 60_000 })).toEqual(summary(0));
  const mails = await mailsTo('fay@a.example');
  expect(mails.map((m) => m.subject)).toEqual([
    'Quarantaine\u00a0: 1 message en attente',
    'Quarantaine\u00a0: 3 messages en attente',
  ]);
  expect(mails[1]!.text).not.toContain('Day 0');
  expect((await rowsOf(fay.id)).map((r) => new Date(Number(r.period_start)).toISOString())).toEqual([
    '2026-03-30T06:00:00.000Z',
    '2026-04-02T06:00:00.000Z',
  ]);
});

test('a relay refusal: recorded failed with its answer, retried at the next run, then sent', async () => {
  const gus = await user('gus@a.example');
  await held(['gus@a.example'], '2026-03-29T12:00:00Z');
  sink.mode = 'reject-data';
  expect(await runDigests(deps, { now: NOW })).toEqual(summary(0, 0, 1));
  let [row] = await rowsOf(gus.id);
  expect([row!.status, row!.attempts, row!.cutoff, row!.sent_at]).toEqual(['failed', 1, null, null]);
  expect(row!.error).toMatch(/^550 5\.7\.1 Message content rejected/);
  expect(sink.refused.some((m) => m.to.includes('gus@a.example'))).toBe(true);
  // The settings say so, with the relay's answer.
  const { access } = await t.login('gus@a.example');
  const settings = () =>
    t.app.inject({ method: 'GET', url: '/api/users/me/notifications/', headers: bearer(access) }).then((r) => r.json());
  expect(await settings()).toMatchObject({
    last_sent: null,
    last_attempt_failed: true,
    last_error: expect.stringMatching(/^550 5\.7\.1 Message content rejected/),
  });

  sink.mode = 'accept';
  expect(await runDigests(deps, { now: NOW + 5 * 60_000 })).toEqual(summary(1));
  [row] = await rowsOf(gus.id);
  expect([row!.status, row!.attempts, row!.error, Number(row!.sent_at)]).toEqual(['sent', 2, null, NOW + 5 * 60_000]);
  expect(await mailsTo('gus@a.example')).toHaveLength(1);
  expect(await settings()).toMatchObject({
    last_sent: new Date(NOW + 5 * 60_000).toISOString(),
    last_attempt_failed: false,
    last_error: null,
  });
});

test('a domain_admin with the domain digest gets their own and their domain’s, with domain links', async () => {
  const boss = await user('boss@d.example', {}, { role: 'domain_admin', domain: 'd.example', domainDigest: true });
  const both = await held(['x@d.example', 'y@d.example'], '2026-03-29T12:00:00Z', 'To two of the domain');
  const z = await held(['z@d.example'], '2026-03-29T13:00:00Z', 'To z');
  const own = await held(['boss@d.example'], '2026-03-29T14:00:00Z', 'To the boss');
  await held(['w@e.example'], '2026-03-29T15:00:00Z', 'Another domain');
  expect(await runDigests(deps, { now: NOW })).toEqual(summary(2));
  const mails = await mailsTo('boss@d.example');
  const domainMail = mails.find((m) => m.subject?.startsWith('Quarantaine de d.example'))!;
  const ownMail = mails.find((m) => m.subject === 'Quarantaine\u00a0: 1 message en attente')!;
  expect(domainMail.subject).toBe('Quarantaine de d.example\u00a0: 3 messages en attente');
  expect(domainMail.text).toContain('3 messages pour le domaine d.example sont retenus');
  expect(domainMail.text).toContain('avec vos droits d’administrateur du domaine');
  expect(domainMail.text).not.toContain('Another domain');
  const claims = links(domainMail.text!).map((l) => l.claims!);
  expect(claims.every((c) => c.kind === 'domain' && c.userId === boss.id)).toBe(true);
  expect([...new Set(claims.map((c) => c.messageId))]).toEqual([own, z, both, null]);
  expect(links(ownMail.text!).map((l) => l.claims!.messageId)).toEqual([own, own, own, null]);
  expect((await rowsOf(boss.id)).map((r) => [r.kind, r.status]).sort()).toEqual([
    ['domain', 'sent'],
    ['user', 'sent'],
  ]);
});

test('--now (all): sends now whatever the send time, once; the scheduled one then does not go again', async () => {
  // Weekly on Mondays at 18:00: on Monday 08:02 the current period is last Monday's.
  const hal = await user('hal@a.example', { frequency: 'weekly', send_time: '18:00' });
  await held(['hal@a.example'], '2026-03-29T12:00:00Z', 'First');
  expect(await runDigests(deps, { now: NOW })).toEqual(summary(1)); // last Monday's period, first digest
  await held(['hal@a.example'], '2026-03-30T06:00:30Z', 'Second');
  expect(await runDigests(deps, { now: NOW + 60_000, all: true })).toEqual(summary(1)); // today 18:00's, early
  expect(await runDigests(deps, { now: NOW + 120_000, all: true })).toEqual(summary(0));
  expect(await runDigests(deps, { now: at('2026-03-30T16:05:00Z') })).toEqual(summary(0)); // 18:05 CEST
  const mails = await mailsTo('hal@a.example');
  expect(mails).toHaveLength(2);
  expect(mails[1]!.text).toContain('Second');
  expect(mails[1]!.text).not.toContain('First');
  expect((await rowsOf(hal.id)).map((r) => new Date(Number(r.period_start)).toISOString())).toEqual([
    '2026-03-23T17:00:00.000Z',
    '2026-03-30T16:00:00.000Z',
  ]);
});

test('a new send time or time zone: no second digest that day, and what was listed is not listed again', async () => {
  const ida = await user('ida@a.example');
  const tom = await user('tom@a.example');
  for (const u of [ida, tom]) await held([u.email], '2026-03-29T12:00:00Z', 'Listed on Monday');
  expect(await runDigests(deps, { now: NOW })).toEqual(summary(2));
  // Monday 09:00 CEST, after the 08:00 digests: Ida moves hers to 07:00, Tom to Tokyo (08:00 there
  // is 23:00 UTC the day before): the periods now begin before the digest that went out.
  for (const u of [ida, tom]) await held([u.email], '2026-03-30T07:00:00Z', 'After Monday’s');
  await t.db.updateTable('notification_settings').set({ send_time: '07:00' }).where('user_id', '=', ida.id).execute();
  await t.db
    .updateTable('notification_settings')
    .set({ time_zone: 'Asia/Tokyo' })
    .where('user_id', '=', tom.id)
    .execute();
  expect(await runDigests(deps, { now: at('2026-03-30T08:00:00Z') })).toEqual(summary(0));
  expect(await mailsTo('ida@a.example')).toHaveLength(1);
  expect(await mailsTo('tom@a.example')).toHaveLength(1);
  // The next periods: what came after Monday's digest, not what it listed.
  expect(await runDigests(deps, { now: at('2026-03-30T23:02:00Z') })).toEqual(summary(1)); // Tom, 08:02 JST
  expect(await runDigests(deps, { now: at('2026-03-31T05:02:00Z') })).toEqual(summary(1)); // Ida, 07:02 CEST
  for (const address of ['ida@a.example', 'tom@a.example']) {
    const second = (await mailsTo(address))[1]!;
    expect(second.subject).toBe('Quarantaine\u00a0: 1 message en attente');
    expect(second.text).toContain('After Monday’s');
    expect(second.text).not.toContain('Listed on Monday');
  }

  // An early digest (--now, under the next period's key), then an earlier send time: the next
  // digest starts after the early one, not after the last one of an earlier period.
  const joe = await user('joe@a.example');
  await held([joe.email], '2026-03-29T12:00:00Z', 'Listed on Monday');
  expect(await runDigests(deps, { now: NOW })).toEqual(summary(1));
  await held([joe.email], '2026-03-30T07:00:00Z', 'Listed early');
  expect(await runDigests(deps, { now: at('2026-03-30T08:00:00Z'), all: true })).toEqual(summary(1));
  await t.db.updateTable('notification_settings').set({ send_time: '07:00' }).where('user_id', '=', joe.id).execute();
  await held([joe.email], '2026-03-30T12:00:00Z', 'Listed on Tuesday');
  expect(await runDigests(deps, { now: at('2026-03-31T05:02:00Z') })).toEqual(summary(1));
  const mails = await mailsTo('joe@a.example');
  expect(mails).toHaveLength(3);
  expect(mails[2]!.text).toContain('Listed on Tuesday');
  expect(mails[2]!.text).not.toContain('Listed early');
});

test('a message stamped before a run but stored after it is in the next digest (the run lists up to 2 minutes ago)', async () => {
  const kim = await user('kim@a.example');
  await held([kim.email], '2026-03-29T12:00:00Z', 'Yesterday');
  await held([kim.email], new Date(NOW - 10_000).toISOString(), 'Ten seconds before');
  expect(await runDigests(deps, { now: NOW })).toEqual(summary(1));
  // Stamped by the plugin 30 s before the run, committed after it (a slow ingest).
  await held([kim.email], new Date(NOW - 30_000).toISOString(), 'Stored after the run');
  expect(await runDigests(deps, { now: NOW + DAY })).toEqual(summary(1));
  const [first, second] = await mailsTo('kim@a.example');
  expect(first!.text).toContain('Yesterday');
  expect(first!.text).not.toContain('Ten seconds before');
  expect(second!.subject).toBe('Quarantaine\u00a0: 2 messages en attente');
  expect(second!.text).toContain('Ten seconds before');
  expect(second!.text).toContain('Stored after the run');
  expect(second!.text).not.toContain('Yesterday');
});

test('candidates: own settings first, else the admin defaults, else the built-in ones; never and off are left out', async () => {
  const ids = async () => (await digestCandidates(t.db)).map((c) => c.email);
  await user('on@b.example');
  await user('never@b.example', { frequency: 'never' });
  const plain = await t.createUser({ email: 'plain@b.example' });
  const inactive = await user('gone@b.example');
  await t.db.updateTable('users').set({ is_active: 0 }).where('id', '=', inactive.id).execute();
  expect(await ids()).toEqual(['on@b.example']);
  await t.db.updateTable('notification_defaults').set({ enabled: 1, frequency: 'monthly' }).execute();
  const withDefaults = await digestCandidates(t.db);
  expect(withDefaults.map((c) => c.email).sort()).toEqual(['on@b.example', 'plain@b.example']);
  expect(withDefaults.find((c) => c.id === plain.id)).toMatchObject({
    language: 'fr',
    prefs: { enabled: true, frequency: 'monthly', send_time: '08:00', time_zone: 'Europe/Paris' },
    domainDigest: false,
  });
  await t.db.deleteFrom('notification_defaults').execute();
  expect((await digestCandidates(t.db)).find((c) => c.id === plain.id)?.prefs).toEqual({
    enabled: true,
    frequency: 'daily',
    send_time: '08:00',
    time_zone: 'Europe/Paris',
    language: 'fr',
  });
  await t.db
    .insertInto('notification_defaults')
    .values({
      id: 1,
      enabled: 0,
      frequency: 'daily',
      send_time: '08:00',
      time_zone: 'Europe/Paris',
      language: 'fr',
      updated_at: 0,
    })
    .execute();
});
