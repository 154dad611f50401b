import { HttpError } from '../../lib/http-error';
import type { ListSort, SortCursor } from './list-sort.repository';

/**
 * The list's cursor: opaque base64url of the last row's sort value and id. By date newest first
 * (the default) it is `<received_at>.<id>`, as before sorting existed (links already shared keep
 * working); any other sort is `<sort>.<order>.<value as JSON>.<id>`, so a cursor read under
 * another sort than it was made for is refused instead of skipping or repeating rows.
 */
export function encodeCursor(sort: ListSort, key: SortCursor): string {
  const text =
    sort.by === 'date' && sort.order === 'desc'
      ? `${key.value}.${key.message_id}`
      : `${sort.by}.${sort.order}.${JSON.stringify(key.value)}.${key.message_id}`;
  return Buffer.from(text, 'utf8').toString('base64url');
}

const invalid = () =>
  new HttpError(400, 'validation_error', 'The request is not valid.', { cursor: 'Invalid cursor.' });

export function decodeCursor(cursor: string, sort: ListSort): SortCursor {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const id = text.slice(text.lastIndexOf('.') + 1);
  if (!/^\w+$/.test(id)) throw invalid();
  const head = text.slice(0, text.lastIndexOf('.'));
  if (sort.by === 'date' && sort.order === 'desc') {
    if (!/^\d+$/.test(head) || !Number.isSafeInteger(Number(head))) throw invalid();
    return { value: Number(head), message_id: id };
  }
  const prefix = `${sort.by}.${sort.order}.`;
  if (!head.startsWith(prefix)) throw invalid();
  let value: unknown;
  try {
    value = JSON.parse(head.slice(prefix.length));
  } catch {
    throw invalid();
  }
  const valid =
    sort.by === 'sender'
      ? typeof value === 'string' && value.length <= 1000
      : typeof value === 'number' && Number.isFinite(value) && (sort.by === 'score' || Number.isSafeInteger(value));
  if (!valid) throw invalid();
  return { value: value as number | string, message_id: id };
}
