import { api } from '@qc/api-client';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { windowOf, type LogSearch, type SearchRange } from './logs.filters';
import type { HarakaLogPage, HarakaUuidLogs } from './logs.types';

export const logsKeys = {
  all: ['haraka-logs'] as const,
  search: (search: LogSearch, range: SearchRange | null) => ['haraka-logs', 'search', search, range] as const,
  uuid: (uuid: string) => ['haraka-logs', 'uuid', uuid] as const,
};

type Params = Record<string, string | number>;
const signalOf = (signal?: AbortSignal) => (signal ? { signal } : {});

/** GET /api/haraka/logs/: one keyset page, newest first. */
export function searchLogs(params: Params, signal?: AbortSignal): Promise<HarakaLogPage> {
  return api.get('haraka/logs/', { searchParams: params, ...signalOf(signal) }).json<HarakaLogPage>();
}

/** Where the next chunk starts: a cursor within a window, or (cursor null) the next older window. */
export interface ChunkParam {
  cursor: string | null;
  /** End of the window (epoch ms); unused without a range. */
  to: number;
}

export interface LogChunk {
  page: HarakaLogPage;
  next: ChunkParam | null;
}

/**
 * One "load more": a keyset page of the current window, or, once a window is exhausted, of the next
 * older one (a long period is searched WINDOW_DAYS at a time). Empty windows are skipped here, so a
 * click never brings nothing while older lines exist.
 */
export async function fetchChunk(
  search: LogSearch,
  range: SearchRange | null,
  param: ChunkParam,
  signal?: AbortSignal,
): Promise<LogChunk> {
  let { cursor, to } = param;
  for (;;) {
    const win = range ? windowOf(range, to) : null;
    const page = await searchLogs(
      {
        ...search,
        ...(win ? { date_from: win.date_from, date_to: win.date_to } : {}),
        ...(cursor ? { cursor } : {}),
      },
      signal,
    );
    const next: ChunkParam | null = page.next_cursor
      ? { cursor: page.next_cursor, to }
      : win && range && win.from > range.from
        ? { cursor: null, to: win.from - 1 }
        : null;
    if (page.results.length || !next || next.cursor) return { page, next };
    ({ cursor, to } = next);
  }
}

export function useLogSearch(search: LogSearch, range: SearchRange | null) {
  return useInfiniteQuery({
    queryKey: logsKeys.search(search, range),
    queryFn: ({ pageParam, signal }) => fetchChunk(search, range, pageParam, signal),
    initialPageParam: { cursor: null, to: range?.to ?? 0 } as ChunkParam,
    getNextPageParam: (last) => last.next ?? undefined,
  });
}

/** GET /api/haraka/logs/{uuid}/: every line of a connection or transaction, oldest first. */
export function getUuidLogs(uuid: string, signal?: AbortSignal): Promise<HarakaUuidLogs> {
  return api.get(`haraka/logs/${encodeURIComponent(uuid)}/`, signalOf(signal)).json<HarakaUuidLogs>();
}

export function useUuidLogs(uuid: string, enabled: boolean) {
  return useQuery({
    queryKey: logsKeys.uuid(uuid),
    queryFn: ({ signal }) => getUuidLogs(uuid, signal),
    enabled,
  });
}
