import { useEffect, useState } from 'react';

/**
 * "Now" for the date presets ("today", "the last 7 days"), renewed when the local day changes: a
 * page left open past midnight moves its bounds (and so re-queries) instead of keeping the day it
 * was opened on. Stable within a day, so the query key does not change at every render.
 */
export function useToday(): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const nextDay = new Date(now);
    nextDay.setHours(24, 0, 0, 0);
    const renew = () => {
      if (Date.now() >= nextDay.getTime()) setNow(new Date());
    };
    const timer = setTimeout(renew, nextDay.getTime() - Date.now());
    // A laptop asleep at midnight: its timers do not count the sleep, so the day is checked again
    // when the page is looked at.
    document.addEventListener('visibilitychange', renew);
    window.addEventListener('focus', renew);
    return () => {
      clearTimeout(timer);
      document.removeEventListener('visibilitychange', renew);
      window.removeEventListener('focus', renew);
    };
  }, [now]);
  return now;
}
