import { isUniqueViolation, type DbExecutor } from '../../db/database';
import { HttpError } from '../../lib/http-error';
import { newId } from '../../lib/ids';
import { findDomainByName, insertDomain, type DomainRow } from './domains.repository';

const DOMAIN_NAME = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

export function normaliseDomainName(name: string): string {
  return name.trim().toLowerCase().replace(/\.$/, '');
}

export function isValidDomainName(name: string): boolean {
  return DOMAIN_NAME.test(name);
}

/**
 * Returns the domain, creating it when missing. A concurrent creation is tolerated by re-reading —
 * so do not call it inside a PostgreSQL transaction (the failed insert would abort it).
 */
export async function ensureDomain(db: DbExecutor, rawName: string): Promise<DomainRow> {
  const name = normaliseDomainName(rawName);
  if (!isValidDomainName(name)) {
    throw new HttpError(400, 'validation_error', 'The request is not valid.', { domain: 'Invalid domain name' });
  }
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
