import { createTestEnv } from './test/helpers';
import { loadConfig } from './config';
import { startServer } from './server';
import { buildApp } from './app';

test('start-up: migrates, creates the first admin once (password printed once), listens', async () => {
  const env = await createTestEnv({ QC_PORT: '0' });
  try {
    const config = loadConfig(env.env, env.tmpDir);
    let out = '';
    const app = await startServer(config, (text) => (out += text));
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const health = await fetch(`http://127.0.0.1:${port}/api/health/`);
    expect(health.status).toBe(200);

    expect(out).toContain('admin@example.com');
    const password = /password:\s+(\S+)/.exec(out)?.[1];
    expect(password).toMatch(/^[A-Za-z0-9_-]{24}$/);
    const login = await fetch(`http://127.0.0.1:${port}/api/auth/login/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@example.com', password }),
    });
    expect(login.status).toBe(200);
    const me = await fetch(`http://127.0.0.1:${port}/api/users/me/`, {
      headers: { authorization: `Bearer ${(await login.json()).access}` },
    });
    expect((await me.json()).role).toBe('admin');
    await app.close();

    // A second start on the same database: nobody is created, nothing printed.
    let again = '';
    const second = await startServer(config, (text) => (again += text));
    await second.close();
    expect(again).toBe('');
  } finally {
    await env.cleanup();
  }
});

test('QC_ADMIN_EMAIL + QC_ADMIN_PASSWORD: that admin is created and no password is printed', async () => {
  const env = await createTestEnv({
    QC_PORT: '0',
    QC_ADMIN_EMAIL: 'Boss@Corp.example',
    QC_ADMIN_PASSWORD: 'a long admin password',
  });
  try {
    let out = '';
    const app = await startServer(loadConfig(env.env, env.tmpDir), (text) => (out += text));
    try {
      expect(out).toBe('');
      const res = await app.inject({
        method: 'POST',
        url: '/api/auth/login/',
        payload: { email: 'boss@corp.example', password: 'a long admin password' },
      });
      expect(res.statusCode).toBe(200);
    } finally {
      await app.close();
    }
  } finally {
    await env.cleanup();
  }
});

test('buildApp(config) alone opens and migrates the configured database', async () => {
  const env = await createTestEnv();
  try {
    const app = await buildApp(loadConfig(env.env, env.tmpDir));
    try {
      expect((await app.inject({ method: 'GET', url: '/api/health/' })).statusCode).toBe(200);
      const res = await app.inject({
        method: 'POST',
        url: '/api/auth/login/',
        payload: { email: 'a@b.example', password: 'whatever!' },
      });
      expect(res.statusCode).toBe(401); // the users table exists: a real "no such user"
    } finally {
      await app.close();
    }
  } finally {
    await env.cleanup();
  }
});
