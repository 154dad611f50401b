import { execFile } from 'node:child_process';
import path from 'node:path';
import { createTestApp, createTestEnv, PASSWORD, processEnvWithoutQc, type TestApp } from '../test/helpers';
import { runCli, type CliIo } from './run-cli';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function cli(args: string[], stdin = '') {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    env: t.env, // the CLI opens the app's database through the same variables
    cwd: t.tmpDir,
    stdout: (s) => (stdout += s),
    stderr: (s) => (stderr += s),
    readStdin: async () => stdin,
  };
  const code = await runCli(args, io);
  return { code, stdout, stderr };
}

const me = async (email: string, password: string) => {
  const { access } = await t.login(email, password);
  return (
    await t.app.inject({ method: 'GET', url: '/api/users/me/', headers: { authorization: `Bearer ${access}` } })
  ).json();
};

test('user:create makes a user who can sign in; the domain is created when missing', async () => {
  const res = await cli([
    'user:create',
    '--email',
    'Ops@New.example',
    '--password',
    PASSWORD,
    '--role',
    'domain_admin',
    '--domain',
    'new.example',
    '--username',
    'ops',
  ]);
  expect(res).toMatchObject({ code: 0, stderr: '' });
  expect(res.stdout).toMatch(/Created domain_admin ops@new\.example/);
  expect(await me('ops@new.example', PASSWORD)).toMatchObject({
    username: 'ops',
    role: 'domain_admin',
    domain: { name: 'new.example' },
  });
});

test('the password can come from standard input (absent or "-")', async () => {
  expect(
    (await cli(['user:create', '--email', 'stdin1@example.com', '--role', 'user'], 'piped password one\n')).code,
  ).toBe(0);
  expect(
    (
      await cli(
        ['user:create', '--email', 'stdin2@example.com', '--role', 'user', '--password', '-'],
        'piped password two\r\nignored',
      )
    ).code,
  ).toBe(0);
  expect((await me('stdin1@example.com', 'piped password one')).email).toBe('stdin1@example.com');
  expect((await me('stdin2@example.com', 'piped password two')).email).toBe('stdin2@example.com');
});

test('bad input: clear errors, non-zero exit', async () => {
  const badRole = await cli(['user:create', '--email', 'x@example.com', '--password', PASSWORD, '--role', 'boss']);
  expect(badRole.code).toBe(1);
  expect(badRole.stderr).toMatch(/role:/);
  const noEmail = await cli(['user:create', '--password', PASSWORD, '--role', 'user']);
  expect(noEmail.code).toBe(2);
  expect(noEmail.stderr).toContain('--email is required');
  const unknownOption = await cli(['user:create', '--emial', 'x@example.com']);
  expect(unknownOption.code).toBe(2);
  const unknownCommand = await cli(['user:destroy']);
  expect(unknownCommand.code).toBe(2);
  expect(unknownCommand.stderr).toContain('Usage:');
  const emptyStdin = await cli(['user:create', '--email', 'y@example.com', '--role', 'user']);
  expect(emptyStdin).toMatchObject({ code: 2, stderr: expect.stringContaining('no password given') });
  const duplicate = await cli(['user:create', '--email', 'OPS@new.example', '--password', PASSWORD, '--role', 'user']);
  expect(duplicate).toMatchObject({ code: 1, stderr: expect.stringContaining('already exists') });
  const badDomain = await cli([
    'user:create',
    '--email',
    'z@example.com',
    '--password',
    PASSWORD,
    '--role',
    'user',
    '--domain',
    'not a domain',
  ]);
  expect(badDomain).toMatchObject({ code: 1, stderr: expect.stringContaining('domain: Invalid domain name') });
  const unknownUser = await cli(['user:set-role', '--email', 'ghost@example.com', '--role', 'admin']);
  expect(unknownUser).toMatchObject({ code: 1, stderr: expect.stringContaining('No user') });
});

test('user:set-password, user:set-role, user:reset-mfa', async () => {
  await cli(['user:create', '--email', 'life@example.com', '--password', PASSWORD, '--role', 'user']);
  expect((await cli(['user:set-password', '--email', 'life@example.com'], 'another long password\n')).code).toBe(0);
  await expect(t.login('life@example.com', PASSWORD)).rejects.toThrow(/401/);
  expect((await cli(['user:set-role', '--email', 'life@example.com', '--role', 'admin'])).code).toBe(0);
  expect((await me('life@example.com', 'another long password')).role).toBe('admin');

  await t.db
    .updateTable('users')
    .set({ mfa_enabled: 1, mfa_secret: 'JBSWY3DPEHPK3PXP' })
    .where('email', '=', 'life@example.com')
    .execute();
  expect((await cli(['user:reset-mfa', '--email', 'life@example.com'])).code).toBe(0);
  const row = await t.db
    .selectFrom('users')
    .select(['mfa_enabled', 'mfa_secret'])
    .where('email', '=', 'life@example.com')
    .executeTakeFirstOrThrow();
  expect(row).toEqual({ mfa_enabled: 0, mfa_secret: null });
});

test('the real entry point (tsx api/src/cli.ts) works with a piped password', async () => {
  const fresh = await createTestEnv();
  try {
    const tsx = path.resolve(__dirname, '../../node_modules/.bin/tsx');
    const run = (args: string[], input: string) =>
      new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
        const child = execFile(
          tsx,
          [path.resolve(__dirname, '../cli.ts'), ...args],
          { env: { ...processEnvWithoutQc(), ...fresh.env }, cwd: fresh.tmpDir },
          (err, stdout, stderr) => resolve({ code: err ? Number(err.code) : 0, stdout, stderr }),
        );
        child.stdin!.end(input);
      });
    const ok = await run(
      ['user:create', '--email', 'real@example.com', '--role', 'admin', '--domain', 'real.example'],
      'the real password\n',
    );
    expect(ok).toMatchObject({ code: 0, stderr: '' });
    expect(ok.stdout).toContain('Created admin real@example.com');
    const bad = await run(['user:create', '--email', 'real@example.com', '--role', 'admin'], 'the real password\n');
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('already exists');
  } finally {
    await fresh.cleanup();
  }
}, 30_000);
