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
