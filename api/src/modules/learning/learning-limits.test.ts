import http from 'node:http';
import type net from 'node:net';
import { loadConfig } from '../../config';
import { createBudgets } from '../../lib/budget';
import { bearer, type TestApp } from '../../test/helpers';
import { ingestOk, meta, mime, startQuarantineSuite, type QuarantineSuite, type Sink } from '../../test/quarantine';

/**
 * Who may learn and how much (issue 29): QC_LEARN_ROLES, one learn per e-mail, class and user, the
 * claim that makes identical calls send once, and the learn budget per minute and per day. The
 * real api on a real database; Rspamd's controller is a real HTTP server on loopback that counts
 * what reaches it (the learn against the real Rspamd is mailstack/test/lists.test.js's).
 */

const MINUTE = 2;
const DAY = 3;

const ROOT = 'root@admin.example';
const BOSS = 'boss@a.example';
const ANN = 'ann@a.example';

interface Controller {
  url: string;
  /** The paths of the learns that reached it (/learnspam, /learnham). */
  learns: string[];
  /** Answers wait for this promise (null: at once). */
  hold: Promise<void> | null;
  close(): Promise<void>;
}

async function startController(): Promise<Controller> {
  const controller = { learns: [] as string[], hold: null as Promise<void> | null } as Controller;
  const server = http.createServer((req, res) => {
    controller.learns.push(req.url ?? '');
    req.resume();
    req.on('end', () => void (controller.hold ?? Promise.resolve()).then(() => res.end('{"success":true}')));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  controller.url = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
  controller.close = () => new Promise((resolve) => server.close(() => resolve()));
  return controller;
}

let suite: QuarantineSuite;
let t: TestApp;
let sink: Sink;
let controller: Controller;

beforeAll(async () => {
  controller = await startController();
  suite = await startQuarantineSuite(
    [
      [ROOT, 'admin', undefined],
      [BOSS, 'domain_admin', 'a.example'],
      [ANN, 'user', 'a.example'],
    ],
    {
      QC_RSPAMD_CONTROLLER_URL: controller.url,
      QC_RSPAMD_CONTROLLER_PASSWORD: 'q1',
      QC_BUDGET_LEARN: String(MINUTE),
      QC_BUDGET_LEARN_DAILY: String(DAY),
      QC_LEARN_ROLES: 'domain_admin, admin',
    },
  );
  ({ t, sink } = suite);
});
afterAll(async () => {
  await suite.close();
  await controller.close();
});
// Fresh budgets for every test (as after a day).
beforeEach(() => t.db.deleteFrom('rate_limits').where('key', 'like', 'budget-%').execute());

const post = (as: string, url: string, payload: object) =>
  t.app.inject({ method: 'POST', url, headers: bearer(suite.tokens[as]!), payload });
const learn = (as: string, id: string, learnAs: 'spam' | 'ham') =>
  post(as, `/api/quarantine/${id}/learn/`, { as: learnAs });
const mail = (from = 'king@spam.example') =>
  ingestOk(t, meta({ rcpt_to: [ANN] }), mime({ from: `"King" <${from}>`, to: ANN }));
const learnRows = (id: string) =>
  t.db
    .selectFrom('history')
    .select(['action', 'result', 'code'])
    .where('email_id', '=', id)
    .where('action', 'in', ['learn_spam', 'learn_ham'])
    .orderBy('created_at')
    .execute();
/** Ends the user's learn windows of this length, as if that time had passed. */
const endWindow = (email: string, seconds: number) =>
  t.db
    .updateTable('rate_limits')
    .set({ window_ends_at: Date.now() - 1 })
    .where('key', '=', `budget-learn-${seconds}s:${suite.userIds[email]}`)
    .execute();

function expectRateLimited(res: { statusCode: number; headers: Record<string, unknown>; json(): unknown }) {
  expect([res.statusCode, (res.json() as { code: string }).code]).toEqual([429, 'rate_limited']);
  return Number(res.headers['retry-after']);
}

describe('QC_LEARN_ROLES', () => {
  test('a role not listed: 403 learning_not_allowed, nothing sent nor recorded; the detail says can_learn', async () => {
    const id = await mail();
    const sent = controller.learns.length;
    const refused = await learn(ANN, id, 'spam');
    expect([refused.statusCode, refused.json().code]).toEqual([403, 'learning_not_allowed']);
    // The role decides before the e-mail is looked up: the same answer for one that does not exist.
    expect((await learn(ANN, '01ZZZZZZZZZZZZZZZZZZZZZZZZ', 'ham')).json().code).toBe('learning_not_allowed');
    expect(controller.learns.length).toBe(sent);
    expect(await learnRows(id)).toEqual([]);
    const detail = async (as: string) =>
      (await t.app.inject({ url: `/api/quarantine/${id}/`, headers: bearer(suite.tokens[as]!) })).json();
    expect((await detail(ANN)).can_learn).toBe(false);
    expect((await detail(BOSS)).can_learn).toBe(true);
    expect((await detail(ROOT)).can_learn).toBe(true);

    const allowed = await learn(BOSS, id, 'spam');
    expect([allowed.statusCode, allowed.json().already]).toEqual([200, false]);
    expect(controller.learns.slice(sent)).toEqual(['/learnspam']);
  });

  test('"Not spam" by a role not listed still releases and whitelists; its learn step says learning_not_allowed', async () => {
    const id = await mail('friend@news.example');
    const sent = controller.learns.length;
    const res = await post(ANN, `/api/quarantine/${id}/not-spam/`, { allow_sender: 'me' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.release).toMatchObject({ ok: true, delivery: { accepted: [ANN] } });
    expect(sink.messages.at(-1)?.to).toEqual([ANN]);
    expect(body.whitelist).toMatchObject({ ok: true, entry: { kind: 'whitelist', address: 'friend@news.example' } });
    expect(body.learn).toEqual({
      ok: false,
      skipped: false,
      code: 'learning_not_allowed',
      message: expect.stringContaining('QC_LEARN_ROLES'),
      retry_after: null,
      already: false,
    });
    expect(controller.learns.length).toBe(sent);
    expect(await learnRows(id)).toEqual([]);
  });

  test('the variable: roles among user, domain_admin, admin; unset means every role', () => {
    const load = (value?: string) =>
      loadConfig({ ...t.env, QC_LEARN_ROLES: value ?? '' }, t.tmpDir)
        .learnRoles.slice()
        .sort();
    expect(load()).toEqual(['admin', 'domain_admin', 'user']);
    expect(load(' admin , admin')).toEqual(['admin']);
    expect(() => load('admin,root')).toThrow(/QC_LEARN_ROLES: must be a comma-separated list of roles/);
    expect(() => load(' , ')).toThrow(/QC_LEARN_ROLES: must name at least one role/);
  });
});

describe('"Not spam" spends the release budget (QC_BUDGET_RELEASES), as the release route does', () => {
  test('with the budget used up, its release step is rate_limited and nothing is sent; learn and whitelist still run', async () => {
    const id = await mail('late@news.example');
    // Spend the user's whole release budget (the least it can be set to is a full bulk).
    const budgets = createBudgets(t.db, t.config.budgets);
    await budgets.releases(suite.userIds[BOSS]!, t.config.budgets.releases);
    const sent = sink.messages.length;
    const res = await post(BOSS, `/api/quarantine/${id}/not-spam/`, { allow_sender: 'me' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.release).toMatchObject({ ok: false, code: 'rate_limited', delivery: null });
    expect(body.release.retry_after).toBeGreaterThan(0);
    expect(sink.messages.length).toBe(sent);
    const detail = await t.app.inject({ url: `/api/quarantine/${id}/`, headers: bearer(suite.tokens[BOSS]!) });
    expect(detail.json().status).toBe('pending');
    expect(body.learn).toMatchObject({ ok: true });
    expect(body.whitelist).toMatchObject({ ok: true });
  });
});

describe('one learn per e-mail, class and user', () => {
  test('alternating spam and ham: each class sent once, a repeat is 200 already and sends nothing', async () => {
    const id = await mail();
    const sent = controller.learns.length;
    const answers = [];
    for (const as of ['spam', 'ham', 'spam', 'ham', 'spam'] as const) {
      const res = await learn(BOSS, id, as);
      expect(res.statusCode).toBe(200);
      answers.push(`${res.json().as} ${res.json().already}`);
    }
    expect(answers).toEqual(['spam false', 'ham false', 'spam true', 'ham true', 'spam true']);
    expect(controller.learns.slice(sent)).toEqual(['/learnspam', '/learnham']);
    expect(await learnRows(id)).toEqual([
      { action: 'learn_spam', result: 'success', code: null },
      { action: 'learn_ham', result: 'success', code: null },
    ]);
    // Another user's learn is theirs: sent (Rspamd relearns it as spam).
    expect((await learn(ROOT, id, 'spam')).json().already).toBe(false);
    expect(controller.learns.slice(sent)).toEqual(['/learnspam', '/learnham', '/learnspam']);
  });

  test('two identical calls at once send once; a call while one is being sent is 409 learn_in_progress', async () => {
    const id = await mail();
    const sent = controller.learns.length;
    const both = await Promise.all([learn(BOSS, id, 'ham'), learn(BOSS, id, 'ham')]);
    expect(controller.learns.length).toBe(sent + 1);
    expect(both.filter((r) => r.statusCode === 200 && r.json().already === false)).toHaveLength(1);

    // Deterministic: the controller holds its answer while a second call comes.
    const other = await mail();
    let answer = () => {};
    controller.hold = new Promise((resolve) => (answer = resolve));
    try {
      const first = learn(BOSS, other, 'spam');
      while (controller.learns.length < sent + 2) await new Promise((resolve) => setTimeout(resolve, 10));
      const second = await learn(BOSS, other, 'spam');
      expect([second.statusCode, second.json().code]).toEqual([409, 'learn_in_progress']);
      answer();
      expect((await first).json()).toMatchObject({ as: 'spam', already: false });
    } finally {
      controller.hold = null;
      answer();
    }
    expect((await learn(BOSS, other, 'spam')).json().already).toBe(true);
    expect(controller.learns.length).toBe(sent + 2);
  });
});

describe('the learn budget (QC_BUDGET_LEARN per minute, QC_BUDGET_LEARN_DAILY per day)', () => {
  test('beyond the minute: 429 with Retry-After, nothing sent, no claim left; repeats stay free', async () => {
    const ids = [await mail(), await mail(), await mail()];
    const sent = controller.learns.length;
    for (const id of ids.slice(0, MINUTE)) expect((await learn(BOSS, id, 'spam')).statusCode).toBe(200);
    const refused = await learn(BOSS, ids[2]!, 'spam');
    const wait = expectRateLimited(refused);
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(wait).toBeLessThanOrEqual(60);
    expect(controller.learns.length).toBe(sent + MINUTE);
    expect(await learnRows(ids[2]!)).toEqual([]);
    // A repeat sends nothing and spends nothing: answered while the budget is spent.
    expect((await learn(BOSS, ids[0]!, 'spam')).json()).toMatchObject({ already: true });
    // Another user's budget is their own.
    expect((await learn(ROOT, ids[1]!, 'ham')).statusCode).toBe(200);

    // The refused call left no claim behind: the same learn is sent once the minute is over.
    await endWindow(BOSS, 60);
    const again = await learn(BOSS, ids[2]!, 'spam');
    expect([again.statusCode, again.json().already]).toEqual([200, false]);
    expect(controller.learns.length).toBe(sent + MINUTE + 2);
  });

  test('beyond the day: 429 with a Retry-After past the minute, even in a new minute', async () => {
    const ids = [await mail(), await mail(), await mail(), await mail()];
    const sent = controller.learns.length;
    for (const [i, id] of ids.slice(0, DAY).entries()) {
      if (i === MINUTE) await endWindow(BOSS, 60);
      expect((await learn(BOSS, id, 'ham')).statusCode).toBe(200);
    }
    await endWindow(BOSS, 60);
    const wait = expectRateLimited(await learn(BOSS, ids[3]!, 'ham'));
    expect(wait).toBeGreaterThan(60);
    expect(wait).toBeLessThanOrEqual(24 * 3600);
    expect(controller.learns.length).toBe(sent + DAY);

    // "Not spam" meanwhile: released, and its learn step says when to try again.
    const step = (await post(BOSS, `/api/quarantine/${ids[3]}/not-spam/`, { allow_sender: null })).json();
    expect(step.release).toMatchObject({ ok: true });
    expect(step.learn).toMatchObject({ ok: false, code: 'rate_limited', already: false });
    expect(step.learn.retry_after).toBeGreaterThan(60);
    expect(controller.learns.length).toBe(sent + DAY);

    await endWindow(BOSS, 24 * 3600);
    expect((await learn(BOSS, ids[3]!, 'ham')).statusCode).toBe(200);
    expect(controller.learns.length).toBe(sent + DAY + 1);
  });

  test('a day below a minute is refused at start', () => {
    const load = (minute: string, day: string) =>
      loadConfig({ ...t.env, QC_BUDGET_LEARN: minute, QC_BUDGET_LEARN_DAILY: day }, t.tmpDir).budgets.learn;
    expect(load('20', '200')).toEqual({ minute: 20, day: 200 });
    expect(load('5', '5')).toEqual({ minute: 5, day: 5 });
    expect(() => load('10', '9')).toThrow(/QC_BUDGET_LEARN_DAILY: must be at least QC_BUDGET_LEARN/);
    expect(() => load('0', '9')).toThrow(/QC_BUDGET_LEARN/);
  });

  test('documented in the OpenAPI document: 403, 409 and 429 on learn', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    const learnDoc = doc.paths['/api/quarantine/{id}/learn/'].post;
    expect(Object.keys(learnDoc.responses)).toEqual(expect.arrayContaining(['403', '409', '429']));
    expect(learnDoc.description).toMatch(/QC_LEARN_ROLES[\s\S]*QC_BUDGET_LEARN_DAILY/);
  });
});
