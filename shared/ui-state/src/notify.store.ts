import { create } from 'zustand';

/**
 * The one notice bus (DESIGN §3). Anyone (host, remotes) calls notify(); only the host renders.
 * Notices are plain data (no React nodes: a remote's element would render with the wrong antd copy).
 * Spec §8: bottom-left, at most 3 at once, hidden after 5 s, no duplicates, close button.
 */
export type NoticeType = 'info' | 'success' | 'warning' | 'error';

export interface Notice {
  type?: NoticeType;
  title: string;
  description?: string;
  /** How long it stays, in ms (default NOTIFICATION_CONFIG.durationMs; spec §4: feedback notices 4 s). */
  durationMs?: number;
}

export interface ActiveNotice {
  key: string;
  type: NoticeType;
  title: string;
  description?: string;
  createdAt: number;
}

export const NOTIFICATION_CONFIG = { placement: 'bottomLeft', maxCount: 3, durationMs: 5000 } as const;

export interface NoticeState {
  notices: ActiveNotice[];
  notify: (n: Notice) => string | null;
  dismiss: (key: string) => void;
  clear: () => void;
}

/**
 * Same type, title and description = same notice: shown once within its lifetime. The description
 * counts: two failed deletions share a title, and a second one for another reason is news.
 */
export function noticeKey(n: Notice): string {
  return JSON.stringify([n.type ?? 'info', n.title, n.description ?? '']);
}

const timers = new Map<string, ReturnType<typeof setTimeout>>();

let defaultDurationMs: number = NOTIFICATION_CONFIG.durationMs;
/**
 * Component tests only (test/setup-web.ts): how long a notice without its own duration stays. A test
 * on a loaded machine may look for a notice more than 5 s after it was raised (seen in CI).
 */
export function setDefaultNoticeDurationForTests(ms: number): void {
  defaultDurationMs = ms;
}

export const useNotices = create<NoticeState>()((set, get) => ({
  notices: [],
  notify: (n) => {
    const key = noticeKey(n);
    const duration = n.durationMs && n.durationMs > 0 ? n.durationMs : defaultDurationMs;
    const hide = () =>
      timers.set(
        key,
        setTimeout(() => get().dismiss(key), duration),
      );
    const shown = get().notices.find((x) => x.key === key);
    if (shown) {
      // Not shown twice, but it is news again: its time starts over (a second failure 4 s after the
      // first would otherwise be on screen for 1 s), and it is the last to be pushed out.
      clearTimeout(timers.get(key));
      hide();
      set({ notices: [...get().notices.filter((x) => x !== shown), shown] });
      return null;
    }
    const notice: ActiveNotice = {
      key,
      type: n.type ?? 'info',
      title: n.title,
      ...(n.description ? { description: n.description } : {}),
      createdAt: Date.now(),
    };
    let next = [...get().notices, notice];
    while (next.length > NOTIFICATION_CONFIG.maxCount) {
      const evicted = next[0]!;
      clearTimeout(timers.get(evicted.key));
      timers.delete(evicted.key);
      next = next.slice(1);
    }
    set({ notices: next });
    hide();
    return key;
  },
  dismiss: (key) => {
    clearTimeout(timers.get(key));
    timers.delete(key);
    if (get().notices.some((x) => x.key === key)) set({ notices: get().notices.filter((x) => x.key !== key) });
  },
  clear: () => {
    timers.forEach((t) => clearTimeout(t));
    timers.clear();
    set({ notices: [] });
  },
}));

/** Raise a notice from anywhere (host or remote). Returns its key, or null for a duplicate. */
export function notify(n: Notice): string | null {
  return useNotices.getState().notify(n);
}
