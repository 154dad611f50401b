import Fastify from 'fastify';
import { z } from 'zod';
import { createSerializerCompiler } from './serializer';

const Answer = z.object({
  id: z.string(),
  count: z.number().int(),
  note: z.string().nullable(),
  when: z.string().optional(),
  kind: z.union([z.object({ a: z.literal('x'), n: z.number() }), z.object({ a: z.literal('y'), s: z.string() })]),
  byDay: z.record(z.string(), z.number()),
  tags: z.array(z.string()),
});

async function appWith(check: boolean, data: unknown) {
  const app = Fastify();
  app.setSerializerCompiler(createSerializerCompiler({ check }));
  app.get('/x', { schema: { response: { 200: Answer } } }, async () => data);
  await app.ready();
  return app;
}

const valid = {
  id: 'a',
  count: 3,
  note: null,
  kind: { a: 'y', s: 'text' },
  byDay: { '2026-11-01': 4, '2026-11-02': 0 },
  tags: ['t1', 't2'],
  secret: 'not in the schema',
};

test('the compiled serializer writes what zod writes: null, absent optional, union, record; unknown keys dropped', async () => {
  for (const check of [false, true]) {
    const app = await appWith(check, valid);
    const res = await app.inject({ url: '/x' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe(JSON.stringify({ ...valid, secret: undefined }));
    expect(res.body).not.toContain('secret');
    await app.close();
  }
});

test('with check, an answer zod refuses (a string where a number is due) is an error, not a coerced number', async () => {
  const bad = { ...valid, count: '3' };
  const checked = await appWith(true, bad);
  expect((await checked.inject({ url: '/x' })).statusCode).toBe(500);
  await checked.close();
  // What the check is there for: without it, fast-json-stringify coerces in silence.
  const unchecked = await appWith(false, bad);
  const res = await unchecked.inject({ url: '/x' });
  expect(res.json().count).toBe(3);
  await unchecked.close();
});
