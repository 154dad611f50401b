import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  CONN,
  currentLocation,
  jsonResponse,
  logLine,
  logPage,
  mockApi,
  onPhoneScreen,
  pickOption,
  renderLogs,
  signInAdmin,
  type ApiCall,
} from '../../test-utils';
import { TAIL_INTERVAL_MS } from './useLiveTail';

const user = () => userEvent.setup({ delay: null });
const searches = (calls: ApiCall[]) => calls.filter((c) => c.path === '/api/haraka/logs/');

beforeEach(() => {
  localStorage.clear();
  jest.restoreAllMocks();
  signInAdmin();
});

describe('haraka/logs', () => {
  it('shows the lines newest first with their severity, host, uuid link, origin and message', async () => {
    const { calls } = mockApi(() =>
      jsonResponse(
        200,
        logPage([
          logLine({
            id: 'mx1:2',
            ts: '2026-11-20T14:00:05.000Z',
            severity: 'ERROR',
            message: 'queue failed',
            origin: 'queue/smtp_forward',
          }),
          logLine({ id: 'mx1:1', uuid: null, origin: null }),
        ]),
      ),
    );
    renderLogs();
    const rows = await screen.findAllByTestId('log-row');
    expect(rows).toHaveLength(2);
    expect(within(rows[0]!).getByTestId('log-severity')).toHaveTextContent('ERROR');
    expect(within(rows[0]!).getByTestId('log-severity')).toHaveClass('ant-tag-red');
    expect(rows[0]).toHaveTextContent('mx1.example.com');
    expect(rows[0]).toHaveTextContent('queue/smtp_forward');
    expect(rows[0]).toHaveTextContent('queue failed');
    expect(within(rows[0]!).getByRole('link', { name: CONN })).toHaveAttribute('href', `/haraka/logs/${CONN}`);
    expect(within(rows[1]!).queryByRole('link')).toBeNull();
    // Without a period: the api's last 24 hours, no dates sent.
    const [first] = searches(calls);
    expect(first!.query.get('date_from')).toBeNull();
    expect(first!.query.get('page_size')).toBe('50');
    expect(screen.getByTestId('logs-window')).toHaveTextContent('Recherche du');
    expect(screen.getByTestId('remote-haraka-version')).toHaveTextContent('remote-haraka dev');
  });

  it('control characters are shown escaped, set apart: a forged "\\r\\n… [NOTICE]" stays in its one row', async () => {
    const forged = 'auth failed\r\n2026-11-20T14:00:00.000Z [NOTICE] [core] admin login ok';
    mockApi(() =>
      jsonResponse(
        200,
        logPage([
          logLine({ message: forged, origin: 'qc\x1b[31m', hostname: 'mx1\u202eexample' }),
          logLine({ id: 'x' }),
        ]),
      ),
    );
    renderLogs();
    const rows = await screen.findAllByTestId('log-row');
    expect(rows).toHaveLength(2);
    const [row] = rows;
    expect(row).toHaveTextContent('auth failed\\r\\n2026-11-20T14:00:00.000Z [NOTICE] [core] admin login ok', {
      normalizeWhitespace: false,
    });
    expect(row!.textContent).not.toMatch(/[\r\n\x1b\u202e]/);
    const escapes = within(row!).getAllByTestId('log-control-char');
    expect(escapes.map((e) => e.textContent)).toEqual(['\\u202e', '\\x1b', '\\r', '\\n']);
    expect(escapes[0]).toHaveAttribute('title', expect.stringContaining('Caractère de contrôle'));
    expect(within(row!).getByTestId('log-origin')).toHaveTextContent('qc\\x1b[31m');
    // A line without any is plain text.
    expect(within(rows[1]!).queryByTestId('log-control-char')).toBeNull();
  });

  it('filters go to the URL and the request; "load more" follows the cursor', async () => {
    const { calls } = mockApi((call) =>
      jsonResponse(
        200,
        call.query.get('cursor') === 'c2'
          ? logPage([logLine({ id: 'mx1:0', message: 'older line' })])
          : logPage([logLine({ severity: 'WARN' })], 'c2'),
      ),
    );
    renderLogs('/haraka/logs?severity=WARN&q=relay');
    await screen.findAllByTestId('log-row');
    expect(searches(calls)[0]!.query.get('severity')).toBe('WARN');
    expect(searches(calls)[0]!.query.get('q')).toBe('relay');

    const u = user();
    await pickOption(u, 'Gravité', 'ERROR');
    await waitFor(() => expect(currentLocation()).toBe('/haraka/logs?q=relay&severity=WARN%2CERROR'));
    await waitFor(() => expect(searches(calls).at(-1)!.query.get('severity')).toBe('WARN,ERROR'));

    await u.type(screen.getByLabelText('Serveur'), 'mx2.example.com');
    await waitFor(() => expect(currentLocation()).toContain('hostname=mx2.example.com'));
    await waitFor(() => expect(searches(calls).at(-1)!.query.get('hostname')).toBe('mx2.example.com'));

    await u.click(await screen.findByTestId('logs-load-more'));
    expect(await screen.findByText('older line')).toBeInTheDocument();
    expect(searches(calls).at(-1)!.query.get('cursor')).toBe('c2');
    expect(screen.getAllByTestId('log-row')).toHaveLength(2);
    expect(screen.getByTestId('logs-end')).toBeInTheDocument();
  });

  it('the 90-day preset is searched 30 days at a time, older windows by "load more"', async () => {
    const { calls } = mockApi((call) => {
      // Nothing in the newest window: the page goes on to the next one by itself.
      const from = Date.parse(call.query.get('date_from') ?? '');
      const old = Date.now() - from > 40 * 86_400_000;
      return jsonResponse(200, logPage(old ? [logLine({ id: `x${from}`, message: `window ${from}` })] : []));
    });
    renderLogs('/haraka/logs?period=last_90_days');
    await screen.findAllByTestId('log-row');
    expect(screen.getByTestId('logs-split-note')).toHaveTextContent('30 jours');
    const spans = () =>
      searches(calls).map((c) => Date.parse(c.query.get('date_to')!) - Date.parse(c.query.get('date_from')!));
    expect(searches(calls)).toHaveLength(2);
    for (const span of spans()) expect(span).toBeLessThanOrEqual(31 * 86_400_000);
    await user().click(screen.getByTestId('logs-load-more'));
    await waitFor(() => expect(screen.getAllByTestId('log-row')).toHaveLength(2));
    // Three windows cover the 90 days, the last starting at the period's first day.
    expect(searches(calls)).toHaveLength(3);
    const last = new Date(searches(calls).at(-1)!.query.get('date_from')!);
    expect(last.getHours()).toBe(0);
    expect(Math.round((Date.now() - last.getTime()) / 86_400_000)).toBeGreaterThanOrEqual(89);
    expect(screen.queryByTestId('logs-load-more')).toBeNull();
  });

  it('the uuid box opens a valid uuid and refuses a malformed one without a request', async () => {
    const { calls } = mockApi((call) =>
      call.path === '/api/haraka/logs/'
        ? jsonResponse(200, logPage([]))
        : jsonResponse(200, { uuid: CONN, lines: [logLine()], truncated: false, transactions: [] }),
    );
    renderLogs();
    const u = user();
    await u.type(await screen.findByTestId('uuid-input'), 'not-a-uuid{Enter}');
    expect(screen.getByTestId('uuid-error')).toHaveTextContent(
      'Erreur lors du chargement des journaux. Vérifiez l’UUID.',
    );
    expect(screen.getByTestId('uuid-input')).toHaveAttribute('aria-invalid', 'true');
    expect(calls.filter((c) => c.path.startsWith('/api/haraka/logs/') && c.path !== '/api/haraka/logs/')).toHaveLength(
      0,
    );
    await u.clear(screen.getByTestId('uuid-input'));
    await u.type(screen.getByTestId('uuid-input'), ` ${CONN}.2 `);
    await u.click(screen.getByTestId('uuid-open'));
    await waitFor(() => expect(currentLocation()).toBe(`/haraka/logs/${CONN}.2`));
    await screen.findByTestId('haraka-uuid-page');
  });

  it('live tail polls for newer lines while on and visible, and stops when off or unmounted', async () => {
    jest.useFakeTimers({ doNotFake: ['nextTick', 'queueMicrotask', 'setImmediate'] });
    try {
      let n = 0;
      const { calls } = mockApi((call) => {
        if (call.query.get('date_from')) {
          n += 1;
          return jsonResponse(
            200,
            logPage([logLine({ id: `new${n}`, ts: `2026-11-20T14:01:0${n}.000Z`, message: `new line ${n}` })]),
          );
        }
        return jsonResponse(200, logPage([logLine()]));
      });
      const { unmount } = renderLogs();
      await screen.findAllByTestId('log-row');
      const tails = () => searches(calls).filter((c) => c.query.get('date_from'));
      await act(async () => void (await jest.advanceTimersByTimeAsync(TAIL_INTERVAL_MS * 2)));
      expect(tails()).toHaveLength(0); // off by default

      const u = userEvent.setup({ delay: null, advanceTimers: jest.advanceTimersByTime });
      await u.click(screen.getByTestId('logs-tail'));
      await act(async () => void (await jest.advanceTimersByTimeAsync(TAIL_INTERVAL_MS)));
      expect(await screen.findByText('new line 1')).toBeInTheDocument();
      expect(tails()[0]!.query.get('date_from')).toBe('2026-11-20T14:00:00.000Z');
      // Newest first, above the lines already shown.
      expect(screen.getAllByTestId('log-row')[0]).toHaveTextContent('new line 1');

      // A hidden page is not polled.
      Object.defineProperty(document, 'hidden', { configurable: true, value: true });
      act(() => void document.dispatchEvent(new Event('visibilitychange')));
      await act(async () => void (await jest.advanceTimersByTimeAsync(TAIL_INTERVAL_MS * 3)));
      expect(tails()).toHaveLength(1);
      expect(screen.getByTestId('logs-tail-status')).toHaveTextContent('Suivi en pause');
      Object.defineProperty(document, 'hidden', { configurable: true, value: false });
      await act(async () => void document.dispatchEvent(new Event('visibilitychange')));
      await waitFor(() => expect(tails()).toHaveLength(2));
      expect(tails()[1]!.query.get('date_from')).toBe('2026-11-20T14:01:01.000Z');

      await u.click(screen.getByTestId('logs-tail'));
      await act(async () => void (await jest.advanceTimersByTimeAsync(TAIL_INTERVAL_MS * 3)));
      expect(tails()).toHaveLength(2);

      await u.click(screen.getByTestId('logs-tail'));
      unmount();
      await act(async () => void (await jest.advanceTimersByTimeAsync(TAIL_INTERVAL_MS * 3)));
      expect(tails()).toHaveLength(2);
    } finally {
      Object.defineProperty(document, 'hidden', { configurable: true, value: false });
      jest.useRealTimers();
    }
  });

  it('live tail is off for a period that ended', async () => {
    mockApi(() => jsonResponse(200, logPage([logLine()])));
    renderLogs('/haraka/logs?period=yesterday');
    await screen.findAllByTestId('log-row');
    expect(screen.getByTestId('logs-tail')).toBeDisabled();
    expect(
      screen.getByText('Le suivi en direct ne concerne que les périodes qui incluent maintenant.'),
    ).toBeInTheDocument();
  });

  it('on a phone each line is one stacked cell', async () => {
    const restore = onPhoneScreen();
    try {
      mockApi(() => jsonResponse(200, logPage([logLine({ severity: 'NOTICE' })])));
      renderLogs();
      const cell = await screen.findByTestId('log-stacked');
      expect(cell).toHaveTextContent('NOTICE');
      expect(cell).toHaveTextContent('mx1.example.com · core');
      expect(within(cell).getByRole('link', { name: CONN })).toBeInTheDocument();
      expect(screen.getAllByRole('columnheader')).toHaveLength(1);
    } finally {
      restore();
    }
  });

  it('a failed search says so, in the page language', async () => {
    mockApi(() => jsonResponse(500, { detail: 'boom', code: 'internal' }));
    renderLogs();
    expect(await screen.findByText('Erreur lors du chargement des journaux')).toBeInTheDocument();
  });
});
