import { readApiError } from '@qc/api-client';
import { normaliseAddress } from '@qc/contracts';
import { isValidEmail } from '../users/user-form';

/**
 * The logic of a local user's addresses editor (issue 31), apart from its markup: the rows as
 * typed, the list sent (the primary first), the checks made before sending, and the API's
 * refusals put back on the rows they name.
 */

/** One line of the editor; `key` stays with the line whatever is typed or removed around it. */
export interface AddressRow {
  key: number;
  value: string;
}

/** The rows of a user's addresses, the primary (`email`) first even if the list says otherwise. */
export function rowsOf(user: { email: string; addresses: readonly string[] }): AddressRow[] {
  const list = user.addresses.length ? user.addresses : [user.email];
  const ordered = list.includes(user.email) ? [user.email, ...list.filter((a) => a !== user.email)] : list;
  return ordered.map((value, key) => ({ key, value }));
}

/** The rows in the order sent: the primary first, then the others as shown. */
export function orderedRows(rows: readonly AddressRow[], primaryKey: number): AddressRow[] {
  const primary = rows.find((r) => r.key === primaryKey);
  return primary ? [primary, ...rows.filter((r) => r !== primary)] : [...rows];
}

/** PATCH `addresses`: each trimmed, the primary first. */
export function addressesToSend(rows: readonly AddressRow[], primaryKey: number): string[] {
  return orderedRows(rows, primaryKey).map((r) => r.value.trim());
}

/** True when what would be sent differs from the user's addresses (compared in their stored form). */
export function addressesChanged(sent: readonly string[], stored: readonly string[]): boolean {
  const a = sent.map(normaliseAddress);
  const b = stored.map(normaliseAddress);
  return a.length !== b.length || a.some((v, i) => v !== b[i]);
}

/** The stored addresses that the list sent no longer has (what the confirmation names). */
export function removedAddresses(sent: readonly string[], stored: readonly string[]): string[] {
  const kept = new Set(sent.map(normaliseAddress));
  return stored.filter((a) => !kept.has(normaliseAddress(a)));
}

export type RowProblem = 'required' | 'invalid' | 'duplicate';

/** The checks made before sending (the API makes them again): every row filled, valid, once. */
export function rowProblems(rows: readonly AddressRow[]): Map<number, RowProblem> {
  const problems = new Map<number, RowProblem>();
  const seen = new Set<string>();
  for (const row of rows) {
    const v = row.value.trim();
    if (!v) problems.set(row.key, 'required');
    else if (!isValidEmail(v)) problems.set(row.key, 'invalid');
    else {
      const stored = normaliseAddress(v);
      if (seen.has(stored)) problems.set(row.key, 'duplicate');
      seen.add(stored);
    }
  }
  return problems;
}

/**
 * True when `text` names `address` as a whole (not inside a longer one: "a@x.example" is not named
 * by "ba@x.example" nor by "a@x.example.org"); a sentence's full stop after it is fine.
 */
export function mentions(text: string, address: string): boolean {
  const haystack = text.toLowerCase();
  for (const needle of new Set([address.trim().toLowerCase(), normaliseAddress(address)])) {
    if (!needle) continue;
    let at = haystack.indexOf(needle);
    while (at >= 0) {
      const before = haystack[at - 1] ?? '';
      const after = haystack.slice(at + needle.length, at + needle.length + 2);
      if (!/[a-z0-9._%+'-]/.test(before) && !/^([a-z0-9-]|\.[a-z0-9])/.test(after)) return true;
      at = haystack.indexOf(needle, at + 1);
    }
  }
  return false;
}

export type RowRefusal = 'taken' | 'refused';

export interface AddressesRefusal {
  /** The rows the API named, by row key. */
  rows: Map<number, RowRefusal>;
  /** True when the API refused the list without naming which address (said above the list). */
  unplaced: boolean;
}

/**
 * The API's refusal of PATCH `addresses` on the rows it names: 409 address_taken names the address
 * in its detail (or `errors.addresses`); 400 validation_error has `errors["addresses.N"]` (N: the
 * position sent) or `errors.addresses` naming the address (outside the console's domains, or the
 * domain_admin's). `sent` are the rows in the order sent.
 */
export function refusalOf(error: unknown, sent: readonly AddressRow[]): AddressesRefusal {
  const info = readApiError(error);
  const rows = new Map<number, RowRefusal>();
  let unplaced = false;
  const named = (text: string) => sent.filter((r) => r.value.trim() && mentions(text, r.value));

  if (info.code === 'address_taken') {
    const texts = [info.detail, ...Object.values(info.errors ?? {})];
    const found = texts.flatMap(named);
    for (const r of found) rows.set(r.key, 'taken');
    if (!found.length) unplaced = true;
    return { rows, unplaced };
  }
  const errors = Object.entries(info.errors ?? {});
  for (const [field, message] of errors) {
    const position = /^addresses\.(\d+)$/.exec(field);
    if (position) {
      const row = sent[Number(position[1])];
      if (row) rows.set(row.key, 'refused');
      else unplaced = true;
    } else if (field === 'addresses' || field === 'email') {
      const found = named(message);
      for (const r of found) rows.set(r.key, 'refused');
      if (!found.length) unplaced = true;
    } else unplaced = true;
  }
  if (!errors.length) unplaced = true;
  return { rows, unplaced };
}
