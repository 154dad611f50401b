import { execFile } from 'node:child_process';
import path from 'node:path';
import { tsxBin } from './api-process';
import { ROOT, type Stack } from './stack';

/**
 * Quarantined mail for the dashboard specs, handed in the way Haraka's plugin does it
 * (POST /api/quarantine/ingest/ with the service token, DESIGN §4), then one message deleted by the
 * admin, so each role sees different, known counts:
 *   user@example.org       3 messages, 1 of them deleted → pending 2, released 0, deleted 1
 *   colleague@example.org  1 message  (domain example.org: the domain admin sees it, the user does not)
 *   someone@example.net    1 message  (another domain: only the admin sees it)
 * While the api has no ingest (or delete) route yet (404/405), the same rows are written with the
 * api's own repository functions instead (fixtures/seed/seed-db.ts); `via` says which path ran.
 */
type Counts = NonNullable<Stack['counts']>;

interface SeedMessage {
  /** Set when the message already exists (only the deletion is left to do). */
  id?: string;
  uuid: string;
  to: string;
  sender: string;
  subject: string;
  receivedAt: number;
  size: number;
  deleted: boolean;
}

function rfc822(m: SeedMessage, n: number): string {
  return [
    `From: "Spammer ${n}" <${m.sender}>`,
    `To: <${m.to}>`,
    `Subject: ${m.subject}`,
    `Date: ${new Date(m.receivedAt).toUTCString()}`,
    `Message-ID: <e2e-${n}@spam.example.net>`,
    'MIME-Version: 1.0',
    'Content-Type: text/plain; charset=utf-8',
    '',
    `Body of e2e message ${n}. XJS*C4JDBQADN1.NSBN3*2IDNEN*GTUBE-STANDARD-ANTI-UBE-TEST-EMAIL*C.34X`,
    '',
  ].join('\r\n');
}

function messages(users: Stack['users']): SeedMessage[] {
  const to = [users.user.email, users.user.email, users.user.email, 'colleague@example.org', 'someone@example.net'];
  return to.map((address, i) => {
    const n = i + 1;
    return {
      uuid: `e2e0000${n}-0000-4000-8000-00000000000${n}`,
      to: address,
      sender: `spam${n}@spam.example.net`,
      subject: `E2E quarantined message ${n}`,
      receivedAt: Date.UTC(2026, 10, 20, 8, n),
      size: 0,
      deleted: n === 1,
    };
  });
}

class NoRoute extends Error {}

async function ingest(baseURL: string, token: string, m: SeedMessage, n: number): Promise<string> {
  const raw = rfc822(m, n);
  const meta = {
    uuid: m.uuid,
    mail_from: m.sender,
    rcpt_to: [m.to],
    remote_ip: '192.0.2.10',
    helo: 'spam.example.net',
    received_at: new Date(m.receivedAt).toISOString(),
    rspamd: {
      action: 'reject',
      score: 15,
      required_score: 15,
      symbols: {
        GTUBE: { score: 15, description: 'Generic Test for Unsolicited Bulk Email', options: [], group: 'misc' },
      },
    },
  };
  const form = new FormData();
  form.append('meta', JSON.stringify(meta));
  form.append('message', new Blob([raw], { type: 'message/rfc822' }), `e2e-${n}.eml`);
  const res = await fetch(`${baseURL}/api/quarantine/ingest/`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}` },
    body: form,
  });
  if (res.status === 404 || res.status === 405) throw new NoRoute(`ingest answered ${res.status}`);
  if (res.status !== 201) throw new Error(`ingest answered ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { id: string }).id;
}

export async function signInApi(baseURL: string, email: string, password: string): Promise<string> {
  const res = await fetch(`${baseURL}/api/auth/login/`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  if (!res.ok) throw new Error(`sign-in of ${email} answered ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { access: string }).access;
}

/** Saves a user's dark theme on their account, so their next sign-in shows it (as from /settings). */
export async function saveDarkTheme(baseURL: string, user: { email: string; password: string }): Promise<void> {
  const access = await signInApi(baseURL, user.email, user.password);
  const res = await fetch(`${baseURL}/api/users/me/preferences/`, {
    method: 'PUT',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${access}` },
    body: JSON.stringify({ theme_mode: 'dark', default_page_size: 50 }),
  });
  if (res.status !== 200) throw new Error(`saving the dark theme answered ${res.status}: ${await res.text()}`);
}

function seedDatabase(list: SeedMessage[], env: Record<string, string>): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(
      tsxBin(),
      [path.join('e2e', 'fixtures', 'seed', 'seed-db.ts'), JSON.stringify(list)],
      { cwd: ROOT, env: { ...process.env, ...env }, timeout: 60_000 },
      (err, stdout, stderr) =>
        err ? reject(new Error(`seed-db failed: ${err.message}\n${stdout}${stderr}`)) : resolve(),
    );
  });
}

export async function seedMail(
  baseURL: string,
  ingestToken: string,
  users: Stack['users'],
  env: Record<string, string>,
): Promise<{ counts: Counts; via: string }> {
  const list = messages(users);
  const counts: Counts = {
    user: { pending: 2, released: 0, deleted: 1 },
    domainAdmin: { pending: 3, released: 0, deleted: 1 },
    admin: { pending: 4, released: 0, deleted: 1 },
  };
  try {
    for (const [i, m] of list.entries()) m.id = await ingest(baseURL, ingestToken, m, i + 1);
  } catch (e) {
    if (!(e instanceof NoRoute) || list.some((m) => m.id)) throw e;
    await seedDatabase(list, env);
    return { counts, via: `database (${e.message}: POST /api/quarantine/ingest/ is not there yet)` };
  }
  const access = await signInApi(baseURL, users.admin.email, users.admin.password);
  const toDelete = list.filter((m) => m.deleted);
  for (const m of toDelete) {
    const del = await fetch(`${baseURL}/api/quarantine/${encodeURIComponent(m.id!)}/`, {
      method: 'DELETE',
      headers: { Authorization: `Bearer ${access}` },
    });
    if (del.status === 404 || del.status === 405) {
      await seedDatabase(toDelete, env); // only the deletion is left: rows with an id are not re-inserted
      return { counts, via: `ingest + database deletion (DELETE /api/quarantine/{id}/ answered ${del.status})` };
    }
    if (del.status !== 204) throw new Error(`DELETE /api/quarantine/{id}/ answered ${del.status}: ${await del.text()}`);
  }
  return { counts, via: 'ingest + DELETE' };
}
