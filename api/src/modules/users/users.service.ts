import { LIMITS, Role, type CurrentUser } from '@qc/contracts';
import { z } from 'zod';
import { isUniqueViolation, type Db } from '../../db/database';
import { HttpError } from '../../lib/http-error';
import { newId } from '../../lib/ids';
import { generatePassword, type PasswordHasher } from '../../lib/passwords';
import { parseOrThrow } from '../../lib/validation';
import { revokeUserSessions } from '../auth/auth.repository';
import type { SessionContextRow } from '../auth/auth.repository';
import { ensureDomain } from '../domains/domains.service';
import {
  clearMfa,
  findUserByEmail,
  hasAnyUser,
  insertUser,
  updatePasswordHash,
  updateRole,
  type UserRow,
} from './users.repository';

export interface UserDeps {
  db: Db;
  passwords: PasswordHasher;
}

const Email = z
  .email()
  .max(254)
  .transform((e) => e.toLowerCase());
const Password = z
  .string()
  .min(LIMITS.passwordMin, `Password must be at least ${LIMITS.passwordMin} characters long`)
  .max(1024);

const NewUserSchema = z
  .object({
    email: Email,
    password: Password,
    role: Role,
    domain: z.string().trim().min(1).optional(),
    username: z.string().trim().min(1).max(150).optional(),
    first_name: z.string().trim().max(150).default(''),
    last_name: z.string().trim().max(150).default(''),
    is_external: z.boolean().default(false),
  })
  .refine((u) => u.role !== 'domain_admin' || u.domain, { path: ['domain'], message: 'A domain admin needs a domain' });
/** Untrusted input (CLI, later the admin API): every field is checked by NewUserSchema. */
export interface NewUserInput {
  email: string;
  password: string;
  role: string;
  domain?: string;
  username?: string;
  first_name?: string;
  last_name?: string;
  is_external?: boolean;
}

function userNotFound(email: string): HttpError {
  return new HttpError(404, 'not_found', `No user with e-mail ${email}.`);
}

async function domainIdFor(db: Db, name: string | undefined): Promise<string | null> {
  return name ? (await ensureDomain(db, name)).id : null;
}

/** Creates a user; the domain is created when it does not exist yet. */
export async function createUser(deps: UserDeps, raw: NewUserInput): Promise<UserRow> {
  const input = parseOrThrow(NewUserSchema, raw);
  if (await findUserByEmail(deps.db, input.email)) {
    throw new HttpError(409, 'email_taken', 'A user with this e-mail already exists.', { email: 'Already in use' });
  }
  const domainId = await domainIdFor(deps.db, input.domain);
  const now = Date.now();
  const row: UserRow = {
    id: newId(now),
    username: input.username ?? input.email.split('@')[0]!,
    email: input.email,
    first_name: input.first_name,
    last_name: input.last_name,
    password_hash: await deps.passwords.hash(input.password),
    role: input.role,
    domain_id: domainId,
    is_external: input.is_external ? 1 : 0,
    is_active: 1,
    mfa_enabled: 0,
    mfa_secret: null,
    mfa_pending_secret: null,
    mfa_last_step: null,
    mfa_required: 0,
    last_login: null,
    mfa_pending_at: null,
    date_joined: now,
  };
  try {
    await insertUser(deps.db, row);
  } catch (err) {
    if (isUniqueViolation(err)) throw new HttpError(409, 'email_taken', 'A user with this e-mail already exists.');
    throw err;
  }
  return row;
}

async function requireUser(db: Db, rawEmail: string): Promise<UserRow> {
  const email = parseOrThrow(Email, rawEmail);
  const user = await findUserByEmail(db, email);
  if (!user) throw userNotFound(email);
  return user;
}

// Each change below revokes the user's sessions at once (DESIGN §7).

export async function setPassword(deps: UserDeps, email: string, password: string): Promise<UserRow> {
  const user = await requireUser(deps.db, email);
  const valid = parseOrThrow(z.object({ password: Password }), { password }).password;
  await updatePasswordHash(deps.db, user.id, await deps.passwords.hash(valid));
  await revokeUserSessions(deps.db, user.id, Date.now());
  return user;
}

export async function setRole(deps: UserDeps, email: string, rawRole: string, domain?: string): Promise<UserRow> {
  const user = await requireUser(deps.db, email);
  const role = parseOrThrow(z.object({ role: Role }), { role: rawRole }).role;
  const domainId = domain ? await domainIdFor(deps.db, domain) : user.domain_id;
  if (role === 'domain_admin' && !domainId) {
    throw new HttpError(400, 'validation_error', 'The request is not valid.', {
      domain: 'A domain admin needs a domain',
    });
  }
  await updateRole(deps.db, user.id, role, domainId);
  await revokeUserSessions(deps.db, user.id, Date.now());
  return { ...user, role, domain_id: domainId };
}

export async function resetMfa(deps: UserDeps, email: string): Promise<UserRow> {
  const user = await requireUser(deps.db, email);
  await deps.db.transaction().execute(async (trx) => {
    await clearMfa(trx, user.id);
    await revokeUserSessions(trx, user.id, Date.now());
  });
  return user;
}

export const DEFAULT_ADMIN_EMAIL = 'admin@example.com';

/**
 * On an empty database, creates the first admin: QC_ADMIN_EMAIL/QC_ADMIN_PASSWORD when given, else
 * admin@example.com with a generated password that is written to `out` — once, as nobody can see it again.
 * Replicas racing on the same empty database: the loser's unique violation is ignored.
 */
export async function ensureFirstAdmin(
  deps: UserDeps,
  admin: { email: string | null; password: string | null },
  out: (text: string) => void,
): Promise<{ email: string } | null> {
  if (await hasAnyUser(deps.db)) return null;
  const email = admin.email ?? DEFAULT_ADMIN_EMAIL;
  const password = admin.password ?? generatePassword();
  try {
    await createUser(deps, { email, password, role: 'admin', username: 'admin' });
  } catch (err) {
    if (err instanceof HttpError && err.code === 'email_taken') return null;
    throw err;
  }
  if (!admin.password) {
    const line = '='.repeat(64);
    out(
      `\n${line}\n  Quarantine Console: first administrator created\n\n` +
        `    e-mail:    ${email}\n    password:  ${password}\n\n` +
        `  This password is shown only once. Sign in and change it.\n${line}\n\n`,
    );
  }
  return { email };
}

/** The account password again, before a security change: a wrong one is 400 (never 401: no sign-out). */
export async function checkPassword(
  passwords: PasswordHasher,
  user: UserRow,
  password: string,
  field: string,
): Promise<void> {
  if (!(await passwords.verify(user.password_hash, password))) {
    throw new HttpError(400, 'invalid_password', 'The password is not correct.', {
      [field]: 'The password is not correct.',
    });
  }
}

export function toCurrentUser(row: SessionContextRow, pendingEmail: string | null): CurrentUser {
  return {
    id: row.user_id,
    username: row.username,
    email: row.email,
    first_name: row.first_name,
    last_name: row.last_name,
    role: row.role,
    domain: row.domain_id && row.domain_name ? { id: row.domain_id, name: row.domain_name } : null,
    is_external: row.is_external === 1,
    mfa_enabled: row.mfa_enabled === 1,
    date_joined: new Date(row.date_joined).toISOString(),
    pending_email: pendingEmail,
  };
}
