import { randomBytes } from 'node:crypto';
import { runCli } from './api-process';
import { signInApi } from './seed';
import { stack, type SeedUser } from './stack';
import { totp, totpStep } from './totp';

/**
 * A FRESH user made with the user CLI for one spec (its own MFA, password and preferences: specs
 * that change an account never touch the seeded ones, nor each other's).
 */
export async function createUser(
  label: string,
  role: SeedUser['role'] = 'user',
  /** Its domain (created by the CLI when new) and that of its address. */
  domain = 'example.org',
): Promise<SeedUser> {
  const tag = `${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
  const user: SeedUser = {
    email: `e2e-${label}-${tag}@${domain}`,
    password: `E2e-${label}-pass-${tag}`,
    role,
    ...(role === 'admin' ? {} : { domain }),
  };
  await runCli(
    [
      'user:create',
      '--email',
      user.email,
      '--password',
      user.password,
      '--role',
      user.role,
      ...(user.domain ? ['--domain', user.domain] : []),
    ],
    stack().cliEnv,
  );
  return user;
}

async function postJson(url: string, access: string, body?: unknown): Promise<unknown> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { Authorization: `Bearer ${access}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body ?? {}),
  });
  if (!res.ok) throw new Error(`POST ${url} answered ${res.status}: ${await res.text()}`);
  return res.json();
}

/**
 * Turns MFA on through the API (DESIGN §4: setup, then enable with a code computed here), for specs
 * about what comes after. Returns the secret, the backup codes and the step the enabling code used.
 */
export async function enableMfaByApi(
  user: SeedUser,
): Promise<{ secret: string; backupCodes: string[]; enabledStep: number }> {
  const { baseURL } = stack();
  const access = await signInApi(baseURL, user.email, user.password);
  const { secret } = (await postJson(`${baseURL}/api/users/me/mfa/setup/`, access)) as { secret: string };
  const enabledStep = totpStep();
  const { backup_codes } = (await postJson(`${baseURL}/api/users/me/mfa/enable/`, access, {
    totp_code: totp(secret, enabledStep),
  })) as { backup_codes: string[] };
  return { secret, backupCodes: backup_codes, enabledStep };
}
