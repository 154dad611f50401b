import { createTestApp } from '../../test/helpers';

test('200 while the database answers, 503 when it does not', async () => {
  const t = await createTestApp();
  try {
    const ok = await t.app.inject({ method: 'GET', url: '/api/health/' });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ status: 'ok' });

    await t.database.close(); // the app keeps running without its database
    const down = await t.app.inject({ method: 'GET', url: '/api/health/' });
    expect(down.statusCode).toBe(503);
    expect(down.json()).toEqual({ detail: expect.any(String), code: 'database_unavailable' });
  } finally {
    await t.close();
  }
});
