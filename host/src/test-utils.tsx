/** Helpers for the host's component tests (not bundled: only *.test.tsx import it). */
import { useSession } from '@qc/auth';
import type { CurrentUser } from '@qc/contracts';
import { ThemeRoot } from '@qc/ui';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { registerHostNamespace } from './i18n';
import { registerShellStrings } from './i18n/shell';

// antd's TextArea, Upload list and FloatButton observe sizes; jsdom has no ResizeObserver.
if (typeof globalThis.ResizeObserver === 'undefined') {
  globalThis.ResizeObserver = class {
    observe() {}
    unobserve() {}
    disconnect() {}
  };
}

/**
 * A File the environment's fetch can send: jsdom's own File is not a Blob for Node's FormData
 * (browsers have one File class; the test environment has two).
 */
export function sendableFile(parts: BlobPart[], name: string, options: { type: string; size?: number }): File {
  const { File: NodeFile } = jest.requireActual<typeof import('node:buffer')>('node:buffer');
  const file = new NodeFile(parts as never, name, { type: options.type }) as unknown as File;
  if (options.size !== undefined) Object.defineProperty(file, 'size', { value: options.size });
  return file;
}

export function renderWithTheme(ui: ReactElement) {
  registerHostNamespace();
  registerShellStrings();
  return render(<ThemeRoot>{ui}</ThemeRoot>);
}

export function jsonResponse(status: number, body?: unknown, headers: Record<string, string> = {}): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json', ...headers },
  });
}

export function makeJwt(expInSeconds: number): string {
  const enc = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
  return `${enc({ alg: 'HS256' })}.${enc({ exp: Math.floor(Date.now() / 1000) + expInSeconds })}.s`;
}

export const USER: CurrentUser = {
  id: 'u1',
  username: 'jane.doe',
  email: 'jane@example.com',
  first_name: 'Jane',
  last_name: 'Doe',
  role: 'user' as const,
  domain: null,
  is_external: false,
  source: 'local',
  addresses: ['jane@example.com'],
  mfa_enabled: false,
  date_joined: '2026-01-01T00:00:00Z',
  pending_email: null,
};

/** A signed-in session: a valid access token in storage and the user in the session store. */
export function signIn(user: CurrentUser = USER) {
  localStorage.setItem('accessToken', makeJwt(300));
  localStorage.setItem('refreshToken', 'refresh-1');
  useSession.setState({ user, isAuthenticated: true, isLoading: false, requires2FA: false, partialToken: null });
}

/**
 * A protected page as the shell renders it: theme, a fresh QueryClient (no retries), a router at
 * `path`. The protected pages' texts are registered.
 */
export function renderPage(ui: ReactElement, { path = '/' }: { path?: string } = {}) {
  registerHostNamespace();
  registerShellStrings();
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  const router = createMemoryRouter([{ path: '*', element: ui }], { initialEntries: [path] });
  const result = render(
    <ThemeRoot>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </ThemeRoot>,
  );
  return { ...result, queryClient, router };
}

export interface ApiCall {
  method: string;
  /** e.g. '/api/users/me/' */
  path: string;
  search: string;
  /** Parsed JSON body, if any. */
  body: unknown;
  /** The multipart body, if any. */
  form: FormData | null;
  authorization: string | null;
}

/** Replaces fetch with a handler answering real Response objects; records every call. */
export function mockApi(handler: (call: ApiCall) => Response | Promise<Response>) {
  const calls: ApiCall[] = [];
  const spy = jest.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const req = input instanceof Request ? input : new Request(new URL(String(input), 'http://localhost/'), init);
    const url = new URL(req.url);
    const type = req.headers.get('content-type') ?? '';
    let body: unknown;
    let form: FormData | null = null;
    if (req.body && type.startsWith('multipart/form-data')) form = await req.clone().formData();
    else if (req.body) {
      const text = await req.clone().text();
      body = text ? (JSON.parse(text) as unknown) : undefined;
    }
    const call: ApiCall = {
      method: req.method,
      path: url.pathname,
      search: url.search,
      body,
      form,
      authorization: req.headers.get('Authorization'),
    };
    calls.push(call);
    return handler(call);
  });
  return { calls, spy };
}

/** `METHOD /path` of each call, for compact assertions. */
export const routesOf = (calls: readonly ApiCall[]) => calls.map((c) => `${c.method} ${c.path}`);
