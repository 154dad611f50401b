import type { AppContext } from '../../app-context';
import { attachment } from '../../lib/download';
import { HttpError } from '../../lib/http-error';
import { inspectRaw } from './message-inspect';
import { findMessage, findRaw } from './quarantine.repository';
import { emailNotFound, historyRow, rawPurged, refuse, scopeFor, summaryFor, type Actor } from './quarantine.service';
import { recordHistory } from './status.repository';

type Deps = Pick<AppContext, 'db'>;

const attachmentNotFound = () => new HttpError(404, 'attachment_not_found', 'This attachment does not exist.');

/**
 * One attachment's decoded bytes as a download: scope as the raw download (the caller must see a
 * recipient), recorded in the history as a download. Always application/octet-stream, so no
 * browser renders it, whatever the message declared.
 */
export async function downloadAttachment(
  deps: Deps,
  actor: Actor,
  id: string,
  index: number,
): Promise<{ data: Buffer; disposition: string }> {
  const scope = scopeFor(actor.auth.user);
  const summary = await summaryFor(deps, id, scope);
  const m = summary.total ? await findMessage(deps.db, id) : undefined;
  const raw = m ? await findRaw(deps.db, id) : undefined;
  if (m && !raw && m.raw_purged_at !== null) return refuse(deps, actor, 'download', id, rawPurged());
  if (!m || !raw) return refuse(deps, actor, 'download', id, emailNotFound());
  const found = (await inspectRaw(raw))?.attachments.find((a) => a.index === index);
  if (!found) throw attachmentNotFound();
  await recordHistory(deps.db, historyRow(actor, 'download', id, null), scope);
  // Its own name when it has one (no extension added: what it claims to be stays visible).
  return { data: found.content, disposition: attachment(found.name, '', `attachment-${index + 1}`) };
}
