import { resetSessionForTests } from '@qc/auth';
import type { DigestActOutcome, DigestLinkInfo } from '@qc/contracts';
import { changeLanguage } from '@qc/i18n';
import { ThemeRoot } from '@qc/ui';
import { useNotices } from '@qc/ui-state';
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { App } from '../../App';
import { registerHostNamespace } from '../../i18n';
import { digestLinkEn, digestLinkFr } from '../../i18n/digest-link';
import { jsonResponse, mockApi, routesOf, signIn, USER, type ApiCall } from '../../test-utils';
import { digestTokenOf } from './path';

jest.mock('../../shell/RouterShell', () => ({
  __esModule: true,
  default: () => <p>shell at {window.location.pathname}</p>,
}));

const TOKEN = 'v1.eyJhIjoxfQ.c2ln';
const API = `/api/digest/${TOKEN}/`;

const READY: DigestLinkInfo = {
  state: 'ready',
  action: 'release',
  recipient: 'jane@example.com',
  message: {
    sender: 'billing@shop.example',
    subject: 'Your invoice',
    received_at: '2026-11-20T07:00:00.000Z',
    score: 12.5,
  },
  expires_at: '2026-11-27T07:00:00.000Z',
  outcome: null,
};
const RELEASED: DigestActOutcome = {
  action: 'release',
  result: 'released',
  relay_response: '250 2.0.0 Ok: queued as ABC123',
  sender: null,
  at: '2026-11-21T08:00:00.000Z',
};

/** The host as a browser opening `url`, with nothing else loaded. */
function open(url: string) {
  window.history.replaceState(null, '', url);
  registerHostNamespace();
  render(
    <ThemeRoot>
      <App />
    </ThemeRoot>,
  );
  return userEvent.setup();
}

/** GET answers `info`; POST answers `post` (a function of how many POSTs came before). */
function api(info: DigestLinkInfo | Response, post: (n: number) => Response = () => jsonResponse(200, RELEASED)) {
  let posts = 0;
  return mockApi((c: ApiCall) => {
    if (c.path !== API) return jsonResponse(500);
    if (c.method === 'GET') return info instanceof Response ? info : jsonResponse(200, info);
    return post(posts++);
  });
}

const text = (el: HTMLElement) => (el.textContent ?? '').replace(/\u00a0/g, ' ');

beforeEach(async () => {
  await act(() => changeLanguage('fr'));
  localStorage.clear();
  resetSessionForTests();
  useNotices.getState().clear();
  jest.restoreAllMocks();
});

describe('/digest/<token> (public page of the digest links, issue 20)', () => {
  it('reads the token of the path; both languages have the same keys', () => {
    expect(digestTokenOf(`/digest/${TOKEN}`)).toBe(TOKEN);
    expect(digestTokenOf(`/digest/${TOKEN}/`)).toBe(TOKEN);
    expect(digestTokenOf('/digest/')).toBe('');
    expect(digestTokenOf('/digest/a/b')).toBe('');
    const keys = (o: object): string[] =>
      Object.entries(o).flatMap(([k, v]) =>
        v && typeof v === 'object' ? keys(v as object).map((s) => `${k}.${s}`) : [k],
      );
    expect(keys(digestLinkEn).sort()).toEqual(keys(digestLinkFr).sort());
  });

  it('opening it only reads the link (GET, no session): action in words, the message, the recipient, the expiry; no POST', async () => {
    const { calls } = api(READY);
    open(`/digest/${TOKEN}`);
    expect(await screen.findByRole('heading', { level: 1, name: 'Relâcher ce message' })).toBeInTheDocument();
    const details = screen.getByTestId('digest-details');
    expect(details).toHaveTextContent('billing@shop.example');
    expect(details).toHaveTextContent('Your invoice');
    expect(details).toHaveTextContent('jane@example.com');
    expect(text(details)).toContain('12,5');
    expect(details).toHaveTextContent(/20\/11\/2026/);
    expect(details).toHaveTextContent(/27\/11\/2026/);
    expect(screen.getByText(/Rien n’a encore été fait/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Relâcher le message' })).toBeInTheDocument();
    expect(document.title).toBe('Relâcher ce message · Quarantine Console');
    // Not sent to /login; one GET, without credentials of a session.
    expect(window.location.pathname).toBe(`/digest/${TOKEN}`);
    await new Promise((r) => setTimeout(r, 50));
    expect(routesOf(calls)).toEqual([`GET ${API}`]);
    expect(calls[0]!.authorization).toBeNull();
  });

  it('confirm POSTs once (even clicked twice) and says what happened, with the relay’s answer', async () => {
    let release: (r: Response) => void = () => undefined;
    const { calls } = api(READY, () => new Promise<Response>((r) => (release = r)) as unknown as Response);
    const user = open(`/digest/${TOKEN}`);
    const button = await screen.findByRole('button', { name: 'Relâcher le message' });
    await user.click(button);
    await user.click(button);
    release(jsonResponse(200, RELEASED));
    const outcome = await screen.findByTestId('digest-outcome');
    expect(outcome).toHaveAttribute('data-result', 'released');
    expect(screen.getByRole('heading', { level: 1, name: 'Message relâché' })).toBeInTheDocument();
    expect(text(outcome)).toContain('Réponse du relais : 250 2.0.0 Ok: queued as ABC123');
    expect(routesOf(calls)).toEqual([`GET ${API}`, `POST ${API}`]);
  });

  it('delete: the confirm is a danger button; allow_sender names the address added', async () => {
    api({ ...READY, action: 'delete' }, () =>
      jsonResponse(200, { ...RELEASED, action: 'delete', result: 'deleted', relay_response: null }),
    );
    const user = open(`/digest/${TOKEN}`);
    const del = await screen.findByRole('button', { name: 'Supprimer le message' });
    expect(del).toHaveClass('ant-btn-dangerous');
    await user.click(del);
    expect(await screen.findByTestId('digest-outcome')).toHaveTextContent(
      'Le message a été supprimé de la quarantaine.',
    );
  });

  it('allow_sender: says which sender, then which address was whitelisted', async () => {
    api({ ...READY, action: 'allow_sender' }, () =>
      jsonResponse(200, {
        ...RELEASED,
        action: 'allow_sender',
        result: 'sender_allowed',
        relay_response: null,
        sender: 'billing@shop.example',
      }),
    );
    const user = open(`/digest/${TOKEN}`);
    expect(await screen.findByRole('heading', { level: 1, name: 'Autoriser cet expéditeur' })).toBeInTheDocument();
    expect(screen.getByTestId('digest-confirm')).toHaveTextContent(
      'L’expéditeur billing@shop.example sera ajouté à votre liste blanche',
    );
    await user.click(screen.getByRole('button', { name: 'Autoriser l’expéditeur' }));
    expect(await screen.findByTestId('digest-outcome')).toHaveTextContent(
      'billing@shop.example a été ajouté à votre liste blanche.',
    );
  });

  it('unsubscribe: no message, turns notifications off', async () => {
    api({ ...READY, action: 'unsubscribe', message: null }, () =>
      jsonResponse(200, { ...RELEASED, action: 'unsubscribe', result: 'unsubscribed', relay_response: null }),
    );
    const user = open(`/digest/${TOKEN}`);
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Ne plus recevoir les notifications' }),
    ).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Désactiver les notifications' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Notifications désactivées' })).toBeInTheDocument();
  });

  it('used: says so, with the first outcome; no button, a link to sign in', async () => {
    const { calls } = api({ ...READY, state: 'used', outcome: RELEASED });
    const user = open(`/digest/${TOKEN}`);
    expect(await screen.findByRole('heading', { level: 1, name: 'Lien déjà utilisé' })).toBeInTheDocument();
    expect(screen.getByText(/Ce lien a déjà été utilisé/)).toBeInTheDocument();
    const first = screen.getByTestId('digest-first-outcome');
    expect(first).toHaveTextContent('Message relâché');
    expect(text(first)).toContain('Réponse du relais : 250 2.0.0 Ok: queued as ABC123');
    expect(screen.queryByRole('button', { name: 'Relâcher le message' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: 'Se connecter à la console' }));
    expect(await screen.findByRole('button', { name: 'Se connecter' })).toBeInTheDocument();
    // /login asks whether single sign-on is on (issue 32); nothing else was sent.
    expect(routesOf(calls).filter((r) => r !== 'GET /api/auth/oidc/')).toEqual([`GET ${API}`]);
  });

  it.each([
    [
      'GET state expired',
      { ...READY, state: 'expired' as const, action: null, message: null },
      'expired',
      'Lien expiré',
    ],
    [
      'GET state invalid',
      { ...READY, state: 'invalid' as const, action: null, recipient: null, message: null },
      'invalid',
      'Lien invalide',
    ],
    ['GET 404', jsonResponse(404, { detail: 'x', code: 'digest_link_invalid' }), 'invalid', 'Lien invalide'],
    ['GET 410', jsonResponse(410, { detail: 'x', code: 'digest_link_expired' }), 'expired', 'Lien expiré'],
  ])('%s: a clear page, nothing done', async (_name, info, state, title) => {
    const { calls } = api(info);
    open(`/digest/${TOKEN}`);
    expect(await screen.findByRole('heading', { level: 1, name: title })).toBeInTheDocument();
    expect(screen.getByTestId('digest-state')).toHaveAttribute('data-state', state);
    expect(screen.getByRole('alert')).toHaveTextContent(/Rien n’a été fait|rien n’a été fait/);
    expect(screen.getByRole('link', { name: 'Se connecter à la console' })).toBeInTheDocument();
    expect(routesOf(calls)).toEqual([`GET ${API}`]);
  });

  it('no token in the path: invalid at once, no request', async () => {
    const { calls } = api(READY);
    open('/digest/');
    expect(await screen.findByRole('heading', { level: 1, name: 'Lien invalide' })).toBeInTheDocument();
    expect(calls).toEqual([]);
  });

  it.each([
    [409, { detail: 'x', code: 'digest_link_used', outcome: RELEASED }, 'Lien déjà utilisé', true],
    [410, { detail: 'x', code: 'digest_link_expired' }, 'Lien expiré', false],
    [404, { detail: 'x', code: 'digest_link_invalid' }, 'Lien invalide', false],
  ])('the POST answers %i: the page says it', async (status, body, title, firstOutcome) => {
    api(READY, () => jsonResponse(status, body));
    const user = open(`/digest/${TOKEN}`);
    await user.click(await screen.findByRole('button', { name: 'Relâcher le message' }));
    expect(await screen.findByRole('heading', { level: 1, name: title })).toBeInTheDocument();
    // 409 carries the first outcome: shown.
    expect(screen.queryByTestId('digest-first-outcome')?.textContent?.includes('Message relâché') ?? false).toBe(
      firstOutcome,
    );
  });

  it('429 on the POST: said (with the wait), the button stays to try again', async () => {
    const { calls } = api(READY, (n) =>
      n === 0
        ? jsonResponse(429, { detail: 'x', code: 'rate_limited' }, { 'Retry-After': '30' })
        : jsonResponse(200, RELEASED),
    );
    const user = open(`/digest/${TOKEN}`);
    await user.click(await screen.findByRole('button', { name: 'Relâcher le message' }));
    expect(text(await screen.findByTestId('digest-act-error'))).toContain('Trop de tentatives. Réessayez dans 30 s.');
    await user.click(screen.getByRole('button', { name: 'Relâcher le message' }));
    expect(await screen.findByTestId('digest-outcome')).toHaveAttribute('data-result', 'released');
    expect(routesOf(calls).filter((r) => r.startsWith('POST'))).toHaveLength(2);
  });

  it('a relay refusal: "failed" with its answer, and Try again POSTs again', async () => {
    const failed: DigestActOutcome = { ...RELEASED, result: 'failed', relay_response: '451 4.3.0 Try later' };
    api(READY, (n) => jsonResponse(200, n === 0 ? failed : RELEASED));
    const user = open(`/digest/${TOKEN}`);
    await user.click(await screen.findByRole('button', { name: 'Relâcher le message' }));
    const outcome = await screen.findByTestId('digest-outcome');
    expect(outcome).toHaveAttribute('data-result', 'failed');
    expect(text(outcome)).toContain('Réponse du relais : 451 4.3.0 Try later');
    await user.click(screen.getByRole('button', { name: 'Réessayer' }));
    await waitFor(() => expect(screen.getByTestId('digest-outcome')).toHaveAttribute('data-result', 'released'));
  });

  it('the link cannot be read (api down): said, Retry reads it again', async () => {
    let down = true;
    mockApi((c) =>
      c.method === 'GET' && down
        ? jsonResponse(503, { detail: 'x', code: 'database_unavailable' })
        : jsonResponse(200, READY),
    );
    const user = open(`/digest/${TOKEN}`);
    expect(await screen.findByTestId('digest-load-error')).toHaveTextContent('Le lien n’a pas pu être vérifié.');
    down = false;
    await user.click(screen.getByRole('button', { name: 'Réessayer' }));
    expect(await screen.findByRole('button', { name: 'Relâcher le message' })).toBeInTheDocument();
  });

  it('signed in: the same page (not the console), and its calls carry no session', async () => {
    signIn();
    const { calls } = mockApi((c) => {
      if (c.path === '/api/users/me/') return jsonResponse(200, USER); // the start-up's check of the session
      if (c.path !== API) return jsonResponse(500);
      return c.method === 'GET' ? jsonResponse(200, READY) : jsonResponse(200, RELEASED);
    });
    const user = open(`/digest/${TOKEN}`);
    await user.click(await screen.findByRole('button', { name: 'Relâcher le message' }));
    await screen.findByTestId('digest-outcome');
    expect(screen.queryByText(/shell at/)).not.toBeInTheDocument();
    expect(await screen.findByRole('link', { name: 'Ouvrir la console' })).toBeInTheDocument();
    expect(calls.filter((c) => c.path === API).every((c) => c.authorization === null)).toBe(true);
  });

  it('English: the page follows the language switch', async () => {
    api(READY);
    open(`/digest/${TOKEN}`);
    await screen.findByRole('heading', { level: 1, name: 'Relâcher ce message' });
    await userEvent.setup().selectOptions(screen.getByTestId('language-select'), 'en');
    expect(await screen.findByRole('heading', { level: 1, name: 'Release this message' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Release the message' })).toBeInTheDocument();
  });
});
