import { useNotices } from '@qc/ui-state';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { jsonResponse, listItem, mockApi, noticeOf, renderQuarantine, type ApiCall } from '../../test-utils';

const listCalls = (calls: ApiCall[]) => calls.filter((c) => c.method === 'GET' && c.path === '/api/quarantine/');
const bulkCalls = (calls: ApiCall[]) => calls.filter((c) => c.method === 'POST' && c.path === '/api/quarantine/bulk/');
const rows = () => screen.queryAllByTestId('quarantine-row');
const ITEMS = ['m1', 'm2', 'm3', 'm4'].map((id) => listItem({ id, subject: `Subject ${id}` }));

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
  await user.click(document.querySelector<HTMLInputElement>('.ant-table-thead input[type="checkbox"]')!);
  expect(screen.getByTestId(`quarantine-bulk-${action}`)).toBeEnabled();
  await user.click(screen.getByTestId(`quarantine-bulk-${action}`));
  const dialog = await screen.findByRole('dialog');
  expect(dialog).toHaveTextContent(title);
  await user.click(within(dialog).getByTestId('quarantine-bulk-confirm'));
}

describe('bulk actions of the quarantine list', () => {
  it('releases the selected page and sums up a partial failure with the failed ids and reasons', async () => {
    const { calls } = api([
      { id: 'm1', status: 'released' },
      { id: 'm2', status: 'released' },
      { id: 'm3', status: 'partially_released' },
      { id: 'm4', status: 'failed', code: 'relay_refused' },
    ]);
    renderQuarantine();
    await selectPageAndConfirm('release', 'Libérer les 4 e-mails sélectionnés ?');
    await waitFor(() => expect(bulkCalls(calls)).toHaveLength(1));
    expect(bulkCalls(calls)[0]!.body).toEqual({ ids: ['m1', 'm2', 'm3', 'm4'], action: 'release' });
    await waitFor(() => expect(noticeOf('3 libérés, 1 en échec')).toBeDefined());
    const notice = noticeOf('3 libérés, 1 en échec')!;
    expect(notice.type).toBe('warning');
    expect(notice.description).toBe('m4: Le relais a refusé le message. L’e-mail reste en quarantaine.');
    // The list refreshes and the selection is dropped.
    await waitFor(() => expect(listCalls(calls).length).toBeGreaterThan(1));
    await waitFor(() => expect(screen.getByTestId('quarantine-bulk-release')).toBeDisabled());
  }, 60_000);

  it('says all succeeded when every id was deleted', async () => {
    const { calls } = api(ITEMS.map((i) => ({ id: i.id, status: 'deleted' })));
    renderQuarantine();
    await selectPageAndConfirm('delete', 'Supprimer les 4 e-mails sélectionnés ?');
    await waitFor(() => expect(noticeOf('4 e-mails supprimés')?.type).toBe('success'));
    expect(bulkCalls(calls)[0]!.body).toEqual({ ids: ['m1', 'm2', 'm3', 'm4'], action: 'delete' });
  }, 60_000);
});
