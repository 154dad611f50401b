import { emailAddress, LIMITS, Role, UserCreate, type CurrentUser } from '@qc/contracts';
import { z } from 'zod';
import { HttpError } from '../../lib/http-error';
import { generatePassword, type PasswordHasher } from '../../lib/passwords';
import { parseOrThrow } from '../../lib/validation';
import type { SessionContextRow } from '../auth/auth.repository';
import { DirectoryUnavailableError, type Directory } from '../directory/directory';
import { directoryUnavailable, dnKey } from '../directory/directory-common';
import { ensureDomain } from '../domains/domains.service';
import {
  createManagedUser,
  resetManagedUserMfa,
  systemManager,
  toAccount,
  UNAUDITED_SYSTEM,
  updateManagedUser,
  type Manager,
  type UserDeps,
} from './users-admin.service';
import { findUserByEmail, hasAnyUser, type UserRow } from './users.repository';

export type { UserDeps } from './users-admin.service';

// The command line's user commands. They run through the administration API's own service
// (users-admin.service: the same checks, the last-admin rule, the history); the caller says who
// acts: the CLI passes systemManager('cli'). Left out, no history row is written (test fixtures).

// As the API takes it: a U-label domain is stored (and looked up) as its A-label.
const Email = emailAddress();
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
/** Untrusted input (CLI): every field is checked by NewUserSchema, then as the API checks it. */
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

/** Creates a user; the domain (by name) is created when it does not exist yet. */
export async function createUser(deps: UserDeps, raw: NewUserInput, by: Manager = UNAUDITED_SYSTEM): Promise<UserRow> {
  const input = parseOrThrow(NewUserSchema, raw);
  const domainId = input.domain ? (await ensureDomain(deps.db, input.domain)).id : null;
  const create = parseOrThrow(UserCreate, {
    email: input.email,
    password: input.password,
    role: input.role,
    domain_id: domainId,
    username: input.username,
    first_name: input.first_name,
    last_name: input.last_name,
    is_external: input.is_external,
  });
  return createManagedUser(deps, by, create);
}

async function requireUser(deps: UserDeps, rawEmail: string): Promise<UserRow> {
  const email = parseOrThrow(Email, rawEmail);
  const user = await findUserByEmail(deps.db, email);
  if (!user) throw userNotFound(email);
  return user;
}

// Each change below ends the user's sessions at once (DESIGN §7).

export async function setPassword(
  deps: UserDeps,
  email: string,
  password: string,
  by: Manager = UNAUDITED_SYSTEM,
): Promise<UserRow> {
  const user = await requireUser(deps, email);
  const valid = parseOrThrow(z.object({ password: Password }), { password }).password;
  return updateManagedUser(deps, by, user.id, { password: valid });
}

/** The role (and the domain, by name, created when missing; left out: unchanged). */
export async function setRole(
  deps: UserDeps,
  email: string,
  rawRole: string,
  domain?: string,
  by: Manager = UNAUDITED_SYSTEM,
): Promise<UserRow> {
  const user = await requireUser(deps, email);
  const role = parseOrThrow(z.object({ role: Role }), { role: rawRole }).role;
  const domainId = domain ? (await ensureDomain(deps.db, domain)).id : undefined;
  return updateManagedUser(deps, by, user.id, { role, ...(domainId !== undefined && { domain_id: domainId }) });
}

export async function resetMfa(deps: UserDeps, email: string, by: Manager = UNAUDITED_SYSTEM): Promise<UserRow> {
  const user = await requireUser(deps, email);
  return resetManagedUserMfa(deps.db, by, user.id);
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
    await createUser(deps, { email, password, role: 'admin', username: 'admin' }, systemManager('system'));
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
/**
 * The account's password given to confirm a change (400 when wrong, never 401). A directory
 * account's password is the directory's: checked by a bind there.
 */
export async function checkPassword(
  deps: { passwords: PasswordHasher; directory?: Directory | null },
  user: UserRow,
  password: string,
  field: string,
): Promise<void> {
  const ok =
    user.source === 'ldap' && deps.directory
      ? await directoryPasswordMatches(deps.directory, user, password)
      : await deps.passwords.verify(user.password_hash, password);
  if (!ok) {
    throw new HttpError(400, 'invalid_password', 'The password is not correct.', {
      [field]: 'The password is not correct.',
    });
  }
}

async function directoryPasswordMatches(directory: Directory, user: UserRow, password: string): Promise<boolean> {
  try {
    const person = await directory.authenticate(user.email, password);
    return person !== null && dnKey(person.dn) === user.external_id;
  } catch (err) {
    if (err instanceof DirectoryUnavailableError) throw directoryUnavailable();
    throw err;
  }
}

export function toCurrentUser(row: SessionContextRow, pendingEmail: string | null): CurrentUser {
  return toAccount(row.user_id, row, pendingEmail);
}
