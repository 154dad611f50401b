/**
 * Component-test helpers for every app (`@qc/ui/testing`; never bundled: only *.test.tsx and the
 * apps' test-utils import it). The api is faked at the fetch level: the real ky client, its auth
 * hooks and react-query run, only the network answer is made up.
 */
import { initI18n } from '@qc/i18n';
import { useNotices } from '@qc/ui-state';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router-dom';

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
export function LocationProbe() {
  const location = useLocation();
  return (
    <output data-testid="location" hidden>
      {location.pathname + location.search}
    </output>
  );
}

export const currentLocation = () => screen.getByTestId('location').textContent ?? '';

/**
 * An exposed page group mounted as the host mounts it (`<route>/*`), with a fresh QueryClient (no
 * retries) and the i18n instance (French unless a test changes it).
 */
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

/** Titles of the notices raised through notify(). */
export const noticeTitles = () => useNotices.getState().notices.map((n) => `${n.type}: ${n.title}`);
export const noticeOf = (title: string) => useNotices.getState().notices.find((n) => n.title === title);

/** What signInWith needs of @qc/auth, which the caller passes (`import * as auth`): @qc/ui does not depend on it. */
export interface AuthForTests<U> {
  resetSessionForTests(): void;
  useSession: { setState(state: { isAuthenticated: boolean; isLoading: boolean; user: U }): void };
}

/** Signs the test in as `user`: a fresh session store, and no notice left by an earlier test. */
export function signInWith<U>(auth: AuthForTests<U>, user: NoInfer<U>) {
  auth.resetSessionForTests();
  useNotices.getState().clear();
  auth.useSession.setState({ isAuthenticated: true, isLoading: false, user });
}

/** The admin of the remotes' page tests (a new object per call: the session store keeps it). */
export const adminAccount = () => ({
  id: 'a1',
  username: 'admin',
  email: 'admin@example.com',
  first_name: '',
  last_name: '',
  role: 'admin' as const,
  domain: null,
  is_external: false,
  source: 'local' as const,
  addresses: ['admin@example.com'],
  mfa_enabled: false,
  date_joined: '2026-01-01T00:00:00Z',
  pending_email: null,
});

/** Picks an option of the antd Select labelled `label`. */
export async function pickOption(user: UserEvent, label: string, option: string) {
  await user.click(screen.getByLabelText(label));
  const listbox = document.querySelector<HTMLElement>('.ant-select-dropdown:not(.ant-select-dropdown-hidden)');
  const items = listbox
    ? within(listbox).getAllByTitle(option)
    : (await screen.findAllByTitle(option)).filter((el) => el.classList.contains('ant-select-item-option'));
  await user.click(items.find((el) => el.classList.contains('ant-select-item-option')) ?? items[0]!);
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
