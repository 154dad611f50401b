import { initI18n } from '@qc/i18n';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  CONN,
  currentLocation,
  jsonResponse,
  logLine,
  mockApi,
  onPhoneScreen,
  renderLogs,
  signInAdmin,
} from '../../test-utils';

beforeEach(() => {
  localStorage.clear();
  jest.restoreAllMocks();
  signInAdmin();
});

const LINES = [
  logLine({ id: 'a', ts: '2026-11-20T14:00:00.000Z', message: 'connect ip=192.0.2.7' }),
  logLine({
    id: 'b',
    ts: '2026-11-20T14:00:01.000Z',
    uuid: `${CONN}.1`,
    origin: 'rspamd',
    severity: 'NOTICE',
    message: 'score=15',
  }),
  logLine({ id: 'c', ts: '2026-11-20T14:00:02.000Z', uuid: `${CONN}.1`, origin: 'qconsole', message: 'stored m1' }),
];

describe('haraka/logs/{uuid}', () => {
  it('lists the lines oldest first, each transaction’s outcome and its quarantined e-mail', async () => {
    const { calls } = mockApi(() =>
      jsonResponse(200, {
        uuid: CONN,
        lines: LINES,
        truncated: false,
        transactions: [
          { uuid: `${CONN}.1`, outcome: 'quarantined', email_id: 'm1' },
          { uuid: `${CONN}.2`, outcome: 'rejected', email_id: null },
        ],
      }),
    );
    renderLogs(`/haraka/logs/${CONN}`);
    const rows = await screen.findAllByTestId('log-row');
    expect(calls[0]!.path).toBe(`/api/haraka/logs/${CONN}/`);
    expect(rows.map((r) => r.textContent)).toEqual([
      expect.stringContaining('connect ip=192.0.2.7'),
      expect.stringContaining('score=15'),
      expect.stringContaining('stored m1'),
    ]);
    // Each line's host (spec §3), as in the search.
    expect(screen.getByRole('columnheader', { name: 'Serveur · origine' })).toBeInTheDocument();
    expect(rows[0]).toHaveTextContent('mx1.example.com');
    expect(within(rows[1]!).getByTestId('log-origin')).toHaveTextContent('rspamd');
    const [quarantined, rejected] = screen.getAllByTestId('uuid-transaction');
    expect(within(quarantined!).getByTestId('uuid-outcome')).toHaveTextContent('Mise en quarantaine');
    expect(within(quarantined!).getByRole('link', { name: /Voir l’e-mail en quarantaine/ })).toHaveAttribute(
      'href',
      '/mail/m1',
    );
    expect(within(rejected!).getByTestId('uuid-outcome')).toHaveTextContent('Refusée');
    expect(within(rejected!).queryByRole('link')).toBeNull();
    expect(screen.getByTestId('remote-haraka-version')).toBeInTheDocument();

    await userEvent.setup({ delay: null }).click(screen.getAllByTestId('uuid-back')[0]!);
    expect(currentLocation()).toBe('/haraka/logs');
  });

  it('404: "No logs found for this email or UUID" (spec §8), with a way back', async () => {
    mockApi(() => jsonResponse(404, { detail: 'No logs', code: 'logs_not_found' }));
    const i18n = initI18n();
    await i18n.changeLanguage('en');
    const { unmount } = renderLogs(`/haraka/logs/${CONN}.3`);
    try {
      const box = await screen.findByTestId('uuid-not-found');
      expect(box).toHaveTextContent('No logs found for this email or UUID');
      expect(screen.getAllByRole('link', { name: /Back to logs/ }).length).toBeGreaterThan(0);
    } finally {
      unmount();
      await i18n.changeLanguage('fr');
    }
  });

  it('a quarantined e-mail’s id (spec §2 “one e-mail or uuid”): asked as is, the title names its uuid', async () => {
    const { calls } = mockApi(() =>
      jsonResponse(200, {
        uuid: `${CONN}.1`,
        lines: LINES.slice(1),
        truncated: false,
        transactions: [{ uuid: `${CONN}.1`, outcome: 'quarantined', email_id: '01KB2C3D4E5F6G7H8J9K0M1N2P' }],
      }),
    );
    renderLogs('/haraka/logs/01KB2C3D4E5F6G7H8J9K0M1N2P');
    expect(await screen.findAllByTestId('log-row')).toHaveLength(2);
    expect(calls[0]!.path).toBe('/api/haraka/logs/01KB2C3D4E5F6G7H8J9K0M1N2P/');
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(`${CONN}.1`);
  });

  it('a path deeper than a uuid is a not-found page with a way back, not the search', async () => {
    const { calls } = mockApi(() => jsonResponse(200, {}));
    renderLogs(`/haraka/logs/${CONN}/more`);
    expect(await screen.findByTestId('haraka-not-found')).toHaveTextContent('Page introuvable');
    expect(calls).toHaveLength(0);
    await userEvent.setup({ delay: null }).click(screen.getByRole('button', { name: /Retour aux journaux/ }));
    expect(currentLocation()).toBe('/haraka/logs');
  });

  it('a malformed uuid in the address is refused without asking the api', async () => {
    const { calls } = mockApi(() => jsonResponse(200, {}));
    renderLogs('/haraka/logs/12345');
    expect(await screen.findByText('Erreur lors du chargement des journaux. Vérifiez l’UUID.')).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });

  it('says so when the lines were truncated; on a phone each line is one stacked cell', async () => {
    const restore = onPhoneScreen();
    try {
      mockApi(() => jsonResponse(200, { uuid: CONN, lines: LINES, truncated: true, transactions: [] }));
      renderLogs(`/haraka/logs/${CONN}`);
      expect(await screen.findByTestId('uuid-truncated')).toHaveTextContent('3');
      expect(screen.getAllByTestId('log-stacked')).toHaveLength(3);
      expect(screen.queryByTestId('uuid-transactions')).toBeNull();
    } finally {
      restore();
    }
  });
});
