import { useSession } from '@qc/auth';
import type { CurrentUser } from '@qc/contracts';
import { i18next } from '@qc/i18n';
import { useNotices } from '@qc/ui-state';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { registerMailNamespace } from '../../i18n';
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
import { bulkSummary } from '../quarantine/BulkActions';
import { FOLLOW_EVERY_MS, FOLLOW_TRIES } from '../quarantine/quarantine.queries';
import type { QuarantineDetail } from '../quarantine/quarantine.types';

// Issue 29 item 11: a release the relay has not answered in time is answered 202 `releasing`; the
// page says so and follows it to its outcome.

const DETAIL = '/api/quarantine/m1/';
const RELEASE = '/api/quarantine/m1/release/';
const detailCalls = (calls: ApiCall[]) => calls.filter((c) => c.method === 'GET' && c.path === DETAIL);
const releasing = (detail: QuarantineDetail) => {
  detail.status = 'releasing';
  detail.recipients = [{ address: 'jane@example.com', status: 'releasing', updated_at: '2026-11-20T10:00:00+01:00' }];
};

function serve(detail: QuarantineDetail, release?: () => Response) {
  return mockApi((call) => {
    if (call.method === 'POST' && call.path === RELEASE && release) return release();
    if (call.method === 'GET' && call.path === DETAIL) return jsonResponse(200, detail);
    return jsonResponse(200, { results: [listItem()], next_cursor: null });
  });
}

beforeAll(() => registerMailNamespace());
beforeEach(() => {
  localStorage.clear();
  jest.restoreAllMocks();
  useNotices.getState().clear();
});

it('a 202 says "Release in progress", and the page follows the release to its outcome', async () => {
  const detail = emailDetail();
  const { calls } = serve(detail, () => {
    releasing(detail);
    return jsonResponse(202, { status: 'releasing' });
  });
  renderQuarantine('/mail/m1');
  await screen.findByTestId('email-detail');
  const u = userEvent.setup({ delay: null });
  await u.click(screen.getByTestId('email-release'));
  await u.click(await screen.findByTestId('email-release-confirm'));

  await waitFor(() => expect(noticeTitles()).toEqual(['info: Libération en cours']));
  expect(noticeOf('Libération en cours')!.description).toBe(
    'Le relais n’a pas encore répondu. Cette page affiche le résultat dès qu’il est connu.',
  );
  const progress = await screen.findByTestId('email-release-progress');
  expect(progress).toHaveTextContent('Libération en cours');
  expect(screen.getByTestId('email-field-status')).toHaveTextContent('Libération en cours');
  expect(screen.getByTestId('email-release')).toBeDisabled();
  expect(screen.queryByTestId('email-release-error')).toBeNull(); // not a failure

  // The relay answers: the next look at the detail finds it released.
  const before = detailCalls(calls).length;
  detail.status = 'released';
  detail.recipients = [{ address: 'jane@example.com', status: 'released', updated_at: '2026-11-20T10:00:05+01:00' }];
  await waitFor(() => expect(screen.queryByTestId('email-release-progress')).toBeNull(), {
    timeout: FOLLOW_EVERY_MS * 3,
  });
  expect(detailCalls(calls).length).toBeGreaterThan(before);
  expect(screen.getByTestId('email-field-status')).toHaveTextContent('Libéré');
  expect(noticeTitles()).toContain('success: E-mail libéré avec succès');
}, 20_000);

it('a release that fails after its 202 shows the failure with its Retry once the page finds it', async () => {
  const detail = emailDetail();
  releasing(detail);
  serve(detail);
  renderQuarantine('/mail/m1');
  expect(await screen.findByTestId('email-release-progress')).toBeInTheDocument();
  detail.status = 'release_failed';
  detail.recipients = [
    { address: 'jane@example.com', status: 'release_failed', updated_at: '2026-11-20T10:00:05+01:00' },
  ];
  detail.delivery = {
    outcome: 'relay_refused',
    response: '554 5.7.1 Rejected',
    accepted: [],
    rejected: ['jane@example.com'],
    started_at: '2026-11-20T10:00:00+01:00',
    finished_at: '2026-11-20T10:00:05+01:00',
    by: 'jane@example.com',
  };
  const alert = await screen.findByTestId('email-release-error', {}, { timeout: FOLLOW_EVERY_MS * 3 });
  expect(alert).toHaveTextContent('Le relais a refusé le message.');
  expect(screen.getByTestId('email-release-retry')).toBeInTheDocument();
  expect(screen.queryByTestId('email-release-progress')).toBeNull();
}, 20_000);

it('still releasing after FOLLOW_TRIES looks: it stops asking and says the history will tell', async () => {
  const detail = emailDetail();
  releasing(detail);
  const { calls } = serve(detail);
  // Fake from the start: the first look's timer is set as the page opens.
  jest.useFakeTimers({ doNotFake: ['queueMicrotask', 'nextTick', 'setImmediate'] });
  try {
    renderQuarantine('/mail/m1');
    await screen.findByTestId('email-release-progress');
    const first = detailCalls(calls).length;
    for (let i = 0; i < FOLLOW_TRIES + 5; i++) {
      await act(async () => {
        jest.advanceTimersByTime(FOLLOW_EVERY_MS);
        await Promise.resolve();
      });
    }
    // (toHaveTextContent reads the no-break space before the colon as a space)
    expect(screen.getByTestId('email-release-progress')).toHaveTextContent(
      'Toujours en cours : le résultat de la libération sera dans l’historique.',
    );
    expect(detailCalls(calls).length - first).toBe(FOLLOW_TRIES);
  } finally {
    jest.useRealTimers();
  }
}, 20_000);

it('bulk: ids still releasing are named as under way, an info when nothing failed', () => {
  const t = i18next.getFixedT('fr', 'mail');
  const subjects = new Map([
    ['m1', 'One'],
    ['m2', 'Two'],
  ]);
  const { notice, outcome } = bulkSummary(
    t,
    'release',
    [
      { id: 'm1', status: 'released' },
      { id: 'm2', status: 'releasing' },
    ],
    subjects,
  );
  expect(notice).toBeNull();
  expect(outcome).toEqual({
    type: 'info',
    title: '1 libération encore en cours\u00a0: la liste et l’historique en montreront le résultat',
    failures: [{ id: 'm2', subject: 'Two', reason: 'libération en cours, le relais n’a pas encore répondu' }],
  });
  const mixed = bulkSummary(t, 'release', [
    { id: 'm1', status: 'failed', code: 'relay_refused' },
    { id: 'm2', status: 'releasing' },
  ]).outcome!;
  expect([mixed.type, mixed.failures.length]).toEqual(['warning', 2]);
});

it('the list asks again while a row is releasing, and stops once none is', async () => {
  const rows = [listItem({ status: 'releasing' })];
  const { calls } = mockApi(() => jsonResponse(200, { results: rows, next_cursor: null }));
  const listCalls = () => calls.filter((c) => c.path === '/api/quarantine/').length;
  renderQuarantine('/mail');
  await waitFor(() => expect(listCalls()).toBeGreaterThan(1), { timeout: FOLLOW_EVERY_MS * 2 });
  rows[0] = listItem({ status: 'released' });
  await waitFor(() => expect(screen.getAllByTestId('quarantine-row')[0]).toHaveTextContent('Libéré'), {
    timeout: FOLLOW_EVERY_MS * 2,
  });
  const settled = listCalls();
  await new Promise((r) => setTimeout(r, FOLLOW_EVERY_MS + 500));
  expect(listCalls()).toBe(settled);
}, 20_000);

it('a search is not asked again while a row is releasing: each of its pages spends the search budget', async () => {
  const { calls } = mockApi(() =>
    jsonResponse(200, { results: [listItem({ status: 'releasing' })], next_cursor: null }),
  );
  const listCalls = () => calls.filter((c) => c.path === '/api/quarantine/').length;
  renderQuarantine('/mail?q=invoice');
  await waitFor(() => expect(listCalls()).toBe(1));
  await new Promise((r) => setTimeout(r, FOLLOW_EVERY_MS * 2 + 500));
  expect(listCalls()).toBe(1);
}, 20_000);

const step = (extra: object = {}) => ({
  ok: true,
  skipped: false,
  code: null,
  message: null,
  retry_after: null,
  ...extra,
});

it('Not spam from the list’s row: a release still under way is said so, not as released', async () => {
  mockApi((call) =>
    call.path === '/api/quarantine/m1/not-spam/'
      ? jsonResponse(200, {
          release: {
            ...step({ code: 'release_in_progress', message: 'The mail relay has not answered yet.' }),
            delivery: null,
          },
          learn: { ...step(), already: false },
          whitelist: { ...step({ skipped: true }), entry: null },
          others: { sender: 'promo@spam.example', count: 0, ids: [] },
        })
      : jsonResponse(200, { results: [listItem()], next_cursor: null }),
  );
  renderQuarantine('/mail');
  const u = userEvent.setup({ delay: null });
  await u.click(await screen.findByRole('button', { name: 'Actions sur «\u00a0You won a prize\u00a0»' }));
  await u.click(await screen.findByTestId('row-not-spam'));
  await u.click(within(await screen.findByRole('dialog')).getByTestId('not-spam-submit'));
  const [release] = await screen.findAllByTestId('not-spam-step');
  expect(release).toHaveTextContent(
    'Libération : En cours : le relais n’a pas encore répondu. La page de l’e-mail et la liste en montreront le résultat.',
  );
  expect(release).not.toHaveTextContent('Libéré');
});

it('a copy to another address answered 202: "Sending the copy", its outcome to come in the history', async () => {
  const admin: CurrentUser = {
    id: 'u1',
    username: 'root',
    email: 'root@example.com',
    first_name: '',
    last_name: '',
    role: 'admin',
    domain: null,
    is_external: false,
    source: 'local',
    addresses: ['root@example.com'],
    mfa_enabled: false,
    date_joined: '2026-01-01T00:00:00Z',
    pending_email: null,
  };
  useSession.setState({ user: admin, isAuthenticated: true });
  mockApi((call) =>
    call.path === '/api/quarantine/m1/release-to/'
      ? jsonResponse(202, { status: 'releasing' })
      : jsonResponse(200, call.path === DETAIL ? emailDetail() : { results: [], next_cursor: null }),
  );
  renderQuarantine('/mail/m1');
  const u = userEvent.setup({ delay: null });
  await u.click(await screen.findByTestId('email-release-to'));
  await u.type(await screen.findByTestId('email-release-to-address'), 'audit@example.org');
  await u.click(screen.getByTestId('email-release-to-confirm'));
  await waitFor(() => expect(noticeTitles()).toEqual(['info: Envoi de la copie en cours']));
  expect(noticeOf('Envoi de la copie en cours')!.description).toBe(
    'Le relais n’a pas encore répondu pour audit@example.org\u00a0: le résultat sera dans l’historique.',
  );
}, 20_000);
