import { useEffect, useMemo, useRef, useState } from 'react';
import { toIsoWithOffset } from '@qc/ui';
import type { LogSearch } from './logs.filters';
import { searchLogs } from './logs.queries';
import type { HarakaLogLine } from './logs.types';

/** How often the live tail asks for newer lines. */
export const TAIL_INTERVAL_MS = 5000;

/**
 * Live tail: while `enabled`, every TAIL_INTERVAL_MS, the lines of the same filters newer than
 * `since` (the newest shown, else when the tail started), newest first, without those already had.
 * Stops when disabled or unmounted; skips its turns while the page is hidden (no polling in a
 * background tab) and asks again as soon as it is shown.
 */
export function useLiveTail(enabled: boolean, search: LogSearch, since: string | null) {
  const key = JSON.stringify(search);
  // The lines brought for one set of filters: other filters, or the tail turned off and on, start afresh.
  const [got, setGot] = useState<{ key: string; lines: HarakaLogLine[] }>({ key: '', lines: [] });
  const lines = useMemo(() => (enabled && got.key === key ? got.lines : []), [enabled, got, key]);
  const [hidden, setHidden] = useState(() => typeof document !== 'undefined' && document.hidden);
  const state = useRef({ since, busy: false });
  useEffect(() => {
    state.current.since = lines[0]?.ts ?? since;
  }, [lines, since]);

  useEffect(() => {
    if (!enabled) return;
    const started = new Date();
    const controller = new AbortController();
    const poll = async () => {
      if (document.hidden || state.current.busy) return;
      state.current.busy = true;
      try {
        const from = state.current.since ?? toIsoWithOffset(started);
        const page = await searchLogs({ ...search, date_from: from }, controller.signal);
        setGot((had) => {
          const before = had.key === key ? had.lines : [];
          const known = new Set(before.map((l) => l.id));
          const fresh = page.results.filter((l) => !known.has(l.id));
          return { key, lines: fresh.length ? [...fresh, ...before] : before };
        });
      } catch {
        // A failed turn is retried at the next one; the list above says nothing new meanwhile.
      } finally {
        state.current.busy = false;
      }
    };
    const timer = setInterval(() => void poll(), TAIL_INTERVAL_MS);
    const onVisibility = () => {
      setHidden(document.hidden);
      if (!document.hidden) void poll();
    };
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      clearInterval(timer);
      controller.abort();
      document.removeEventListener('visibilitychange', onVisibility);
    };
    // `search` is compared by value (key).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [enabled, key]);

  /** Forget the lines brought (the tail turned off: turned on again, it starts from the list). */
  const clear = () => setGot({ key: '', lines: [] });
  return { lines, paused: enabled && hidden, clear };
}
