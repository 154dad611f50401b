import type { Multipart } from '@fastify/multipart';
import {
  FEEDBACK_IMAGE_FIELDS,
  FEEDBACK_IMAGE_TYPES,
  FEEDBACK_MESSAGES,
  FeedbackFields,
  LIMITS,
  type FeedbackImage,
  type FeedbackItem,
  type FeedbackList,
} from '@qc/contracts';
import { fileTypeFromBuffer } from 'file-type';
import { imageSize } from 'image-size';
import type { Db } from '../../db/database';
import { attachment } from '../../lib/download';
import { HttpError, notFound } from '../../lib/http-error';
import { malformedMultipart } from '../../lib/multipart';
import { newId } from '../../lib/ids';
import { issuesToErrors } from '../../lib/validation';
import { findImage, insertFeedback, listFeedback, listImageMeta, type FeedbackImageRow } from './feedback.repository';

type ImageMime = FeedbackImage['mime'];
const IMAGE_TYPES = new Set<string>(FEEDBACK_IMAGE_TYPES);
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

/** What the bytes are (magic numbers), whatever the file name or declared type say. */
async function sniffImage(data: Buffer): Promise<ImageMime | null> {
  const type = await fileTypeFromBuffer(data);
  return type && IMAGE_TYPES.has(type.mime) ? (type.mime as ImageMime) : null;
}

/** Width × height from the image's header, in megapixels; null when the header cannot be read. */
function megapixels(data: Buffer): number | null {
  try {
    const { width, height } = imageSize(data);
    return width && height ? (width * height) / 1_000_000 : null;
  } catch {
    return null;
  }
}

/**
 * Reads the multipart form: text fields type, message, email; files image0..image2. Every rule is
 * checked and reported together (400 with `errors` per field); a file over 5 MB is 413.
 */
export async function readFeedbackForm(parts: AsyncIterable<Multipart>): Promise<FeedbackForm> {
  const text: Record<string, string> = {};
  const errors: Record<string, string> = {};
  const files = new Map<string, { position: number; data: Buffer }>();
  try {
    for await (const part of parts) {
      if (part.type === 'file') {
        const data = await part.toBuffer();
        // A form's empty file input arrives as a nameless, empty part: no file.
        if (!part.filename && data.length === 0) continue;
        const position = FEEDBACK_IMAGE_FIELDS.indexOf(part.fieldname);
        if (/^image\d+$/.test(part.fieldname) && position < 0) errors.images = FEEDBACK_MESSAGES.tooManyFiles;
        else if (position < 0) errors[part.fieldname] = 'Unexpected file.';
        else if (files.has(part.fieldname)) errors[part.fieldname] = 'One file per field.';
        else files.set(part.fieldname, { position, data });
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
  const images: Upload[] = [];
  for (const [field, { position, data }] of files) {
    const mime = await sniffImage(data);
    const size = mime ? megapixels(data) : null;
    if (!mime || size === null) errors[field] = FEEDBACK_MESSAGES.notAnImage;
    else if (size > LIMITS.feedbackMaxMegapixels) errors[field] = FEEDBACK_MESSAGES.tooManyPixels;
    else images.push({ field, position, mime, data });
  }
  if (Object.keys(errors).length || !fields.success) throw invalid(errors);
  return {
    type: fields.data.type,
    message: fields.data.message,
    email: fields.data.email ? fields.data.email.toLowerCase() : null,
    images: images.sort((a, b) => a.position - b.position),
  };
}

export async function createFeedback(db: Db, userId: string, form: FeedbackForm): Promise<void> {
  const now = Date.now();
  const id = newId(now);
  const images: FeedbackImageRow[] = form.images.map((img) => ({
    id: newId(now),
    feedback_id: id,
    position: img.position,
    mime: img.mime,
    size: img.data.length,
    data: img.data,
  }));
  await db
    .transaction()
    .execute((trx) =>
      insertFeedback(
        trx,
        { id, user_id: userId, type: form.type, message: form.message, email: form.email, created_at: now },
        images,
      ),
    );
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

export async function feedbackImage(
  db: Db,
  feedbackId: string,
  imageId: string,
): Promise<{ mime: ImageMime; data: Buffer; disposition: string }> {
  const row = await findImage(db, feedbackId, imageId);
  // Only what was sniffed as one of the four image types is ever served, and as that type.
  if (!row || !IMAGE_TYPES.has(row.mime)) throw notFound();
  const mime = row.mime as ImageMime;
  const name = `feedback-${feedbackId}-${row.position}`;
  return { mime, data: Buffer.from(row.data), disposition: attachment(name, `.${EXTENSIONS[mime]}`, 'feedback') };
}
