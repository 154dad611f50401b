import { bumpIfOwner } from '../lists/lists.repository';
import {
  DOMAIN_DETAIL_USERS,
  DOMAIN_HAS_USERS_MESSAGE,
  type Domain,
  type DomainCreate,
  type DomainDetail,
  type DomainList,
  type DomainListQuery,
  type DomainUpdate,
} from '@qc/contracts';
import { domainToASCII, domainToUnicode } from 'node:url';
import { isUniqueViolation, type DbExecutor } from '../../db/database';
import { HttpError, notFound } from '../../lib/http-error';
import { newId } from '../../lib/ids';
import { recordAudit, type AuditActor } from '../history/audit.service';
import {
  countUsersByDomain,
  deleteDomainWithoutUsers,
  findDomainById,
  findDomainByName,
  insertDomain,
  isForeignKeyViolation,
  listDomains,
  listDomainUsers,
  updateDomain,
  type DomainRow,
} from './domains.repository';

const INVALID_NAME = 'Invalid domain name';
// Full stops that IDNA reads as dots (UTS #46): the input's labels are counted with them.
const DOTS = /[.\u3002\uff0e\uff61]/;
const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
// In an ASCII character of the name (or one a compatibility form maps to), only these are allowed.
const ASCII_NOT_ALLOWED = /[\x00-\x2c\x2f\x3a-\x40\x5b-\x60\x7b-\x7f]/;

/**
 * A host name as the console stores it: the IDNA A-label form, lower case, without the final dot
 * (`Bücher.Example.` → `xn--bcher-kva.example`); null when it is not a valid (IDN) host name: labels
 * of 1–63 letters, digits or inner hyphens, at least two of them, 253 characters at most, a TLD
 * that is not all digits, and `xn--` labels that decode.
 */
export function normaliseDomainName(raw: string): string | null {
  const input = raw.trim().replace(/[.\u3002\uff0e\uff61]$/, '');
  // The URL parser behind domainToASCII stops at `/`, `?` or `#` ('a.b/c.com' → 'a.b'): such
  // characters are refused here, before it can drop what follows them.
  if (ASCII_NOT_ALLOWED.test(input.normalize('NFKC'))) return null;
  const ascii = domainToASCII(input);
  if (!ascii || ascii.length > 253) return null;
  const labels = ascii.split('.');
  if (labels.length < 2 || labels.length !== input.split(DOTS).length) return null;
  if (!labels.every((label) => LABEL.test(label))) return null;
  if (/^\d+$/.test(labels[labels.length - 1]!)) return null;
  // Node.js 22+ passes an `xn--` label that does not decode ('xn--zz') through unchanged, where 20
  // refused it: each one must decode to a U-label that encodes back to it.
  const unicode = domainToUnicode(ascii);
  if (unicode.split('.').some((label) => label.startsWith('xn--')) || domainToASCII(unicode) !== ascii) return null;
  return ascii;
}

/** The name as people write it: U-labels for an IDN. */
export const displayName = (name: string) => domainToUnicode(name) || name;

function invalidName(field: string): HttpError {
  return new HttpError(400, 'validation_error', 'The request is not valid.', { [field]: INVALID_NAME });
}

/**
 * Returns the domain, creating it when missing (the CLI's user:create, and users given a domain by
 * name). A concurrent creation is tolerated by re-reading — so do not call it inside a PostgreSQL
 * transaction (the failed insert would abort it).
 */
export async function ensureDomain(db: DbExecutor, rawName: string): Promise<DomainRow> {
  const name = normaliseDomainName(rawName);
  if (!name) throw invalidName('domain');
  const existing = await findDomainByName(db, name);
  if (existing) return existing;
  const now = Date.now();
  const row: DomainRow = { id: newId(now), name, description: '', created_at: now, updated_at: now };
  try {
    await insertDomain(db, row);
    return row;
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    const raced = await findDomainByName(db, name);
    if (!raced) throw err;
    return raced;
  }
}

// --- Administration API (DESIGN §4.1): admin only, checked by the routes. ---

const domainTaken = () =>
  new HttpError(409, 'domain_taken', 'A domain with this name already exists.', { name: 'Already exists' });
const domainNotFound = () => notFound('No such domain.');

function toDomain(row: DomainRow, usersCount: number): Domain {
  return {
    id: row.id,
    name: row.name,
    display_name: displayName(row.name),
    description: row.description,
    users_count: usersCount,
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
  };
}

async function withUsersCount(db: DbExecutor, row: DomainRow): Promise<Domain> {
  return toDomain(row, (await countUsersByDomain(db, [row.id])).get(row.id) ?? 0);
}

/** Opaque cursor: the last name of the page (names are unique). */
const encodeCursor = (name: string) => Buffer.from(name, 'utf8').toString('base64url');

function decodeCursor(cursor: string): string {
  const name = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!name || encodeCursor(name) !== cursor) {
    throw new HttpError(400, 'validation_error', 'The request is not valid.', { cursor: 'Invalid cursor.' });
  }
  return name;
}

/**
 * `q` is the start of a name, as typed: lower-cased, and when it holds non-ASCII letters, its
 * complete labels turned into A-labels (`bücher.ex` finds `xn--bcher-kva.example`).
 */
function searchPrefix(q: string): string {
  const lower = q.toLowerCase();
  if (/^[\x00-\x7f]*$/.test(lower)) return lower;
  return domainToASCII(lower.replace(/[.\u3002\uff0e\uff61]$/, '')) || lower;
}

export async function domainsPage(db: DbExecutor, query: DomainListQuery): Promise<DomainList> {
  const rows = await listDomains(
    db,
    {
      prefix: query.q ? searchPrefix(query.q) : undefined,
      afterName: query.cursor ? decodeCursor(query.cursor) : undefined,
    },
    query.page_size + 1,
  );
  const page = rows.slice(0, query.page_size);
  const counts = await countUsersByDomain(
    db,
    page.map((r) => r.id),
  );
  const last = page[page.length - 1];
  return {
    results: page.map((row) => toDomain(row, counts.get(row.id) ?? 0)),
    next_cursor: rows.length > query.page_size && last ? encodeCursor(last.name) : null,
  };
}

export async function domainDetail(db: DbExecutor, id: string): Promise<DomainDetail> {
  const row = await findDomainById(db, id);
  if (!row) throw domainNotFound();
  const users = await listDomainUsers(db, id, DOMAIN_DETAIL_USERS);
  return {
    ...(await withUsersCount(db, row)),
    users: users.map((u) => ({
      id: u.id,
      email: u.email,
      username: u.username,
      role: u.role,
      is_active: u.is_active === 1,
    })),
  };
}

const auditTarget = (row: Pick<DomainRow, 'id' | 'name'>, id: string | null = row.id) => ({
  kind: 'domain' as const,
  id,
  label: row.name,
  // The domain's own domain_admin reads what was done to it.
  domain: row.name,
});

export async function createDomain(db: DbExecutor, actor: AuditActor, body: DomainCreate): Promise<Domain> {
  const name = normaliseDomainName(body.name);
  if (!name) throw invalidName('name');
  const now = Date.now();
  const row: DomainRow = {
    id: newId(now),
    name,
    description: body.description ?? '',
    created_at: now,
    updated_at: now,
  };
  try {
    // The unique index on name decides between two concurrent creations (no read first).
    await db.transaction().execute(async (trx) => {
      await insertDomain(trx, row);
      await recordAudit(trx, { action: 'domain_create', actor, target: auditTarget(row), at: now });
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw domainTaken();
    throw err;
  }
  return toDomain(row, 0);
}

/** Renames and/or describes; only fields whose value changes count (nothing changed: no write, no history). */
export async function changeDomain(db: DbExecutor, actor: AuditActor, id: string, body: DomainUpdate): Promise<Domain> {
  let name: string | undefined;
  if (body.name !== undefined) {
    name = normaliseDomainName(body.name) ?? undefined;
    if (!name) throw invalidName('name');
  }
  try {
    const updated = await db.transaction().execute(async (trx) => {
      const row = await findDomainById(trx, id);
      if (!row) throw domainNotFound();
      const fields: Partial<Pick<DomainRow, 'name' | 'description'>> = {};
      if (name !== undefined && name !== row.name) fields.name = name;
      if (body.description !== undefined && body.description !== row.description) {
        fields.description = body.description;
      }
      const changes = Object.keys(fields);
      if (!changes.length) return row;
      const now = Math.max(Date.now(), row.updated_at + 1); // updated_at always moves forward
      if (!(await updateDomain(trx, id, { ...fields, updated_at: now }))) throw domainNotFound();
      const next = { ...row, ...fields, updated_at: now };
      if (fields.name !== undefined) await bumpIfOwner(trx, { domainId: id }); // `@<name>` in Rspamd's map
      await recordAudit(trx, { action: 'domain_update', actor, target: auditTarget(next), changes, at: now });
      return next;
    });
    return await withUsersCount(db, updated);
  } catch (err) {
    if (isUniqueViolation(err)) throw domainTaken();
    throw err;
  }
}

/**
 * Spec §5: refused (409 domain_has_users) while a user belongs to the domain. The check and the
 * delete are one statement; a user added concurrently is caught by the foreign key, so no user is
 * ever left pointing at a deleted domain.
 */
export async function removeDomain(db: DbExecutor, actor: AuditActor, id: string): Promise<void> {
  const hasUsers = () => new HttpError(409, 'domain_has_users', DOMAIN_HAS_USERS_MESSAGE);
  try {
    await db.transaction().execute(async (trx) => {
      const row = await findDomainById(trx, id);
      if (!row) throw domainNotFound();
      await bumpIfOwner(trx, { domainId: id }); // its list entries go with it (rolled back if refused)
      const outcome = await deleteDomainWithoutUsers(trx, id);
      if (outcome === 'missing') throw domainNotFound();
      if (outcome === 'has_users') throw hasUsers();
      // The id names nothing any more (HistoryEntry.target: null once deleted); the name stays.
      await recordAudit(trx, { action: 'domain_delete', actor, target: auditTarget(row, null) });
    });
  } catch (err) {
    if (isForeignKeyViolation(err)) throw hasUsers();
    throw err;
  }
}
