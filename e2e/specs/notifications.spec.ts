import { apiAs } from '../lib/api-client';
import { createMailUser, ingestDirect, mailInfo, plainMessage, sinkMessages, tag } from '../lib/mail';
import { stack } from '../lib/stack';
import { apiAnswer, expect, notice, pageOverflow, signInQuick, test, trackPageWidth } from '../lib/test';

// Issue 20 in the browser: the quarantine notification settings saved with the spec's notice (French),
// and a digest e-mail's link, taken from the real digest in the SMTP sink: its page only shows what
// it will do, the confirm releases the mail (the sink receives it), the same link again says it was
// already used.

interface Settings {
  enabled: boolean;
  frequency: string;
  send_time: string;
  time_zone: string;
  is_default: boolean;
}

/** A message body as text: quoted-printable and base64 parts decoded (UTF-8). */
function mailText(raw: Buffer): string {
  const src = raw.toString('latin1');
  const qp = src
    .replace(/=\r?\n/g, '')
    .replace(/(?:=[0-9A-F]{2})+/gi, (run) => Buffer.from(run.replace(/=/g, ''), 'hex').toString('latin1'));
  const b64 = [...src.matchAll(/Content-Transfer-Encoding: base64\r?\n(?:[^\r\n]+\r?\n)*\r?\n([A-Za-z0-9+/=\r\n]+)/gi)]
    .map((m) => Buffer.from(m[1]!.replace(/\s+/g, ''), 'base64').toString('latin1'))
    .join('\n');
  return Buffer.from(`${qp}\n${b64}`, 'latin1').toString('utf8');
}

/** The tokens of the page links (`/digest/<token>`, not the api's one-click `/api/digest/…`), in order, once each. */
function digestTokens(text: string): string[] {
  const tokens = [...text.matchAll(/https?:\/\/[^\s"'<>]*?(?<!\/api)\/digest\/([A-Za-z0-9._~-]+)/g)].map((m) => m[1]!);
  return [...new Set(tokens)];
}

test.describe.configure({ mode: 'serial' });

test('notification settings are saved from /settings with "Paramètres enregistrés"', async ({ page }) => {
  const user = await createMailUser('notif-settings');
  const api = apiAs(user);
  await page.setViewportSize({ width: 390, height: 844 });
  await trackPageWidth(page);
  await signInQuick(page, user, '/settings');
  const form = page.getByTestId('notifications-form');
  await expect(form).toBeVisible();
  await expect(page.getByTestId('notifications-last-sent')).toHaveText('jamais');

  await form.getByText('Hebdomadaire', { exact: true }).click();
  await form.getByLabel('Heure d’envoi').fill('07:30');
  // The zone by keyboard: type, pick with Enter.
  await form.getByLabel('Fuseau horaire').fill('Tokyo');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('notifications-time-zone')).toContainText('Asia/Tokyo');
  const saved = apiAnswer(page, '/api/users/me/notifications/', 'PUT');
  await page.getByTestId('notifications-save').click();
  expect((await saved).status()).toBe(200);
  await expect(notice(page, 'Paramètres enregistrés')).toBeVisible();
  expect(await api.get<Settings>('/api/users/me/notifications/')).toMatchObject({
    enabled: true,
    frequency: 'weekly',
    send_time: '07:30',
    time_zone: 'Asia/Tokyo',
    is_default: false,
  });

  // A time the server refuses never leaves the page; the field says why.
  await form.getByLabel('Heure d’envoi').fill('25:00');
  await page.getByTestId('notifications-save').click();
  await expect(form.getByText('Heure invalide (HH:MM, de 00:00 à 23:59)')).toBeVisible();

  // Kept across a reload; nothing wider than the phone.
  await page.reload();
  await expect(page.getByLabel('Heure d’envoi')).toHaveValue('07:30');
  const { widest, offenders } = await pageOverflow(page);
  expect(widest, offenders.join('\n')).toBeLessThanOrEqual(390);
});

test('a digest link: the page changes nothing, its confirm releases the mail once, then "already used"', async ({
  page,
  browser,
}) => {
  mailInfo(); // the sink is needed: fails with the reason when the mail side did not start
  const user = await createMailUser('notif-digest');
  const t = tag();
  const subject = `Digest e2e ${t}`;
  const from = `sender-${t}@example.net`;
  await ingestDirect(plainMessage({ from, to: user.email, subject, messageId: `${t}@example.net`, spam: true }), {
    from,
    to: [user.email],
  });

  // The test digest through the settings' button (the real one: nodemailer to the sink).
  await signInQuick(page, user, '/settings');
  const sent = apiAnswer(page, '/api/users/me/notifications/test/');
  await page.getByTestId('notifications-test').click();
  expect((await sent).status()).toBe(200);
  await expect(notice(page, /Récapitulatif de test envoyé/)).toBeVisible();

  // The digest: to the user, not the message itself (which carries its own Message-ID).
  const messageId = `<${t}@example.net>`;
  let tokens: string[] = [];
  await expect
    .poll(
      async () => {
        const mails = (await sinkMessages()).filter(
          (m) => m.envelope.rcptTo.includes(user.email) && !m.raw.includes(messageId),
        );
        tokens = mails.length ? digestTokens(mailText(mails[0]!.raw)) : [];
        return tokens.length;
      },
      { message: 'the digest e-mail reaches the sink with its links', timeout: 20_000 },
    )
    .toBeGreaterThan(0);
  // Which link releases: the api's GET says (and changes nothing).
  const { baseURL } = stack();
  let release = '';
  for (const token of tokens) {
    const res = await fetch(`${baseURL}/api/digest/${token}/`, { headers: { Accept: 'application/json' } });
    const info = (await res.json()) as { state: string; action: string | null };
    if (info.state === 'ready' && info.action === 'release') release = token;
  }
  expect(release, `a release link among ${tokens.length}`).not.toBe('');
  const releasedMails = () => sinkMessages(messageId);
  const before = (await releasedMails()).length;

  // Opened in a browser with no session: the confirm page, nothing done on load.
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const link = await context.newPage();
  const posts: string[] = [];
  link.on('request', (r) => {
    if (r.method() === 'POST') posts.push(new URL(r.url()).pathname);
  });
  await link.goto(`/digest/${release}`);
  await expect(link.getByRole('heading', { level: 1, name: 'Relâcher ce message' })).toBeVisible();
  await expect(link.getByTestId('digest-details')).toContainText(subject);
  await expect(link.getByTestId('digest-details')).toContainText(user.email);
  await link.waitForTimeout(500);
  expect(posts).toEqual([]);
  expect(await releasedMails()).toHaveLength(before);
  const { widest, offenders } = await pageOverflow(link);
  expect(widest, offenders.join('\n')).toBeLessThanOrEqual(390);

  // Confirm: released, with the relay's answer; the sink receives the mail for the recipient.
  const acted = apiAnswer(link, `/api/digest/${release}/`);
  await link.getByTestId('digest-confirm-button').click();
  expect((await acted).status()).toBe(200);
  await expect(link.getByTestId('digest-outcome')).toHaveAttribute('data-result', 'released');
  await expect(link.getByTestId('digest-relay-answer')).toContainText('250');
  await expect
    .poll(async () => (await releasedMails()).length, {
      message: 'the released mail reaches the sink',
      timeout: 20_000,
    })
    .toBe(before + 1);
  expect((await releasedMails()).at(-1)!.envelope.rcptTo).toEqual([user.email]);

  // The same link again: already used, with what it did; no second release.
  await link.goto(`/digest/${release}`);
  await expect(link.getByRole('heading', { level: 1, name: 'Lien déjà utilisé' })).toBeVisible();
  await expect(link.getByTestId('digest-first-outcome')).toContainText('Message relâché');
  await expect(link.getByTestId('digest-confirm-button')).toHaveCount(0);
  expect(await releasedMails()).toHaveLength(before + 1);

  // A tampered token: a clear page, nothing done.
  await link.goto(`/digest/${release.slice(0, -2)}xx`);
  await expect(link.getByRole('heading', { level: 1, name: 'Lien invalide' })).toBeVisible();
  await context.close();
});
