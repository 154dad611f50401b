import { i18next } from '@qc/i18n';
import { useNotices } from '@qc/ui-state';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { registerMailNamespace } from '../../i18n';
import { jsonResponse, listItem, mockApi, noticeOf, renderQuarantine, type ApiCall } from '../../test-utils';
import { bulkSummary } from './BulkActions';

const listCalls = (calls: ApiCall[]) => calls.filter((c) => c.method === 'GET' && c.path === '/api/quarantine/');
const bulkCalls = (calls: ApiCall[]) => calls.filter((c) => c.method === 'POST' && c.path === '/api/quarantine/bulk/');
const rows = () => screen.queryAllByTestId('quarantine-row');
const ITEMS = ['m1', 'm2', 'm3', 'm4'].map((id) => listItem({ id, subject: `Subject ${id}` }));

beforeAll(() => registerMailNamespace());
beforeEach(() => {
  jest.restoreAllMocks();
  useNotices.getState().clear();
});

function api(bulkResults: unknown[]) {
  return mockApi((call) =>
    call.path === '/api/quarantine/bulk/'
      ? jsonResponse(200, { results: bulkResults })
      : jsonResponse(200, { results: ITEMS, next_cursor: null }),
  );
}

async function selectPageAndConfirm(action: 'release' | 'delete', title: string) {
  const user = userEvent.setup({ delay: null });
  await waitFor(() => expect(rows()).toHaveLength(4));
  expect(screen.getByTestId(`quarantine-bulk-${action}`)).toBeDisabled();
  // The header checkbox selects the whole page.
  await user.click(screen.getByRole('checkbox', { name: 'Sélectionner les e-mails de cette page' }));
  expect(screen.getByTestId(`quarantine-bulk-${action}`)).toBeEnabled();
  await user.click(screen.getByTestId(`quarantine-bulk-${action}`));
  const dialog = await screen.findByRole('dialog');
  expect(dialog).toHaveTextContent(title);
  await user.click(within(dialog).getByTestId('quarantine-bulk-confirm'));
}

describe('bulk actions of the quarantine list', () => {
  it('releases the selected page; a partial failure names the failed mails by subject, open until closed', async () => {
    const { calls } = api([
      { id: 'm1', status: 'released' },
      { id: 'm2', status: 'failed', code: 'email_deleted' },
      { id: 'm3', status: 'partially_released' },
      { id: 'm4', status: 'failed', code: 'relay_refused' },
    ]);
    renderQuarantine();
    await selectPageAndConfirm('release', 'Libérer les 4 e-mails sélectionnés ?');
    await waitFor(() => expect(bulkCalls(calls)).toHaveLength(1));
    expect(bulkCalls(calls)[0]!.body).toEqual({ ids: ['m1', 'm2', 'm3', 'm4'], action: 'release' });
    const result = await screen.findByTestId('quarantine-bulk-result');
    expect(result).toHaveAttribute('role', 'alert');
    expect(result).toHaveTextContent('2 libérés, 2 en échec');
    expect(
      within(result)
        .getAllByTestId('quarantine-bulk-failure')
        .map((li) => li.textContent),
    ).toEqual([
      '«\u00a0Subject m2\u00a0»\u00a0: Cet e-mail a été supprimé.',
      '«\u00a0Subject m3\u00a0»\u00a0: libéré en partie\u00a0: le relais a refusé certains destinataires, pour lesquels il reste en quarantaine.',
      '«\u00a0Subject m4\u00a0»\u00a0: Le relais a refusé le message. L’e-mail reste en quarantaine.',
    ]);
    expect(result).not.toHaveTextContent('m1');
    // Not a notice (those close after 5 s).
    expect(useNotices.getState().notices).toEqual([]);
    // The list refreshes and the selection is dropped; the result stays.
    await waitFor(() => expect(listCalls(calls).length).toBeGreaterThan(1));
    await waitFor(() => expect(screen.getByTestId('quarantine-bulk-release')).toBeDisabled());
    // The pressed buttons are disabled now: the focus stays with their group, not the page's start.
    expect(screen.getByTestId('quarantine-bulk')).toHaveFocus();
    jest.useFakeTimers();
    try {
      act(() => jest.advanceTimersByTime(30_000));
      expect(screen.getByTestId('quarantine-bulk-result')).toBeInTheDocument();
    } finally {
      jest.useRealTimers();
    }
    await userEvent.setup({ delay: null }).click(within(result).getByRole('button', { name: 'Fermer le résultat' }));
    await waitFor(() => expect(screen.queryByTestId('quarantine-bulk-result')).toBeNull());
  }, 60_000);

  it('an e-mail without a subject is named as such; all failed is an error', () => {
    const subjects = new Map([
      ['m1', null],
      ['m2', 'Hello'],
    ]);
    const { outcome } = bulkSummary(
      i18next.getFixedT('fr', 'mail'),
      'delete',
      [
        { id: 'm1', status: 'failed', code: 'already_released' },
        { id: 'm2', status: 'failed' },
      ],
      subjects,
    );
    expect(outcome).toEqual({
      type: 'error',
      title: 'Aucun e-mail supprimé\u00a0: 2 en échec',
      failures: [
        { id: 'm1', subject: null, reason: 'Cet e-mail a déjà été libéré.' },
        { id: 'm2', subject: 'Hello', reason: 'Erreur inconnue' },
      ],
    });
  });

  it('a release partly refused by the relay is a warning naming those e-mails, not a plain success', () => {
    const results = [
      { id: 'm1', status: 'released' as const },
      { id: 'm2', status: 'partially_released' as const },
    ];
    const subjects = new Map([
      ['m1', 'One'],
      ['m2', 'Two'],
    ]);
    expect(bulkSummary(i18next.getFixedT('fr', 'mail'), 'release', results, subjects)).toEqual({
      notice: null,
      outcome: {
        type: 'warning',
        title: '2 e-mails libérés, dont 1 en partie',
        failures: [
          {
            id: 'm2',
            subject: 'Two',
            reason:
              'libéré en partie\u00a0: le relais a refusé certains destinataires, pour lesquels il reste en quarantaine.',
          },
        ],
      },
    });
    expect(bulkSummary(i18next.getFixedT('en', 'mail'), 'release', results, subjects).outcome?.title).toBe(
      '2 e-mails released, 1 of them partially',
    );
  });

  it('speaks of one e-mail in the singular, in both languages', () => {
    const one = [{ id: 'm1', status: 'deleted' as const }];
    expect(bulkSummary(i18next.getFixedT('fr', 'mail'), 'delete', one).notice?.title).toBe('1 e-mail supprimé');
    expect(bulkSummary(i18next.getFixedT('en', 'mail'), 'delete', one).notice?.title).toBe('1 e-mail deleted');
    const fr = i18next.getFixedT('fr', 'mail');
    expect(fr('quarantine.bulk.confirm_release', { count: 1 })).toBe('Libérer l’e-mail sélectionné\u202f?');
    expect(fr('quarantine.bulk.confirm_delete_body', { count: 1 })).toBe('Il ne pourra plus être libéré.');
    expect(fr('quarantine.bulk.confirm_delete_body', { count: 2 })).toBe('Ils ne pourront plus être libérés.');
    expect(i18next.getFixedT('en', 'mail')('quarantine.bulk.confirm_release', { count: 1 })).toBe(
      'Release the selected e-mail?',
    );
    expect(fr('email.more_recipients', { count: 1 })).toBe('Et 1 autre destinataire non affiché.');
  });

  it('a release refused by the per-user budget (429) says how long to wait, in both languages', async () => {
    const { calls } = mockApi((call) =>
      call.path === '/api/quarantine/bulk/'
        ? new Response(JSON.stringify({ code: 'rate_limited', detail: 'Too many releases. Try again later.' }), {
            status: 429,
            headers: { 'Content-Type': 'application/json', 'Retry-After': '37' },
          })
        : jsonResponse(200, { results: ITEMS, next_cursor: null }),
    );
    renderQuarantine();
    await selectPageAndConfirm('release', 'Libérer les 4 e-mails sélectionnés ?');
    await waitFor(() => expect(bulkCalls(calls)).toHaveLength(1));
    await waitFor(() =>
      expect(noticeOf('Erreur lors de la libération')?.description).toBe(
        'Trop de requêtes. Réessayez dans 37\u00a0secondes.',
      ),
    );
    expect(i18next.t('errors.rate_limited_seconds', { ns: 'common', lng: 'en', count: 1 })).toBe(
      'Too many requests. Try again in 1 second.',
    );
  }, 60_000);

  it('says all succeeded when every id was deleted', async () => {
    const { calls } = api(ITEMS.map((i) => ({ id: i.id, status: 'deleted' })));
    renderQuarantine();
    await selectPageAndConfirm('delete', 'Supprimer les 4 e-mails sélectionnés ?');
    await waitFor(() => expect(noticeOf('4 e-mails supprimés')?.type).toBe('success'));
    expect(bulkCalls(calls)[0]!.body).toEqual({ ids: ['m1', 'm2', 'm3', 'm4'], action: 'delete' });
  }, 60_000);
});
