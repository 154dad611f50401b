import { stack, type DirectoryInfo } from './stack';

/** The run's directory (lib/directory-harness.ts), or the reason it did not start. */
export function directoryInfo(): DirectoryInfo {
  const s = stack();
  if (!s.directory) throw new Error(`the e2e directory did not start: ${s.directoryError ?? 'unknown reason'}`);
  return s.directory;
}

async function control(method: string, path: string, body?: unknown): Promise<void> {
  const res = await fetch(`${directoryInfo().controlUrl}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${path} (e2e directory control) answered ${res.status}: ${await res.text()}`);
}

/** The directory stops answering (its port refuses connections), or comes back. */
export const directoryDown = () => control('POST', '/directory/down');
export const directoryUp = () => control('POST', '/directory/up');

/** Replaces a group's members (uids of the run's subtree). */
export const setGroupMembers = (cn: string, uids: string[]) => control('PUT', '/directory/group', { cn, uids });
