/** Test helpers: JWTs with a chosen expiry and a scripted fetch. Used only by *.test.ts files. */
export function makeJwt(expInSeconds: number, extra: Record<string, unknown> = {}): string {
  const enc = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const exp = Math.floor(Date.now() / 1000) + expInSeconds;
  return `${enc({ alg: 'HS256', typ: 'JWT' })}.${enc({ exp, typ: 'access', ...extra })}.signature`;
}

export function jsonResponse(status: number, body?: unknown): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}

export interface Call {
  url: string;
  method: string;
  body: unknown;
  authorization: string | null;
  /** The caller's abort signal, for handlers that stand for an api that never answers. */
  signal?: AbortSignal | null;
}

/** Replaces global fetch with a handler; records every call. */
export function mockFetch(handler: (call: Call) => Response | Promise<Response>) {
  const calls: Call[] = [];
  const spy = jest.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const req = input instanceof Request ? input : new Request(new URL(String(input), 'http://localhost/'), init);
    const text = req.body ? await req.clone().text() : '';
    const call: Call = {
      url: new URL(req.url).pathname,
      method: req.method,
      body: text ? (JSON.parse(text) as unknown) : undefined,
      authorization: req.headers.get('Authorization'),
      signal: init?.signal,
    };
    calls.push(call);
    return handler(call);
  });
  return { calls, spy };
}

export const USER = {
  id: 'u1',
  username: 'jane.doe',
  email: 'jane@example.com',
  first_name: 'Jane',
  last_name: 'Doe',
  role: 'user' as const,
  domain: null,
  is_external: false,
  source: 'local' as const,
  addresses: ['jane@example.com'],
  mfa_enabled: false,
  date_joined: '2026-01-01T00:00:00Z',
  pending_email: null,
};
