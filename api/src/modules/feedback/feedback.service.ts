import type { Multipart } from '@fastify/multipart';
import type { Readable } from 'node:stream';
import {
  FEEDBACK_IMAGE_FIELDS,
  FEEDBACK_MESSAGES,
  FeedbackFields,
  LIMITS,
  type FeedbackItem,
  type FeedbackList,
} from '@qc/contracts';
import type { Db } from '../../db/database';
import { attachment } from '../../lib/download';
import { HttpError, notFound } from '../../lib/http-error';
import { tooManyAttempts } from '../auth/attempt-limiter';
import { malformedMultipart } from '../../lib/multipart';
import { newId } from '../../lib/ids';
import { issuesToErrors } from '../../lib/validation';
import {
  declaredTypeContradicts,
  isImageMime,
  megapixels,
  reencodeImage,
  sniffImage,
  type ImageMime,
} from './feedback-images';
import {
  findImage,
  insertFeedback,
  listFeedback,
  listImageMeta,
  lockUser,
  recentFeedback,
  storeReencoded,
  type FeedbackImageRow,
} from './feedback.repository';

const TEXT_FIELDS = new Set(['type', 'message', 'email']);
const EXTENSIONS: Record<ImageMime, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
};

/** @fastify/multipart limits for the feedback form: a 4th file or a 5 MB+ file stops the parse. */
export const FEEDBACK_MULTIPART_LIMITS = {
  files: LIMITS.feedbackMaxFiles,
  fileSize: LIMITS.feedbackMaxFileBytes,
  fields: 10,
  fieldSize: 64 * 1024,
  parts: 20,
};

/**
 * The largest body a valid form can have: its files and text fields at their limits, plus room for
 * the part headers. A Content-Length above it is refused before reading; a chunked body is cut there.
 */
export const FEEDBACK_MAX_BODY_BYTES =
  FEEDBACK_MULTIPART_LIMITS.files * FEEDBACK_MULTIPART_LIMITS.fileSize +
  FEEDBACK_MULTIPART_LIMITS.fields * FEEDBACK_MULTIPART_LIMITS.fieldSize +
  64 * 1024;

export const formTooLarge = () =>
  new HttpError(413, 'payload_too_large', `The form is larger than ${FEEDBACK_MAX_BODY_BYTES} bytes.`);

interface Upload {
  field: string;
  position: number;
  mime: ImageMime;
  data: Buffer;
}

export interface FeedbackForm {
  type: FeedbackItem['type'];
  message: string;
  email: string | null;
  images: Upload[];
}

const TYPE_MISMATCH = (declared: string, actual: ImageMime) =>
  `Sent as ${declared || 'no type'} but the file is ${actual}.`;

const invalid = (errors: Record<string, string>) =>
  new HttpError(400, 'validation_error', 'The request is not valid.', errors);

/** Parser errors of @fastify/multipart → our answers. */
function multipartError(err: unknown): unknown {
  switch ((err as { code?: unknown } | null)?.code) {
    case 'FST_REQ_FILE_TOO_LARGE':
      return new HttpError(413, 'file_too_large', FEEDBACK_MESSAGES.fileTooLarge);
    case 'FST_FILES_LIMIT':
      return invalid({ images: FEEDBACK_MESSAGES.tooManyFiles });
    case 'FST_PARTS_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return new HttpError(413, 'payload_too_large', 'The form has too many parts.');
    default:
      return malformedMultipart(err);
  }
}

/**
 * The file's bytes, or FST_REQ_FILE_TOO_LARGE as soon as it passes the size limit: the plugin's
 * toBuffer() waits for the part's end, which a 500 MB part reaches only after all of it is read.
 */
async function readFile(file: Readable): Promise<Buffer> {
  file.once('limit', () =>
    file.destroy(Object.assign(new Error('file too large'), { code: 'FST_REQ_FILE_TOO_LARGE' })),
  );
  const chunks: Buffer[] = [];
  for await (const chunk of file) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * Reads the multipart form: text fields type, message, email; files image0..image2. Every rule is
 * checked and reported together (400 with `errors` per field); a file over 5 MB is 413.
 */
export async function readFeedbackForm(parts: AsyncIterable<Multipart>): Promise<FeedbackForm> {
  const text: Record<string, string> = {};
  const errors: Record<string, string> = {};
  const files = new Map<string, { position: number; data: Buffer; declared: string }>();
  try {
    for await (const part of parts) {
      if (part.type === 'file') {
        const data = await readFile(part.file);
        // A form's empty file input arrives as a nameless, empty part: no file.
        if (!part.filename && data.length === 0) continue;
        const position = FEEDBACK_IMAGE_FIELDS.indexOf(part.fieldname);
        if (/^image\d+$/.test(part.fieldname) && position < 0) errors.images = FEEDBACK_MESSAGES.tooManyFiles;
        else if (position < 0) errors[part.fieldname] = 'Unexpected file.';
        else if (files.has(part.fieldname)) errors[part.fieldname] = 'One file per field.';
        else files.set(part.fieldname, { position, data, declared: part.mimetype });
      } else if (TEXT_FIELDS.has(part.fieldname)) {
        if (typeof part.value !== 'string' || part.valueTruncated) {
          errors[part.fieldname] =
            part.fieldname === 'message' ? FEEDBACK_MESSAGES.messageTooLong : `Invalid ${part.fieldname}.`;
        } else {
          text[part.fieldname] = part.value;
        }
      }
    }
  } catch (err) {
    throw multipartError(err);
  }

  const fields = FeedbackFields.safeParse(text);
  if (!fields.success) Object.assign(errors, { ...issuesToErrors(fields.error.issues), ...errors });
  const sniffed = new Map<string, ImageMime | null>();
  const mismatched: Record<string, string> = {};
  for (const [field, { data, declared }] of files) {
    const mime = await sniffImage(data);
    sniffed.set(field, mime);
    if (mime && declaredTypeContradicts(declared, mime)) mismatched[field] = TYPE_MISMATCH(declared, mime);
  }
  // An image sent as another type (a GIF as text/html, a JPEG as image/png) is refused whole.
  if (Object.keys(mismatched).length) {
    throw new HttpError(415, 'unsupported_media_type', 'A file is not of the type it was sent as.', mismatched);
  }
  const images: Upload[] = [];
  for (const [field, { position, data }] of files) {
    const mime = sniffed.get(field);
    const size = mime ? megapixels(data) : null;
    if (!mime || size === null) errors[field] = FEEDBACK_MESSAGES.notAnImage;
    else if (size > LIMITS.feedbackMaxMegapixels) errors[field] = FEEDBACK_MESSAGES.tooManyPixels;
    else if (!Object.keys(errors).length && fields.success) {
      // Only once the form is otherwise valid: decoding is the expensive step.
      const clean = await reencodeImage(data, mime);
      if ('error' in clean) errors[field] = clean.error;
      else images.push({ field, position, mime, data: clean.data });
    }
  }
  if (Object.keys(errors).length || !fields.success) throw invalid(errors);
  return {
    type: fields.data.type,
    message: fields.data.message,
    email: fields.data.email ? fields.data.email.toLowerCase() : null,
    images: images.sort((a, b) => a.position - b.position),
  };
}

const DAY_MS = 24 * 3600 * 1000;

/** 429 when `count` feedback in the last 24 hours already reach `max`; Retry-After: until the oldest leaves them. */
function quotaReached(count: number, oldest: number | null, max: number, now: number): HttpError | null {
  if (count < max || oldest === null) return null;
  const retryAfter = Math.max(1, Math.ceil((oldest + DAY_MS - now) / 1000));
  return tooManyAttempts(retryAfter, `Daily feedback quota reached (${max} in 24 hours). Try again later.`);
}

/**
 * The daily quota: at most `max` feedback stored by this user in any 24 hours. Checked before the
 * body is read, to refuse early; 429 with Retry-After, the seconds until the oldest of them leaves
 * the 24 hours. createFeedback checks it again where it counts, under a lock.
 */
export async function checkDailyQuota(db: Db, userId: string, max: number, now = Date.now()): Promise<void> {
  const { count, oldest } = await recentFeedback(db, userId, now - DAY_MS);
  const refused = quotaReached(count, oldest, max, now);
  if (refused) throw refused;
}

/**
 * Stores the feedback if the user's daily quota (`dailyMax`) still has room. Counted and inserted in
 * one transaction holding the user's row: parallel submissions that all passed the early check
 * cannot together exceed the quota (issue 21 item 4).
 */
export async function createFeedback(db: Db, userId: string, form: FeedbackForm, dailyMax: number): Promise<void> {
  const now = Date.now();
  const id = newId(now);
  const images: FeedbackImageRow[] = form.images.map((img) => ({
    id: newId(now),
    feedback_id: id,
    position: img.position,
    mime: img.mime,
    size: img.data.length,
    data: img.data,
    reencoded: 1,
  }));
  await db.transaction().execute(async (trx) => {
    await lockUser(trx, userId);
    const { count, oldest } = await recentFeedback(trx, userId, now - DAY_MS);
    const refused = quotaReached(count, oldest, dailyMax, now);
    if (refused) throw refused;
    await insertFeedback(
      trx,
      { id, user_id: userId, type: form.type, message: form.message, email: form.email, created_at: now },
      images,
    );
  });
}

/** Opaque cursor: the last row's (created_at, id). */
function encodeCursor(createdAt: number, id: string): string {
  return Buffer.from(`${createdAt}.${id}`, 'utf8').toString('base64url');
}

function decodeCursor(cursor: string): { createdAt: number; id: string } {
  const [time, id, ...rest] = Buffer.from(cursor, 'base64url').toString('utf8').split('.');
  const createdAt = Number(time);
  if (!id || rest.length || !/^\d+$/.test(time ?? '') || !Number.isSafeInteger(createdAt)) {
    throw invalid({ cursor: 'Invalid cursor.' });
  }
  return { createdAt, id };
}

export const imageUrl = (feedbackId: string, imageId: string) => `/api/feedback/${feedbackId}/images/${imageId}/`;

export async function feedbackPage(db: Db, cursor: string | undefined, pageSize: number): Promise<FeedbackList> {
  const rows = await listFeedback(db, cursor ? decodeCursor(cursor) : null, pageSize + 1);
  const page = rows.slice(0, pageSize);
  const images = await listImageMeta(
    db,
    page.map((r) => r.id),
  );
  const last = page[page.length - 1];
  return {
    results: page.map((r) => ({
      id: r.id,
      type: r.type,
      message: r.message,
      email: r.email,
      user:
        r.user_id && r.user_email !== null
          ? { id: r.user_id, email: r.user_email, username: r.user_username ?? '' }
          : null,
      created_at: new Date(r.created_at).toISOString(),
      images: images
        .filter((i) => i.feedback_id === r.id)
        .map((i) => ({ id: i.id, mime: i.mime as ImageMime, size: i.size, url: imageUrl(r.id, i.id) })),
    })),
    next_cursor: rows.length > pageSize && last ? encodeCursor(last.created_at, last.id) : null,
  };
}

/** A stored image that is not the decodable image its row says: never served as it is. */
const storedNotAnImage = () =>
  new HttpError(415, 'unsupported_media_type', 'The stored file is not a readable image; it is not served.');

/**
 * One image. Stored since uploads are re-encoded (issue 21 item 3, `reencoded` = 1): served as
 * stored. Stored before (0): still the bytes as sent (text chunks, EXIF, a polyglot's HTML), so
 * re-encoded at its first download (0.1 s for a 5 MB PNG or JPEG, up to 1.6 s for a worst-case GIF,
 * off the event loop, admins only) and stored so, as an upload is now. Bytes that are not the type
 * the row says, or do not decode, are refused (415), never sent.
 */
export async function feedbackImage(
  db: Db,
  feedbackId: string,
  imageId: string,
): Promise<{ mime: ImageMime; data: Buffer; disposition: string }> {
  const row = await findImage(db, feedbackId, imageId);
  if (!row || !isImageMime(row.mime)) throw notFound();
  const mime = row.mime;
  const stored = Buffer.from(row.data);
  // Only the four image formats reach the decoder, and only as the type the row was served as.
  if ((await sniffImage(stored)) !== mime) throw storedNotAnImage();
  let data: Buffer = stored;
  if (!Number(row.reencoded)) {
    const clean = await reencodeImage(stored, mime);
    if ('error' in clean) throw storedNotAnImage();
    data = clean.data;
    await storeReencoded(db, imageId, data);
  }
  const name = `feedback-${feedbackId}-${row.position}`;
  return { mime, data, disposition: attachment(name, `.${EXTENSIONS[mime]}`, 'feedback') };
}
