import { signInApi } from './seed';
import { stack, type SeedUser } from './stack';

/**
 * The api as `user`, from the test process (to set up or check what the browser did). Access
 * tokens live a few seconds in this run: it signs in again when one is refused with a 401.
 */
export interface ApiAs {
  /** The parsed JSON body; throws unless the status is `expect` (default 200). */
  get<T>(path: string, expect?: number): Promise<T>;
  post<T>(path: string, body?: unknown, expect?: number): Promise<T>;
  /** DELETE; throws unless the status is `expect` (default 204). */
  del(path: string, expect?: number): Promise<void>;
}

export function apiAs(user: Pick<SeedUser, 'email' | 'password'>): ApiAs {
  const { baseURL } = stack();
  let access: string | undefined;
  const send = async (method: string, path: string, body?: unknown): Promise<Response> => {
    for (let attempt = 0; ; attempt++) {
      access ??= await signInApi(baseURL, user.email, user.password);
      const res = await fetch(`${baseURL}${path}`, {
        method,
        headers: {
          Authorization: `Bearer ${access}`,
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (res.status !== 401 || attempt > 0) return res;
      access = undefined;
    }
  };
  const check = async (res: Response, method: string, path: string, status: number) => {
    if (res.status !== status) {
      throw new Error(`${method} ${path} as ${user.email} answered ${res.status} (not ${status}): ${await res.text()}`);
    }
    return res;
  };
  return {
    async get<T>(path: string, expect = 200) {
      return (await (await check(await send('GET', path), 'GET', path, expect)).json()) as T;
    },
    async post<T>(path: string, body: unknown = {}, expect = 200) {
      return (await (await check(await send('POST', path, body), 'POST', path, expect)).json()) as T;
    },
    async del(path: string, expect = 204) {
      await check(await send('DELETE', path), 'DELETE', path, expect);
    },
  };
}
