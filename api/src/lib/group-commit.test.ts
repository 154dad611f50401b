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

test('a flush waits for items announced as coming and takes them together, but not past gatherMs', async () => {
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

  // Announced but never arriving: the flush goes once gatherMs has passed.
  const late = groupCommit(flush, { ...limits, comingSoon: () => 1, gatherMs: 20 });
  const started = performance.now();
  await expect(late(7)).resolves.toBe(7);
  expect(performance.now() - started).toBeGreaterThanOrEqual(19);
  expect(batches.at(-1)).toEqual([7]);
});

test('an announced item that will not come (recheck) ends the wait at once', async () => {
  let coming = 1;
  const flush = async (items: number[]) => items.map((value) => ({ ok: true as const, value }));
  const submit = groupCommit(flush, { ...limits, comingSoon: () => coming, gatherMs: 1000 });
  const started = performance.now();
  const first = submit(1);
  setTimeout(() => {
    coming = 0;
    submit.recheck();
  }, 10);
  await expect(first).resolves.toBe(1);
  expect(performance.now() - started).toBeLessThan(500);
});

test('while a flush waits for announced items the process idles (no busy wait)', async () => {
  const flush = async (items: number[]) => items.map((value) => ({ ok: true as const, value }));
  const submit = groupCommit(flush, { ...limits, comingSoon: () => 1, gatherMs: 200 });
  const before = process.cpuUsage();
  await expect(submit(1)).resolves.toBe(1);
  const used = process.cpuUsage(before);
  // CPU milliseconds during a 200 ms wait: a loop yielding with setImmediate burns about all of it.
  expect((used.user + used.system) / 1000).toBeLessThan(100);
});
