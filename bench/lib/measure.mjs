// Latency figures of the benchmarks: percentiles by nearest rank over the sorted times.

/** The value at quantile p (0 to 1) of the ascending `sorted`; undefined when it is empty. */
export function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
}

/** Milliseconds to two decimals. */
export const round2 = (ms) => Math.round(ms * 100) / 100;

/**
 * Calls fn(0)…fn(warmUp - 1) untimed (JIT, caches), then times fn(0), fn(1)…: at least `min`
 * calls, then more while `budgetMs` lasts, `max` at most. Returns { p50, p95, n }, through `round`.
 */
export async function measure(fn, { warmUp, min, max = min, budgetMs = 0, round = round2 }) {
  for (let w = 0; w < warmUp; w++) await fn(w);
  const times = [];
  const t0 = performance.now();
  while (times.length < max && (times.length < min || performance.now() - t0 < budgetMs)) {
    const s = performance.now();
    await fn(times.length);
    times.push(performance.now() - s);
  }
  times.sort((a, b) => a - b);
  return { p50: round(percentile(times, 0.5)), p95: round(percentile(times, 0.95)), n: times.length };
}
