/** Helpers for this remote's component tests (not bundled: only *.test.tsx import it). */
import { initI18n } from '@qc/i18n';
import { useNotices } from '@qc/ui-state';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router-dom';
import ExposedQuarantine from './exposed/Quarantine';
import type { QuarantineDetail, QuarantineItem } from './features/quarantine/quarantine.types';

// antd's Table (scroll) and Tabs measure with ResizeObserver, which jsdom lacks.
if (typeof globalThis.ResizeObserver === 'undefined') {
  globalThis.ResizeObserver = class {
    observe() {}
    unobserve() {}
    disconnect() {}
  } as unknown as typeof ResizeObserver;
}

export function jsonResponse(status: number, body?: unknown): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}

export interface ApiCall {
  method: string;
  /** e.g. '/api/quarantine/' */
  path: string;
  /** Parsed query string. */
  query: URLSearchParams;
  /** Parsed JSON body, if any ('' for an empty body). */
  body: unknown;
  authorization: string | null;
  url: string;
}

/** Replaces fetch with a handler answering real Response objects; records every call. */
export function mockApi(handler: (call: ApiCall) => Response | Promise<Response>) {
  const calls: ApiCall[] = [];
  const spy = jest.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const req = input instanceof Request ? input : new Request(new URL(String(input), 'http://localhost/'), init);
    const url = new URL(req.url);
    const text = req.body ? await req.clone().text() : '';
    const call: ApiCall = {
      method: req.method,
      path: url.pathname,
      query: url.searchParams,
      body: text ? (JSON.parse(text) as unknown) : '',
      authorization: req.headers.get('Authorization'),
      url: req.url,
    };
    calls.push(call);
    return handler(call);
  });
  return { calls, spy };
}

/** Shows the router's location, so tests can read where the page navigated. */
function LocationProbe() {
  const location = useLocation();
  return (
    <output data-testid="location" hidden>
      {location.pathname + location.search}
    </output>
  );
}

/**
 * The Quarantine page group as the host mounts it: route `mail/*`, a fresh QueryClient (no
 * retries), the i18n instance (French unless a test changes it).
 */
export function renderQuarantine(path = '/mail', extra?: ReactElement) {
  initI18n();
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  const router = createMemoryRouter(
    [
      {
        path: 'mail/*',
        element: (
          <>
            <LocationProbe />
            <ExposedQuarantine />
            {extra}
          </>
        ),
      },
    ],
    { initialEntries: [path] },
  );
  const result = render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { ...result, router, queryClient };
}

/**
 * A phone's screen for antd's breakpoints (`xs`: max-width 575 px) until the returned function is
 * called; jsdom's matchMedia (test/setup-web.ts) matches nothing, i.e. a wide screen.
 */
export function onPhoneScreen(): () => void {
  const wide = window.matchMedia;
  window.matchMedia = (query: string) => ({ ...wide(query), matches: /max-width:\s*575px/.test(query) });
  return () => {
    window.matchMedia = wide;
  };
}

export const currentLocation = () => screen.getByTestId('location').textContent ?? '';

/** Titles of the notices raised through notify(). */
export const noticeTitles = () => useNotices.getState().notices.map((n) => `${n.type}: ${n.title}`);
export const noticeOf = (title: string) => useNotices.getState().notices.find((n) => n.title === title);

/** Picks an option of the antd Select labelled `label`. */
export async function pickOption(user: UserEvent, label: string, option: string) {
  await user.click(screen.getByLabelText(label));
  const listbox = document.querySelector<HTMLElement>('.ant-select-dropdown:not(.ant-select-dropdown-hidden)');
  const items = listbox
    ? within(listbox).getAllByTitle(option)
    : (await screen.findAllByTitle(option)).filter((el) => el.classList.contains('ant-select-item-option'));
  await user.click(items.find((el) => el.classList.contains('ant-select-item-option')) ?? items[0]!);
}

export function listItem(overrides: Partial<QuarantineItem> = {}): QuarantineItem {
  return {
    id: 'm1',
    received_at: '2026-11-20T09:30:00+01:00',
    sender: 'promo@spam.example',
    recipients: ['jane@example.com'],
    recipient_count: overrides.recipients?.length ?? 1,
    subject: 'You won a prize',
    score: 12.5,
    action: 'reject',
    status: 'pending',
    size: 12_800,
    raw_available: true,
    ...overrides,
  };
}

/** A detail as GET /api/quarantine/{id}/ answers it (typed from @qc/contracts). */
export function emailDetail(overrides: Partial<QuarantineDetail> = {}): QuarantineDetail {
  return {
    id: 'm1',
    uuid: 'B1C2D3E4-0001',
    received_at: '2026-11-20T09:30:00+01:00',
    date: '2026-11-20T09:29:00+01:00',
    sender: 'promo@spam.example',
    envelope_from: 'bounce@spam.example',
    recipients: [
      { address: 'jane@example.com', status: 'pending', updated_at: '2026-11-20T09:30:00+01:00' },
      { address: 'bob@example.com', status: 'released', updated_at: '2026-11-20T10:00:00+01:00' },
    ],
    recipient_count: 2,
    recipients_truncated: false,
    status: 'pending',
    subject: 'You won a prize',
    score: 12.5,
    required_score: 15,
    action: 'quarantine',
    dkim: 'fail',
    spf: 'softfail',
    size: 12_800,
    message_id: '<abc.123@spam.example>',
    ip_address: '203.0.113.7',
    helo: 'mx.spam.example',
    country: 'FR',
    sender_domain: 'spam.example',
    mime_domain: 'spam.example',
    mime_user: 'promo',
    attachments: [{ name: 'invoice\u202Efdp.exe', type: 'application/octet-stream', size: 2048 }],
    urls: ['https://evil.example.com/login.php'],
    symbols: [
      {
        symbol: 'BAYES_SPAM',
        score: 5.1,
        description: 'Message probably spam',
        options: ['99.9%'],
        group: 'statistics',
        groups: ['statistics'],
      },
      {
        symbol: 'DKIM_REJECT',
        score: 1,
        description: 'DKIM verification failed',
        options: [],
        group: 'dkim',
        groups: ['dkim', 'policies'],
      },
      {
        symbol: 'MID_RHS_MATCH_FROM',
        score: -0.5,
        description: null,
        options: ['spam.example'],
        group: 'headers',
        groups: ['headers'],
      },
      {
        symbol: 'URIBL_BLACK',
        score: 7.5,
        description: 'Listed in URIBL black',
        options: ['evil.example.com'],
        group: 'rbl',
        groups: ['rbl'],
      },
    ],
    headers: [
      { name: 'From', value: 'promo@spam.example' },
      { name: 'Subject', value: 'You won a prize' },
    ],
    text_body: 'Hello,\nyou won!',
    html_body:
      '<p>Hello <b>winner</b></p><script>alert(1)</script><img src="https://cdn.example/logo.png" alt="Logo" onerror="alert(2)">' +
      '<a href="https://evil.example.com/claim">https://bank.example/claim</a>',
    body_truncated: false,
    raw_available: true,
    purged_at: null,
    delivery: null,
    ...overrides,
  };
}

/** Any exposed page group mounted as the host does (`<route>/*`), with a fresh QueryClient. */
export function renderExposed(route: string, element: ReactElement, path = `/${route}`) {
  initI18n();
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  const router = createMemoryRouter(
    [
      {
        path: `${route}/*`,
        element: (
          <>
            <LocationProbe />
            {element}
          </>
        ),
      },
    ],
    { initialEntries: [path] },
  );
  const result = render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { ...result, router, queryClient };
}

/**
 * Freezes the clock (Date only) at `now`; timers stay real, so the UI's own waits still run.
 * Undo with jest.useRealTimers().
 */
export function freezeDate(now: Date) {
  jest.useFakeTimers({
    now,
    doNotFake: [
      'hrtime',
      'nextTick',
      'performance',
      'queueMicrotask',
      'requestAnimationFrame',
      'cancelAnimationFrame',
      'requestIdleCallback',
      'cancelIdleCallback',
      'setImmediate',
      'clearImmediate',
      'setInterval',
      'clearInterval',
      'setTimeout',
      'clearTimeout',
    ],
  });
}

/**
 * The day after Paris moved to summer time (the web tests' zone): "yesterday" lasted 23 hours and
 * the last 7 days begin at +01:00 and end at +02:00.
 */
export const DAY_AFTER_DST = new Date('2026-03-30T15:42:00+02:00');
