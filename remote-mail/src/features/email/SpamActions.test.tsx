import { useSession } from '@qc/auth';
import type { CurrentUser, NotSpamResponse } from '@qc/contracts';
import { i18next } from '@qc/i18n';
import { useNotices } from '@qc/ui-state';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  emailDetail,
  jsonResponse,
  listItem,
  mockApi,
  noticeOf,
  noticeTitles,
  renderQuarantine,
  type ApiCall,
} from '../../test-utils';
import type { QuarantineDetail } from '../quarantine/quarantine.types';

const user = () => userEvent.setup({ delay: null });
const DETAIL = '/api/quarantine/m1/';
const ME: CurrentUser = {
  id: 'u1',
  username: 'jane',
  email: 'jane@example.com',
  first_name: 'Jane',
  last_name: 'Doe',
  role: 'user',
  domain: null,
  is_external: false,
  source: 'local',
  addresses: ['jane@example.com'],
  mfa_enabled: false,
  date_joined: '2026-01-01T00:00:00Z',
  pending_email: null,
};
const as = (role: CurrentUser['role']) => useSession.setState({ user: { ...ME, role }, isAuthenticated: true });

function serve(detail: QuarantineDetail, actions: Partial<Record<string, (call: ApiCall) => Response>> = {}) {
  return mockApi((call) => {
    const custom = actions[`${call.method} ${call.path}`];
    if (custom) return custom(call);
    if (call.method === 'GET' && call.path === DETAIL) return jsonResponse(200, detail);
    if (call.method === 'GET' && call.path === '/api/quarantine/')
      return jsonResponse(200, { results: [listItem()], next_cursor: null });
    return jsonResponse(404, { detail: 'Not found', code: 'not_found' });
  });
}

const step = (ok: boolean, extra: object = {}) => ({
  ok,
  skipped: false,
  code: null,
  message: null,
  retry_after: null,
  ...extra,
});
const NOT_SPAM: NotSpamResponse = {
  release: {
    ...step(true),
    delivery: { response: '250 2.0.0 Ok: queued as 4Fq', accepted: ['jane@example.com'], rejected: [] },
  },
  learn: { ...step(false, { code: 'rspamd_unavailable', message: 'connect ECONNREFUSED' }), already: false },
  whitelist: {
    ...step(true),
    entry: {
      id: 'l1',
      kind: 'whitelist',
      scope: 'user',
      address: 'promo@spam.example',
      address_unicode: null,
      user: { id: 'u1', email: 'jane@example.com' },
      domain: null,
      created_at: '2026-11-20T10:00:00Z',
      created_by: { id: 'u1', email: 'jane@example.com' },
    },
  },
  others: { sender: 'promo@spam.example', count: 2, ids: ['m2', 'm3'] },
};

beforeEach(() => {
  localStorage.clear();
  jest.restoreAllMocks();
  useNotices.getState().clear();
  as('user');
});

describe('e-mail detail: why held, learn, Not spam, Block sender (issue 18)', () => {
  it('says why the copy is held, strongest first, and what was learned', async () => {
    serve(
      emailDetail({
        hold_reasons: [
          { kind: 'list', recipient: 'jane@example.com', scope: 'user', address: 'promo@spam.example', by_you: true },
          { kind: 'rule', token: 'filter:01J', label: 'spam.example' },
          { kind: 'score', score: 12.3, required_score: 10 },
        ],
        learned: { as: 'spam', at: '2026-11-20T10:00:00Z', by: 'root@example.com' },
      }),
    );
    renderQuarantine('/mail/m1');
    const reasons = await screen.findAllByTestId('email-hold-reason');
    expect(reasons.map((r) => r.textContent)).toEqual([
      'Sur liste noire (par vous)',
      'Retenu par le filtre spam.example',
      'Score 12,3 ≥ 10,0',
    ]);
    expect(screen.getByTestId('email-learned')).toHaveTextContent(/Appris comme spam le .* par root@example.com/);
  });

  it('learns as spam: Rspamd’s answer; "already"; a 502 with Rspamd’s answer, nothing learned', async () => {
    let answer: () => Response = () =>
      jsonResponse(200, {
        as: 'spam',
        already: false,
        rspamd: '{"success":true}',
        learned: { as: 'spam', at: '2026-11-20T10:00:00Z', by: 'jane@example.com' },
      });
    const { calls } = serve(emailDetail(), { 'POST /api/quarantine/m1/learn/': () => answer() });
    renderQuarantine('/mail/m1');
    const u = user();
    const learn = async (label: string) => {
      await u.click(await screen.findByTestId('email-learn'));
      await u.click(await screen.findByText(label));
    };
    await learn('Apprendre comme spam');
    await waitFor(() => expect(noticeTitles()).toEqual(['success: Appris comme spam']));
    expect(noticeOf('Appris comme spam')?.description).toBe('Réponse de Rspamd\u00a0: {"success":true}');
    expect(calls.find((c) => c.path === '/api/quarantine/m1/learn/')!.body).toEqual({ as: 'spam' });

    useNotices.getState().clear();
    answer = () =>
      jsonResponse(200, {
        as: 'ham',
        already: true,
        rspamd: 'already learned',
        learned: { as: 'ham', at: '2026-11-20T10:00:00Z', by: 'jane@example.com' },
      });
    await learn('Apprendre comme légitime');
    await waitFor(() => expect(noticeTitles()).toEqual(['info: Déjà appris comme légitime']));

    useNotices.getState().clear();
    answer = () => jsonResponse(502, { code: 'rspamd_refused', detail: '{"error":"Unknown statistics error"}' });
    await learn('Apprendre comme spam');
    await waitFor(() => expect(noticeTitles()).toEqual(['error: Erreur lors de l’apprentissage']));
    expect(noticeOf('Erreur lors de l’apprentissage')?.description).toBe(
      'Rspamd a refusé\u00a0: rien n’a été appris. Réponse de Rspamd\u00a0: {"error":"Unknown statistics error"}',
    );
  });

  it('"Not spam": choose whom to allow, then each step’s outcome, then release the 2 others through the bulk call', async () => {
    as('domain_admin');
    const { calls } = serve(emailDetail(), {
      'POST /api/quarantine/m1/not-spam/': () => jsonResponse(200, NOT_SPAM),
      'POST /api/quarantine/bulk/': () =>
        jsonResponse(200, {
          results: [
            { id: 'm2', status: 'released', code: null },
            { id: 'm3', status: 'released', code: null },
          ],
        }),
    });
    renderQuarantine('/mail/m1');
    const u = user();
    await u.click(await screen.findByTestId('email-not-spam'));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Autoriser aussi l’expéditeur promo@spam.example');
    // A domain_admin may allow the sender for the whole domain.
    await u.click(within(dialog).getByLabelText('pour mon domaine'));
    await u.click(within(dialog).getByTestId('not-spam-submit'));
    const steps = await screen.findAllByTestId('not-spam-step');
    expect(calls.find((c) => c.path === '/api/quarantine/m1/not-spam/')!.body).toEqual({ allow_sender: 'domain' });
    expect(steps.map((s) => s.getAttribute('data-ok'))).toEqual(['true', 'false', 'true']);
    expect(steps[0]).toHaveTextContent('Libération : Libéré. Réponse du relais : 250 2.0.0 Ok: queued as 4Fq');
    expect(steps[1]).toHaveTextContent('Échec');
    expect(steps[1]).toHaveTextContent('Rspamd est injoignable');
    expect(steps[2]).toHaveTextContent('promo@spam.example ajouté à la liste blanche');
    expect(screen.getByTestId('not-spam-others')).toHaveTextContent(
      '2 autres e-mails de cet expéditeur en quarantaine : les libérer aussi ?',
    );
    await u.click(screen.getByTestId('not-spam-release-others'));
    expect(await screen.findByTestId('not-spam-others-result')).toBeInTheDocument();
    expect(calls.find((c) => c.path === '/api/quarantine/bulk/')!.body).toEqual({
      ids: ['m2', 'm3'],
      action: 'release',
    });
  });

  it('a user is offered "for me" or "no" only; "no" sends allow_sender null', async () => {
    const { calls } = serve(emailDetail(), {
      'POST /api/quarantine/m1/not-spam/': () =>
        jsonResponse(200, {
          ...NOT_SPAM,
          whitelist: { ...step(true, { skipped: true }), entry: null },
          others: { sender: 'x', count: 0, ids: [] },
        }),
    });
    renderQuarantine('/mail/m1');
    const u = user();
    await u.click(await screen.findByTestId('email-not-spam'));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).queryByLabelText('pour mon domaine')).toBeNull();
    await u.click(within(dialog).getByLabelText('non'));
    await u.click(within(dialog).getByTestId('not-spam-submit'));
    const steps = await screen.findAllByTestId('not-spam-step');
    expect(steps[2]).toHaveTextContent('Non demandé');
    expect(screen.queryByTestId('not-spam-others')).toBeNull();
    expect(calls.find((c) => c.path === '/api/quarantine/m1/not-spam/')!.body).toEqual({ allow_sender: null });
  });

  it('"Block sender" after a confirmation: POST /api/lists/ blacklist for me; a conflict is named', async () => {
    let conflict = false;
    const { calls } = serve(emailDetail(), {
      'POST /api/lists/': (c) =>
        conflict
          ? jsonResponse(409, { code: 'list_conflict', detail: 'on the whitelist' })
          : jsonResponse(201, {
              ...NOT_SPAM.whitelist.entry,
              kind: 'blacklist',
              address: (c.body as { address: string }).address,
            }),
    });
    renderQuarantine('/mail/m1');
    const u = user();
    await u.click(await screen.findByTestId('email-block'));
    expect(await screen.findByRole('dialog')).toHaveTextContent('Bloquer promo@spam.example');
    expect(calls.filter((c) => c.path === '/api/lists/')).toEqual([]);
    await u.click(screen.getByTestId('email-block-confirm'));
    await waitFor(() => expect(noticeTitles()).toEqual(['success: Adresse ajoutée']));
    expect(calls.find((c) => c.path === '/api/lists/')!.body).toEqual({
      kind: 'blacklist',
      address: 'promo@spam.example',
      scope: 'user',
    });

    conflict = true;
    useNotices.getState().clear();
    await u.click(screen.getByTestId('email-block'));
    await u.click(await screen.findByTestId('email-block-confirm'));
    await waitFor(() => expect(noticeTitles()).toEqual(['error: Erreur lors de l’ajout']));
    expect(noticeOf('Erreur lors de l’ajout')?.description).toMatch(/promo@spam.example est sur la liste blanche/);
  });

  it('the quarantine list’s row menu opens the same "Not spam" dialog, without opening the e-mail', async () => {
    const { calls } = serve(emailDetail(), {
      'POST /api/quarantine/m1/not-spam/': () =>
        jsonResponse(200, { ...NOT_SPAM, others: { sender: 'x', count: 0, ids: [] } }),
    });
    renderQuarantine('/mail');
    const u = user();
    await u.click(await screen.findByRole('button', { name: 'Actions sur «\u00a0You won a prize\u00a0»' }));
    await u.click(await screen.findByTestId('row-not-spam'));
    const dialog = await screen.findByRole('dialog');
    expect(screen.getByTestId('location')).toHaveTextContent('/mail');
    expect(screen.queryByTestId('email-detail')).toBeNull();
    await u.click(within(dialog).getByTestId('not-spam-submit'));
    await screen.findAllByTestId('not-spam-step');
    expect(calls.find((c) => c.path === '/api/quarantine/m1/not-spam/')!.body).toEqual({ allow_sender: 'me' });
  });
});

describe('e-mail detail: who may learn, and how much (issue 29)', () => {
  const learnRefused = (status: number, code: string, headers: Record<string, string> = {}) =>
    new Response(JSON.stringify({ code, detail: 'refused' }), {
      status,
      headers: { 'Content-Type': 'application/json', ...headers },
    });

  it('learn refusals say why in words: role, already under way, the budget with its wait; "already" says nothing new was learned', async () => {
    let answer: () => Response = () => learnRefused(403, 'learning_not_allowed');
    serve(emailDetail(), { 'POST /api/quarantine/m1/learn/': () => answer() });
    renderQuarantine('/mail/m1');
    const u = user();
    const learnAndRead = async (label: string) => {
      useNotices.getState().clear();
      await u.click(await screen.findByTestId('email-learn'));
      await u.click(await screen.findByText(label));
      await waitFor(() => expect(noticeTitles()).toHaveLength(1));
      return `${noticeTitles()[0]} | ${useNotices.getState().notices[0]?.description}`;
    };
    expect(await learnAndRead('Apprendre comme spam')).toBe(
      'error: Erreur lors de l’apprentissage | L’apprentissage est réservé à d’autres rôles sur ce serveur\u00a0: rien n’a été appris.',
    );
    answer = () => learnRefused(409, 'learn_in_progress');
    expect(await learnAndRead('Apprendre comme spam')).toBe(
      'error: Erreur lors de l’apprentissage | Cet e-mail est déjà en cours d’apprentissage\u00a0: rien n’a été envoyé de nouveau.',
    );
    answer = () => learnRefused(429, 'rate_limited', { 'Retry-After': '42' });
    expect(await learnAndRead('Apprendre comme légitime')).toBe(
      'error: Erreur lors de l’apprentissage | Trop de requêtes. Réessayez dans 42\u00a0secondes.',
    );
    answer = () =>
      jsonResponse(200, {
        as: 'spam',
        already: true,
        rspamd: 'You already taught Rspamd this e-mail as spam: not sent again.',
        learned: { as: 'spam', at: '2026-11-20T10:00:00Z', by: 'jane@example.com' },
      });
    expect(await learnAndRead('Apprendre comme spam')).toBe(
      'info: Déjà appris comme spam | Rspamd le connaissait déjà ainsi\u00a0: rien de nouveau n’a été appris.',
    );
  });

  it('a role that may not learn (can_learn false): no Learn menu; "Not spam" says so first, then its learn step is not allowed', async () => {
    serve(emailDetail({ can_learn: false }), {
      'POST /api/quarantine/m1/not-spam/': () =>
        jsonResponse(200, {
          ...NOT_SPAM,
          learn: {
            ...step(false, {
              code: 'learning_not_allowed',
              message: 'Your role may not teach Rspamd (QC_LEARN_ROLES).',
            }),
            already: false,
          },
          others: { sender: 'x', count: 0, ids: [] },
        }),
    });
    renderQuarantine('/mail/m1');
    const u = user();
    await u.click(await screen.findByTestId('email-not-spam'));
    expect(screen.queryByTestId('email-learn')).toBeNull();
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('L’e-mail sera libéré. Votre rôle ne permet pas de l’apprendre à Rspamd.');
    await u.click(within(dialog).getByTestId('not-spam-submit'));
    const steps = await screen.findAllByTestId('not-spam-step');
    expect(steps[0]).toHaveTextContent('Libération : Libéré');
    expect(steps[1]).toHaveTextContent(
      'Apprentissage : Non autoriséL’apprentissage est réservé à d’autres rôles sur ce serveur : rien n’a été appris.',
    );
    // The api's English message is not added to the French words.
    expect(steps[1]).not.toHaveTextContent('QC_LEARN_ROLES');
    expect(steps[2]).toHaveTextContent('promo@spam.example ajouté à la liste blanche');
  });

  it('a role that may learn sees the Learn menu and the usual "Not spam" intro', async () => {
    serve(emailDetail({ can_learn: true }));
    renderQuarantine('/mail/m1');
    const u = user();
    expect(await screen.findByTestId('email-learn')).toBeInTheDocument();
    await u.click(screen.getByTestId('email-not-spam'));
    expect(await screen.findByRole('dialog')).toHaveTextContent(
      'L’e-mail sera libéré et appris comme légitime par Rspamd.',
    );
  });

  it('"Not spam" with its learn refused by the budget: the step says how long to wait, in French and in English', async () => {
    serve(emailDetail(), {
      'POST /api/quarantine/m1/not-spam/': () =>
        jsonResponse(200, {
          ...NOT_SPAM,
          learn: {
            ...step(false, { code: 'rate_limited', message: 'Too many learns. Try again later.', retry_after: 7200 }),
            already: false,
          },
          others: { sender: 'x', count: 0, ids: [] },
        }),
    });
    renderQuarantine('/mail/m1');
    const u = user();
    await u.click(await screen.findByTestId('email-not-spam'));
    await u.click(within(await screen.findByRole('dialog')).getByTestId('not-spam-submit'));
    const steps = await screen.findAllByTestId('not-spam-step');
    expect(steps[1]).toHaveTextContent('Apprentissage : ÉchecTrop de requêtes. Réessayez dans 120 minutes.');
    expect(steps[1]).not.toHaveTextContent('Too many learns');
    await act(() => i18next.changeLanguage('en'));
    try {
      expect(screen.getAllByTestId('not-spam-step')[1]).toHaveTextContent(
        'Learning: FailedToo many requests. Try again in 120 minutes.',
      );
    } finally {
      await act(() => i18next.changeLanguage('fr'));
    }
  });
});
