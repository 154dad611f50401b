import { HttpError } from './http-error';

// What busboy (under @fastify/multipart) throws on a body that is not the multipart it claims to be.
const MALFORMED =
  /^(Multipart: Boundary not found|Boundary required|Unexpected end of multipart data|.* terminated early due to unexpected end of multipart data)$/;

/**
 * A multipart body with no boundary, or cut short, is the client's mistake: a 400 that says so,
 * not a 500 with a stack trace in the error log. Any other error is returned as it is.
 */
export function malformedMultipart(err: unknown): unknown {
  return err instanceof Error && MALFORMED.test(err.message)
    ? new HttpError(400, 'bad_request', 'The multipart body could not be read.')
    : err;
}

/**
 * Runs `read` (which pipes the request into the multipart parser) and stops it once more than
 * `limit` bytes of body have arrived: busboy would otherwise read a chunked 500 MB body to its end
 * (an over-long text field is only truncated). Rejects with `tooLarge()`; the request is unpiped and
 * paused, and the app closes the connection with the answer instead of draining the rest.
 */
export async function withinBodyLimit<T>(
  raw: import('node:http').IncomingMessage,
  limit: number,
  read: () => Promise<T>,
  tooLarge: () => Error,
): Promise<T> {
  let seen = 0;
  let onData: (chunk: Buffer) => void = () => {};
  const over = new Promise<never>((_, reject) => {
    onData = (chunk) => {
      seen += chunk.length;
      if (seen <= limit) return;
      raw.off('data', onData);
      raw.unpipe();
      raw.pause();
      reject(tooLarge());
    };
  });
  const reading = read();
  raw.on('data', onData);
  // The loser settles later (the parser ends when the connection closes): never an unhandled rejection.
  reading.catch(() => {});
  over.catch(() => {});
  try {
    return await Promise.race([reading, over]);
  } finally {
    raw.off('data', onData);
  }
}
