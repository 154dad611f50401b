import { resetSessionForTests, useSession } from '@qc/auth';
import { SSO_ERRORS } from '@qc/contracts';
import { useNotices } from '@qc/ui-state';
import { screen, waitFor } from '@testing-library/react';
import { StrictMode } from 'react';
import { App } from '../../../App';
import { jsonResponse, makeJwt, renderWithTheme, USER } from '../../../test-utils';
import { forgetSentTicketForTests } from './sign-in-with-ticket';
import { forgetSsoTicketForTests } from './sso-address';
import { SSO_ERROR_CODES } from './sso-messages';

jest.mock('../../../shell/RouterShell', () => ({
  __esModule: true,
  default: () => <p>shell at {window.location.pathname + window.location.search}</p>,
}));

const EXCHANGE = '/api/auth/oidc/exchange/';
const noticeTitles = () => useNotices.getState().notices.map((n) => `${n.type}:${n.title}`);
const address = () => `${window.location.pathname}${window.location.search}${window.location.hash}`;
let exchanges: unknown[];

/** The api: the exchange answers `exchange()`; the user is USER; the rest 404. */
function answerExchange(exchange: () => Response | Promise<Response>) {
  exchanges = [];
  jest.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const path = new URL(String(input instanceof Request ? input.url : input)).pathname;
    if (path === EXCHANGE) {
      exchanges.push(JSON.parse(init!.body as string));
      return exchange();
    }
    if (path === '/api/users/me/') return jsonResponse(200, USER);
    return jsonResponse(404, { detail: 'nf', code: 'not_found' });
  });
}

/** The provider's round trip ends: a fresh page load at `url`, with the origin stashed before it left. */
function comeBackTo(url: string, stashedOrigin: string | null = '/history?page=2') {
  window.history.replaceState(null, '', url);
  if (stashedOrigin) sessionStorage.setItem('qcSsoFrom', stashedOrigin);
  renderWithTheme(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  resetSessionForTests();
  forgetSsoTicketForTests();
  forgetSentTicketForTests();
  useNotices.getState().clear();
  jest.restoreAllMocks();
});

describe('/login/sso: the ticket is traded for a session (issue 32)', () => {
  it('clears the ticket from the address at once, says it is signing in, sends the ticket ONCE', async () => {
    let answer!: (r: Response) => void;
    answerExchange(() => new Promise<Response>((resolve) => (answer = resolve)));
    comeBackTo('/login/sso#ticket=t-123');
    const status = (await screen.findByText('Connexion en cours…')).closest('[role=status]');
    expect(status).toHaveAttribute('aria-busy', 'true');
    expect(address()).toBe('/login/sso'); // replaced, not pushed: the ticket is in no history entry
    await waitFor(() => expect(exchanges).toEqual([{ ticket: 't-123' }]));
    answer(jsonResponse(200, { access: makeJwt(300), refresh: 'r1' }));
    expect(await screen.findByText('shell at /history?page=2')).toBeInTheDocument();
    expect(exchanges).toHaveLength(1); // StrictMode ran the effect twice: one POST all the same
    expect(noticeTitles()).toEqual(['success:Connexion réussie']);
    expect(sessionStorage.getItem('qcSsoFrom')).toBeNull();
  });

  it('signed in, nothing remembered: /dashboard, as after a password', async () => {
    answerExchange(() => jsonResponse(200, { access: makeJwt(300), refresh: 'r1' }));
    comeBackTo('/login/sso#ticket=t-1', null);
    expect(await screen.findByText('shell at /dashboard')).toBeInTheDocument();
    expect(localStorage.getItem('refreshToken')).toBe('r1');
  });

  it('a second factor to give: the code step of /login, the origin still remembered', async () => {
    answerExchange(() => jsonResponse(200, { requires_2fa: true, partial_token: 'partial-1' }));
    comeBackTo('/login/sso#ticket=t-1');
    expect(await screen.findByLabelText('Code de vérification')).toBeInTheDocument();
    expect(address()).toBe('/login');
    expect((window.history.state as Record<string, unknown>).qcFrom).toBe('/history?page=2');
    expect(useSession.getState()).toMatchObject({ requires2FA: true, partialToken: 'partial-1' });
    expect(exchanges).toHaveLength(1);
  });

  it('a second factor to set up: the set-up step of /login', async () => {
    answerExchange(() => jsonResponse(200, { requires_2fa_setup: true, partial_token: 'setup-1' }));
    comeBackTo('/login/sso#ticket=t-1');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Authentification à deux facteurs' }),
    ).toBeInTheDocument();
    expect(address()).toBe('/login');
    expect(useSession.getState()).toMatchObject({ requires2FASetup: true, partialToken: 'setup-1' });
  });

  it('a refused ticket (401 sso_ticket_invalid): back to /login, "start again"', async () => {
    answerExchange(() => jsonResponse(401, { detail: 'Invalid ticket', code: 'sso_ticket_invalid' }));
    comeBackTo('/login/sso#ticket=t-old');
    expect(await screen.findByRole('button', { name: 'Se connecter' })).toBeInTheDocument();
    expect(address()).toBe('/login');
    expect(noticeTitles()).toEqual([
      'error:La connexion a pris trop de temps ou a été commencée dans un autre navigateur. Recommencez.',
    ]);
    expect(useSession.getState().isAuthenticated).toBe(false);
    expect(exchanges).toHaveLength(1);
  });

  it('an api out of reach: back to /login with the network message', async () => {
    answerExchange(() => Promise.reject(new TypeError('Failed to fetch')));
    comeBackTo('/login/sso#ticket=t-1');
    expect(await screen.findByRole('button', { name: 'Se connecter' })).toBeInTheDocument();
    expect(noticeTitles()).toEqual(['error:Impossible de contacter le serveur. Vérifiez votre connexion.']);
  });

  it('no ticket in the address: /login, nothing sent', async () => {
    answerExchange(() => jsonResponse(500));
    comeBackTo('/login/sso');
    expect(await screen.findByRole('button', { name: 'Se connecter' })).toBeInTheDocument();
    expect(address()).toBe('/login');
    expect(exchanges).toEqual([]);
    expect(noticeTitles()).toEqual([]);
  });
});

describe('single sign-on codes', () => {
  it('the page knows every code of the contract', () => {
    expect([...SSO_ERROR_CODES]).toEqual([...SSO_ERRORS]);
  });
});
