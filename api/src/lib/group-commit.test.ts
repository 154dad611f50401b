import { groupCommit, type Outcome } from './group-commit';

/** A flush that records its batches and waits until released. */
function recorder() {
  const batches: number[][] = [];
  const gates: (() => void)[] = [];
  const flush = async (items: number[]): Promise<Outcome<number>[]> => {
    batches.push(items);
    await new Promise<void>((release) => gates.push(release));
    return items.map((n) => (n < 0 ? { ok: false, error: new Error(`bad ${n}`) } : { ok: true, value: n * 10 }));
  };
  const releaseNext = async () => {
    while (!gates.length) await new Promise((r) => setImmediate(r));
    gates.shift()!();
  };
  return { batches, flush, releaseNext };
}

const limits = { maxItems: 3, maxWeight: 100, weight: (n: number) => Math.abs(n) };

test('a lone item is flushed at once; items arriving during a flush share the next one', async () => {
  const r = recorder();
  const submit = groupCommit(r.flush, limits);
  const first = submit(1);
  const rest = [submit(2), submit(3)];
  expect(r.batches).toEqual([[1]]);
  await r.releaseNext();
  await expect(first).resolves.toBe(10);
  await r.releaseNext();
  await expect(Promise.all(rest)).resolves.toEqual([20, 30]);
  expect(r.batches).toEqual([[1], [2, 3]]);
});

test('each item gets its own outcome: one failure does not fail the others', async () => {
  const r = recorder();
  const submit = groupCommit(r.flush, limits);
  const head = submit(1);
  const [ok, bad] = [submit(2), submit(-5)];
  await r.releaseNext();
  await head;
  await r.releaseNext();
  await expect(ok).resolves.toBe(20);
  await expect(bad).rejects.toThrow('bad -5');
});

test('a flush that throws rejects its whole batch, and the next batch still runs', async () => {
  let calls = 0;
  const submit = groupCommit(async (items: number[]) => {
    calls++;
    if (calls === 1) throw new Error('disk full');
    return items.map((n) => ({ ok: true as const, value: n }));
  }, limits);
  await expect(submit(1)).rejects.toThrow('disk full');
  await expect(submit(2)).resolves.toBe(2);
});

test('a batch whose flush throws is tried again item by item: only the item the database refuses fails', async () => {
  const batches: number[][] = [];
  const gate: { open?: () => void } = {};
  const submit = groupCommit(
    async (items: number[]) => {
      batches.push(items);
      if (items.length === 1 && items[0] === 1) await new Promise<void>((r) => (gate.open = r));
      // A statement that fails rolls the whole transaction back, as PostgreSQL does with a NUL.
      if (items.includes(-1)) throw Object.assign(new Error('invalid byte sequence'), { code: 'refused' });
      return items.map((n) => ({ ok: true as const, value: n }));
    },
    { ...limits, oneItemsFault: (e) => (e as { code?: string }).code === 'refused' },
  );
  const head = submit(1);
  const batch = [submit(2), submit(-1), submit(3)];
  while (!gate.open) await new Promise((r) => setImmediate(r));
  gate.open();
  await head;
  const settled = await Promise.allSettled(batch);
  expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
  expect(batches).toEqual([[1], [2, -1, 3], [2], [-1], [3]]);
});

test('a batch whose flush fails for another reason (the database down) fails at once, not once per item', async () => {
  let flushes = 0;
  let gate: (() => void) | undefined;
  const submit = groupCommit(
    async (items: number[]) => {
      flushes++;
      if (flushes === 1) await new Promise<void>((r) => (gate = r));
      if (flushes > 1) throw new Error('connection terminated');
      return items.map((n) => ({ ok: true as const, value: n }));
    },
    { ...limits, oneItemsFault: () => false },
  );
  const head = submit(1);
  const batch = [submit(2), submit(3), submit(4)];
  while (!gate) await new Promise((r) => setImmediate(r));
  gate();
  await head;
  const settled = await Promise.allSettled(batch);
  expect(settled.map((s) => s.status)).toEqual(['rejected', 'rejected', 'rejected']);
  expect(flushes).toBe(2);
});

test('batches respect maxItems and maxWeight (a heavier item alone still goes)', async () => {
  const r = recorder();
  const submit = groupCommit(r.flush, limits);
  const all = [submit(1), submit(2), submit(3), submit(4), submit(5), submit(90), submit(20), submit(500)];
  for (let i = 0; i < 5; i++) await r.releaseNext();
  await Promise.all(all);
  expect(r.batches).toEqual([[1], [2, 3, 4], [5, 90], [20], [500]]);
});

test('a flush waits for items announced as coming and takes them together', async () => {
  let coming = 2;
  const batches: number[][] = [];
  const flush = async (items: number[]) => {
    batches.push(items);
    return items.map((value) => ({ ok: true as const, value }));
  };
  const submit = groupCommit(flush, { ...limits, comingSoon: () => coming, gatherMs: 1000 });
  const first = submit(1);
  setImmediate(() => {
    coming--;
    void submit(2);
    setImmediate(() => {
      coming--;
      void submit(3);
    });
  });
  await first;
  expect(batches).toEqual([[1, 2, 3]]);
});

// Fake timers (setTimeout and performance.now): the waits below are measured in simulated
// milliseconds, exactly, whatever the machine's load.
describe('waiting for announced items (fake timers)', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  /** The submit's promise, and whether it has settled yet. */
  const track = <R>(promise: Promise<R>) => {
    const state = { settled: false, value: undefined as R | undefined };
    void promise.then((value) => Object.assign(state, { settled: true, value }));
    return state;
  };
  const echo = async (items: number[]) => items.map((value) => ({ ok: true as const, value }));

  test('announced but never arriving: the flush goes once gatherMs has passed, not before', async () => {
    const batches: number[][] = [];
    const flush = async (items: number[]) => {
      batches.push(items);
      return echo(items);
    };
    const late = track(groupCommit(flush, { ...limits, comingSoon: () => 1, gatherMs: 20 })(7));
    await jest.advanceTimersByTimeAsync(19);
    expect([late.settled, batches]).toEqual([false, []]);
    await jest.advanceTimersByTimeAsync(1);
    expect([late.settled, late.value, batches]).toEqual([true, 7, [[7]]]);
  });

  test('an announced item that will not come (recheck) ends the wait at once', async () => {
    let coming = 1;
    const submit = groupCommit(echo, { ...limits, comingSoon: () => coming, gatherMs: 1000 });
    const first = track(submit(1));
    await jest.advanceTimersByTimeAsync(10);
    expect(first.settled).toBe(false);
    coming = 0;
    submit.recheck();
    await jest.advanceTimersByTimeAsync(0); // no simulated time passes: only the pending callbacks run
    expect([first.settled, first.value]).toEqual([true, 1]);
  });

  test('while a flush waits for announced items the process idles (no busy wait)', async () => {
    // Counted in calls, not in CPU time: a loop polling comingSoon (setImmediate, setTimeout 0)
    // would ask it at every turn; a wait on one timer asks it when it starts and when it ends.
    const comingSoon = jest.fn(() => 1);
    const done = track(groupCommit(echo, { ...limits, comingSoon, gatherMs: 200 })(1));
    await jest.advanceTimersByTimeAsync(100);
    expect([done.settled, jest.getTimerCount()]).toEqual([false, 1]);
    const callsWhileWaiting = comingSoon.mock.calls.length;
    await jest.advanceTimersByTimeAsync(100);
    expect(done.settled).toBe(true);
    expect(callsWhileWaiting).toBeLessThanOrEqual(2);
    expect(comingSoon.mock.calls.length).toBeLessThanOrEqual(3);
  });
});
