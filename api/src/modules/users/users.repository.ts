import type { MfaFilter, Role, UserOrdering } from '@qc/contracts';
import { sql, SqliteAdapter, type Expression, type SqlBool } from 'kysely';
import type { DbExecutor } from '../../db/database';
import type { UsersTable } from '../../db/schema';
import { addressesOf, setPrimaryAddress, splitAddresses } from './user-addresses.repository';

export type UserRow = UsersTable;

export async function findUserByEmail(db: DbExecutor, email: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
}

export async function findUserById(db: DbExecutor, id: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function hasAnyUser(db: DbExecutor): Promise<boolean> {
  const row = await db.selectFrom('users').select('id').limit(1).executeTakeFirst();
  return row !== undefined;
}

/** A new account's row (made now, with id `id`): active, no second factor yet, never signed in. */
export function newUserRow(
  fields: Pick<
    UserRow,
    'id' | 'username' | 'email' | 'first_name' | 'last_name' | 'password_hash' | 'role' | 'domain_id' | 'is_external'
  > &
    Partial<Pick<UserRow, 'mfa_required' | 'source' | 'external_id'>>,
  now: number,
): UserRow {
  return {
    mfa_required: 0,
    source: 'local',
    external_id: null,
    ...fields,
    is_active: 1,
    mfa_enabled: 0,
    mfa_secret: null,
    mfa_pending_secret: null,
    mfa_last_step: null,
    last_login: null,
    mfa_pending_at: null,
    credentials_at: null,
    date_joined: now,
  };
}

export async function insertUser(db: DbExecutor, row: UserRow): Promise<void> {
  await db.insertInto('users').values(row).execute();
  await setPrimaryAddress(db, row.id, row.email);
}

export async function updatePasswordHash(db: DbExecutor, userId: string, passwordHash: string): Promise<void> {
  await db.updateTable('users').set({ password_hash: passwordHash }).where('id', '=', userId).execute();
}

export async function updateRole(db: DbExecutor, userId: string, role: Role, domainId: string | null): Promise<void> {
  await db.updateTable('users').set({ role, domain_id: domainId }).where('id', '=', userId).execute();
}

/** Turns the second factor off: secrets, replay guard, a set-up in progress and backup codes are forgotten. */
export async function clearMfa(db: DbExecutor, userId: string): Promise<void> {
  await db
    .updateTable('users')
    .set({ mfa_enabled: 0, mfa_secret: null, mfa_pending_secret: null, mfa_last_step: null, mfa_pending_at: null })
    .where('id', '=', userId)
    .execute();
  await db.deleteFrom('mfa_backup_codes').where('user_id', '=', userId).execute();
}

/** Case-insensitive, like the uniqueness rule for usernames. */
export async function findUserByUsername(db: DbExecutor, username: string): Promise<UserRow | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where(sql<string>`lower(username)`, '=', username.toLowerCase())
    .executeTakeFirst();
}

export async function updateProfileFields(
  db: DbExecutor,
  userId: string,
  fields: Partial<Pick<UserRow, 'username' | 'first_name' | 'last_name' | 'email'>>,
): Promise<void> {
  if (!Object.keys(fields).length) return;
  await db.updateTable('users').set(fields).where('id', '=', userId).execute();
  if (fields.email !== undefined) await setPrimaryAddress(db, userId, fields.email);
}

export async function setUserActive(db: DbExecutor, userId: string, active: boolean): Promise<void> {
  await db
    .updateTable('users')
    .set({ is_active: active ? 1 : 0 })
    .where('id', '=', userId)
    .execute();
}

// ---- Administration (issue 16) -------------------------------------------------------------

/** A user as the administration API answers it: the row with its domain's name and addresses. */
export type AdminUserRow = UserRow & { domain_name: string | null; addresses: string[] };

const ADMIN_COLUMNS = [
  'u.id',
  'u.username',
  'u.email',
  'u.first_name',
  'u.last_name',
  'u.password_hash',
  'u.role',
  'u.domain_id',
  'u.is_external',
  'u.is_active',
  'u.mfa_enabled',
  'u.mfa_secret',
  'u.date_joined',
  'u.mfa_pending_secret',
  'u.mfa_last_step',
  'u.mfa_required',
  'u.last_login',
  'u.mfa_pending_at',
  'u.credentials_at',
  'u.source',
  'u.external_id',
  'd.name as domain_name',
] as const;

/**
 * bigint columns come back as strings from some drivers: epoch ms always as numbers. The addresses
 * are read for the page's users at once (a correlated aggregate per row would sort each one's).
 */
async function withNumbers<T extends UserRow & { domain_name: string | null }>(
  db: DbExecutor,
  rows: T[],
): Promise<(T & { addresses: string[] })[]> {
  const addresses = await addressesOf(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((row) => ({
    ...row,
    date_joined: Number(row.date_joined),
    last_login: row.last_login === null ? null : Number(row.last_login),
    addresses: splitAddresses(addresses.get(row.id)?.join(' '), row.email),
  }));
}

export async function findAdminUser(db: DbExecutor, id: string): Promise<AdminUserRow | undefined> {
  const row = await db
    .selectFrom('users as u')
    .leftJoin('domains as d', 'd.id', 'u.domain_id')
    .select(ADMIN_COLUMNS)
    .where('u.id', '=', id)
    .executeTakeFirst();
  return row && (await withNumbers(db, [row]))[0];
}

export async function findDomainById(db: DbExecutor, id: string): Promise<{ id: string; name: string } | undefined> {
  return db.selectFrom('domains').select(['id', 'name']).where('id', '=', id).executeTakeFirst();
}

/** Pending e-mail changes (unused, unexpired) of these users: user id → new address. */
export async function findPendingEmails(db: DbExecutor, userIds: string[], now: number): Promise<Map<string, string>> {
  if (!userIds.length) return new Map();
  const rows = await db
    .selectFrom('email_changes')
    .select(['user_id', 'new_email'])
    .where('user_id', 'in', userIds)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .orderBy('created_at', 'asc')
    .execute();
  return new Map(rows.map((r) => [r.user_id, r.new_email]));
}

/** Keyset position in the list: the e-mail (unique) or (date joined, id). */
export type UserCursor = { email: string } | { dateJoined: number; id: string };

export interface UserListFilters {
  role?: Role;
  /** Only the users of this domain (a domain_admin's scope, or the admin's filter). */
  domainId?: string;
  isActive?: boolean;
  mfa?: MfaFilter;
  /** Roles that must use two-factor (QC_MFA_REQUIRED_ROLES): `mfa: required` includes their users without it. */
  mfaPolicyRoles?: readonly Role[];
  /** A search term (lower case) tested on each row along the ordered walk (a common term). */
  q?: string;
  /** The users a rare search term matched (userHitsQuery): the page is picked among them. */
  hitIds?: readonly string[];
}

/**
 * `expr` starts with `prefix`, as an index range: [prefix, prefix with its last character + 1).
 * Exact under a code-point order (SQLite's BINARY, PostgreSQL's C and C.UTF-8 collations).
 */
function startsWith(expr: Expression<string>, prefix: string): Expression<SqlBool> {
  const chars = [...prefix];
  const last = chars.pop()!.codePointAt(0)!;
  if (last >= 0x10ffff) return sql<SqlBool>`${expr} >= ${prefix}`;
  const next = last + 1 === 0xd800 ? 0xe000 : last + 1; // no lone surrogates
  return sql<SqlBool>`(${expr} >= ${prefix} and ${expr} < ${chars.join('') + String.fromCodePoint(next)})`;
}

/**
 * The lower-case forms a name is compared in: SQLite's lower() folds ASCII only, PostgreSQL's the
 * whole of Unicode; both are tried (one form when the term is ASCII).
 */
function lowerForms(term: string): string[] {
  const ascii = term.replace(/[A-Z]+/g, (s) => s.toLowerCase());
  return [...new Set([term.toLowerCase(), ascii])];
}

const SEARCHED = ['username', 'first_name', 'last_name'] as const;

/** `expr` starts with `prefix`, tested on the row: no index serves it (so none is chosen over the walk's). */
function startsWithOnRow(expr: Expression<string>, prefix: string): Expression<SqlBool> {
  return sql<SqlBool>`substr(${expr}, 1, ${[...prefix].length}) = ${prefix}`;
}

/** One test per index: the e-mail (stored lower-case), then lower(username / first / last name). */
function searchBranches(term: string, alias: string, test = startsWith): Expression<SqlBool>[] {
  const email = test(sql.ref(`${alias}.email`), term.toLowerCase());
  return [
    email,
    ...SEARCHED.flatMap((column) =>
      lowerForms(term).map((form) => test(sql<string>`lower(${sql.ref(`${alias}.${column}`)})`, form)),
    ),
  ];
}

/**
 * Ids of the users whose e-mail, username, first or last name starts with `term` (any case), some
 * more than once: a union of index ranges (the unique e-mail index and the lower() indexes of migrations 0002/0013).
 */
export function userHitsQuery(db: DbExecutor, term: string, limit: number) {
  const branches = searchBranches(term, 'users');
  const [first, ...rest] = branches.map((cond) => db.selectFrom('users').select('users.id').where(cond));
  // UNION ALL stops at `limit` rows; UNION would first collect and de-duplicate every hit of a
  // common term (10,000 at 100,000 users: ~25 ms). A user under two branches comes twice: callers
  // de-duplicate, and a term near the limit may take the ordered walk instead (same rows).
  return rest.reduce((union, branch) => union.unionAll(branch), first!).limit(limit);
}

/**
 * A page of users in `ordering` order, after `after`. Without a domain it walks the e-mail
 * index or users_date_joined; with one, users_domain_email or users_domain_date_joined. The other
 * filters are tested along that walk; `hitIds` (a rare search term) are read by primary key and
 * sorted instead.
 */
export function listUsersQuery(
  db: DbExecutor,
  f: UserListFilters,
  ordering: UserOrdering,
  after: UserCursor | null,
  limit: number,
) {
  let query = db.selectFrom('users as u').leftJoin('domains as d', 'd.id', 'u.domain_id').select(ADMIN_COLUMNS);
  if (f.domainId !== undefined) query = query.where('u.domain_id', '=', f.domainId);
  if (f.role) query = query.where('u.role', '=', f.role);
  if (f.isActive !== undefined) query = query.where('u.is_active', '=', f.isActive ? 1 : 0);
  if (f.mfa === 'enabled') query = query.where('u.mfa_enabled', '=', 1);
  if (f.mfa === 'disabled') query = query.where('u.mfa_enabled', '=', 0);
  if (f.mfa === 'required') {
    const policy = f.mfaPolicyRoles ?? [];
    query = query
      .where('u.mfa_enabled', '=', 0)
      .where((eb) =>
        policy.length
          ? eb.or([eb('u.mfa_required', '=', 1), eb('u.role', 'in', policy)])
          : eb('u.mfa_required', '=', 1),
      );
  }
  if (f.hitIds) query = query.where('u.id', 'in', f.hitIds.length ? f.hitIds : ['']);
  if (f.q !== undefined) {
    const branches = searchBranches(f.q, 'u', startsWithOnRow);
    query = query.where((eb) => eb.or(branches));
  }
  const desc = ordering.startsWith('-');
  const direction = desc ? 'desc' : 'asc';
  if (ordering.endsWith('email')) {
    if (after && 'email' in after) query = query.where('u.email', desc ? '<' : '>', after.email);
    return query.orderBy('u.email', direction).limit(limit);
  }
  if (after && 'dateJoined' in after) {
    const op = sql.raw(desc ? '<' : '>');
    const orEqual = sql.raw(desc ? '<=' : '>=');
    // PostgreSQL takes a row comparison as one index range; SQLite needs the redundant bound to
    // seek to the cursor (with the OR alone it would walk from the first row).
    const keyset =
      db.getExecutor().adapter instanceof SqliteAdapter
        ? sql<SqlBool>`u.date_joined ${orEqual} ${after.dateJoined} and (u.date_joined ${op} ${after.dateJoined} or (u.date_joined = ${after.dateJoined} and u.id ${op} ${after.id}))`
        : sql<SqlBool>`(u.date_joined, u.id) ${op} (${after.dateJoined}, ${after.id})`;
    query = query.where(keyset);
  }
  return query.orderBy('u.date_joined', direction).orderBy('u.id', direction).limit(limit);
}

export async function listUsers(
  db: DbExecutor,
  f: UserListFilters,
  ordering: UserOrdering,
  after: UserCursor | null,
  limit: number,
): Promise<AdminUserRow[]> {
  return withNumbers(db, await listUsersQuery(db, f, ordering, after, limit).execute());
}

/**
 * PostgreSQL: the active admins' rows are locked until the transaction ends, so two transactions
 * that each remove a different admin run one after the other and the second sees the first's
 * change (the last-admin rule holds under concurrency). SQLite transactions already take the write
 * lock when they begin (db/database.ts).
 */
export async function lockActiveAdmins(db: DbExecutor): Promise<void> {
  if (db.getExecutor().adapter instanceof SqliteAdapter) return;
  await db
    .selectFrom('users')
    .select('id')
    .where('role', '=', 'admin')
    .where('is_active', '=', 1)
    .orderBy('id') // always the same order: two lockers never hold each other's rows (no deadlock)
    .forUpdate()
    .execute();
}

/** Whether an active admin other than `userId` exists. */
export async function hasOtherActiveAdmin(db: DbExecutor, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom('users')
    .select('id')
    .where('role', '=', 'admin')
    .where('is_active', '=', 1)
    .where('id', '!=', userId)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

export type UserChanges = Partial<
  Pick<
    UserRow,
    | 'username'
    | 'email'
    | 'first_name'
    | 'last_name'
    | 'role'
    | 'domain_id'
    | 'is_external'
    | 'is_active'
    | 'mfa_required'
    | 'password_hash'
  >
>;

export async function updateUserFields(db: DbExecutor, userId: string, changes: UserChanges): Promise<void> {
  if (!Object.keys(changes).length) return;
  await db.updateTable('users').set(changes).where('id', '=', userId).execute();
  if (changes.email !== undefined) await setPrimaryAddress(db, userId, changes.email);
}

/** Deletes the user; what refers to them goes with them (sessions, codes…) or keeps its copy (history). */
export async function deleteUserRow(db: DbExecutor, userId: string): Promise<boolean> {
  const result = await db.deleteFrom('users').where('id', '=', userId).executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}
