import { FEEDBACK_IMAGE_TYPES, FEEDBACK_MESSAGES, LIMITS, type FeedbackImage } from '@qc/contracts';
import { fileTypeFromBuffer } from 'file-type';
import { imageSize } from 'image-size';
import sharp from 'sharp';

export type ImageMime = FeedbackImage['mime'];
const IMAGE_TYPES = new Set<string>(FEEDBACK_IMAGE_TYPES);
const MAX_PIXELS = LIMITS.feedbackMaxMegapixels * 1_000_000;

// libvips keeps decoded images in a cache for reuse: uploads are decoded once, so it only holds memory.
sharp.cache(false);

/** Declared part types that say nothing about the bytes (a browser's default for an unknown file). */
const GENERIC_TYPES = new Set(['', 'application/octet-stream', 'binary/octet-stream']);
const ALIASES: Record<string, string> = { 'image/jpg': 'image/jpeg', 'image/pjpeg': 'image/jpeg' };

export const isImageMime = (mime: string): mime is ImageMime => IMAGE_TYPES.has(mime);

/** What the bytes are (magic numbers), whatever the file name or declared type say. */
export async function sniffImage(data: Buffer): Promise<ImageMime | null> {
  const type = await fileTypeFromBuffer(data);
  return type && isImageMime(type.mime) ? type.mime : null;
}

/** Does the part's declared type contradict what its bytes are? A generic type contradicts nothing. */
export function declaredTypeContradicts(declared: string | undefined, sniffed: ImageMime): boolean {
  const type = (declared ?? '').split(';')[0]!.trim().toLowerCase();
  if (GENERIC_TYPES.has(type)) return false;
  return (ALIASES[type] ?? type) !== sniffed;
}

/** Width × height from the image's header, in megapixels; null when the header cannot be read. */
export function megapixels(data: Buffer): number | null {
  try {
    const { width, height } = imageSize(data);
    return width && height ? (width * height) / 1_000_000 : null;
  } catch {
    return null;
  }
}

export type Reencoded = { data: Buffer } | { error: string };

/**
 * Decodes the image and encodes its pixels again in the same format. What is not pixels goes: EXIF
 * (GPS, camera serials), XMP, ICC, PNG text chunks, GIF comments and anything after the image's end
 * (the HTML of a polyglot). A file that does not decode is no image. The header's size was checked
 * before (a decompression bomb is never decoded); the frames of an animation count too.
 */
export async function reencodeImage(data: Buffer, mime: ImageMime): Promise<Reencoded> {
  const animated = mime === 'image/gif' || mime === 'image/webp';
  const options = { animated, failOn: 'error' as const, limitInputPixels: MAX_PIXELS };
  try {
    const meta = await sharp(data, options).metadata();
    const frames = animated ? (meta.pages ?? 1) : 1;
    if (!meta.width || !meta.height) return { error: FEEDBACK_MESSAGES.notAnImage };
    if (meta.width * (meta.pageHeight ?? meta.height) * frames > MAX_PIXELS) {
      return { error: FEEDBACK_MESSAGES.tooManyPixels };
    }
    // EXIF orientation goes with the metadata: turn the pixels the way it said first.
    const image = sharp(data, options).autoOrient();
    const out =
      mime === 'image/png'
        ? image.png()
        : mime === 'image/jpeg'
          ? image.jpeg({ quality: 90 })
          : mime === 'image/gif'
            ? image.gif()
            : image.webp({ quality: 90 });
    return { data: await out.toBuffer() };
  } catch {
    return { error: FEEDBACK_MESSAGES.notAnImage };
  }
}
