import { DEFAULT_PREFERENCES, useNotices, usePreferences } from '@qc/ui-state';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import ExposedHistory from '../../exposed/History';
import { jsonResponse, mockApi, renderExposed } from '../../test-utils';

const CSV = '\uFEFFdate,user\r\n2026-11-20T08:30:00.000Z,jane@example.com\r\n';

function captureDownloads() {
  const created: Blob[] = [];
  const urlApi = URL as unknown as { createObjectURL: (b: Blob) => string; revokeObjectURL: (u: string) => void };
  urlApi.createObjectURL = jest.fn((b: Blob) => {
    created.push(b);
    return 'blob:http://localhost/csv';
  });
  urlApi.revokeObjectURL = jest.fn();
  const clicked: HTMLAnchorElement[] = [];
  jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    clicked.push(this);
  });
  return { created, clicked };
}

beforeEach(() => {
  jest.restoreAllMocks();
  useNotices.getState().clear();
  usePreferences.setState({ preferences: { ...DEFAULT_PREFERENCES } });
  localStorage.setItem('accessToken', 'header.payload.sig');
});

describe('history export', () => {
  it('downloads the CSV of the current filters (no cursor, no page size) with the token in a header', async () => {
    const { calls } = mockApi((call) =>
      call.path === '/api/history/export/'
        ? new Response(CSV, {
            status: 200,
            headers: {
              'Content-Type': 'text/csv; charset=utf-8',
              'Content-Disposition': 'attachment; filename="history-2026-11-20.csv"',
            },
          })
        : jsonResponse(200, { results: [], next_cursor: 'abc' }),
    );
    const { created, clicked } = captureDownloads();
    renderExposed('history', <ExposedHistory />, '/history?action=release&user=ANE%40ex&cursor=abc');
    const button = await screen.findByRole('button', { name: /Exporter en CSV/ });
    await userEvent.setup({ delay: null }).click(button);
    await waitFor(() => expect(clicked).toHaveLength(1));
    const exported = calls.filter((c) => c.path === '/api/history/export/');
    expect(exported).toHaveLength(1);
    expect(Object.fromEntries(exported[0]!.query)).toEqual({ action: 'release', user: 'ANE@ex' });
    expect(exported[0]!.authorization).toBe('Bearer header.payload.sig');
    expect(exported[0]!.url).not.toContain('header.payload.sig');
    expect(clicked[0]!.download).toBe('history-2026-11-20.csv');
    expect(clicked[0]!.href).toBe('blob:http://localhost/csv');
    expect(created[0]!.type).toBe('text/csv;charset=utf-8');
    expect(await created[0]!.text()).toContain('jane@example.com');
  });

  it('says so when the export fails, and saves nothing', async () => {
    mockApi((call) =>
      call.path === '/api/history/export/'
        ? jsonResponse(429, { code: 'rate_limited', detail: 'Too many searches.' })
        : jsonResponse(200, { results: [], next_cursor: null }),
    );
    const { clicked } = captureDownloads();
    renderExposed('history', <ExposedHistory />, '/history');
    await userEvent.setup({ delay: null }).click(await screen.findByRole('button', { name: /Exporter en CSV/ }));
    await waitFor(() =>
      expect(useNotices.getState().notices.map((n) => n.title)).toEqual(['Échec de l’export de l’historique']),
    );
    expect(clicked).toHaveLength(0);
  });

  it('the user filter takes part of an address and sends it as typed', async () => {
    const { calls } = mockApi(() => jsonResponse(200, { results: [], next_cursor: null }));
    renderExposed('history', <ExposedHistory />, '/history');
    const field = await screen.findByLabelText('Utilisateur (e-mail)');
    expect(field).toHaveAttribute('placeholder', 'Tout ou partie de l’adresse');
    await userEvent.setup({ delay: null }).type(field, 'Jane{Enter}');
    await waitFor(() =>
      expect(Object.fromEntries(calls.filter((c) => c.path === '/api/history/').at(-1)!.query).user).toBe('Jane'),
    );
  });
});
