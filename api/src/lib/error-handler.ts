import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { HttpError } from './http-error';

/** What services that log their own failures need of Fastify's request logger. */
export interface ErrorLogger {
  error(obj: object, msg: string): void;
}

const BAD_REQUEST = 'bad_request';
const RATE_LIMITED = 'rate_limited';

// Fastify's own 4xx errors → our machine codes.
export const FASTIFY_CODES: Record<string, string> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'payload_too_large',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'unsupported_media_type',
  FST_ERR_CTP_EMPTY_JSON_BODY: BAD_REQUEST,
  FST_ERR_CTP_INVALID_JSON_BODY: BAD_REQUEST,
};
const DATABASE_UNAVAILABLE = 'database_unavailable';

/** Every code this handler can produce by itself (checked against @qc/contracts ERROR_CODES). */
export const HANDLER_CODES = [
  ...Object.values(FASTIFY_CODES),
  BAD_REQUEST,
  RATE_LIMITED,
  DATABASE_UNAVAILABLE,
  'validation_error',
  'internal_error',
];

// The database cannot be reached or written for now (not a fault of this request, nor a bug):
// a socket error, PostgreSQL's shutdown and connection classes (57P, 08), the pool's connect
// timeout, SQLite still locked after busy_timeout, a full disk or an I/O error.
const UNAVAILABLE_CODES =
  /^(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EHOSTUNREACH|ENOTFOUND|EAI_AGAIN|EPIPE|57P0[123]|08\d{3}|SQLITE_(BUSY|LOCKED|FULL|IOERR|CANTOPEN|READONLY)(_\w+)?)$/;
const UNAVAILABLE_MESSAGES = /^(Connection terminated|timeout exceeded when trying to connect)/;

export function isDatabaseUnavailable(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return (
    (typeof code === 'string' && UNAVAILABLE_CODES.test(code)) ||
    (typeof message === 'string' && UNAVAILABLE_MESSAGES.test(message))
  );
}

/** Seconds a client (the Haraka plugin, a browser) is asked to wait before trying again. */
export const DATABASE_RETRY_AFTER_S = 5;

function validationErrors(error: FastifyError): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const v of error.validation ?? []) {
    const path = v.instancePath.replace(/^\//, '').replaceAll('/', '.');
    // A field the route does not take (`{"role": "admin"}` to the profile) is named, not dropped in
    // silence: the caller would take the 200 for a change made.
    const unknown = v.keyword === 'unrecognized_keys' ? (v.params as { keys?: unknown }).keys : undefined;
    if (Array.isArray(unknown)) {
      for (const key of unknown)
        errors[path ? `${path}.${String(key)}` : String(key)] ??= 'Not a field of this request.';
      continue;
    }
    const field = path || error.validationContext || 'non_field_errors';
    errors[field] ??= v.message ?? 'Invalid value';
  }
  return errors;
}

/** Every error leaves as DESIGN §4's `{detail, code, errors?}`. */
export function errorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof HttpError) {
    // RFC 9110 §11.6.1: a 401 names the scheme that would be accepted.
    if (error.statusCode === 401) reply.header('www-authenticate', 'Bearer');
    if (error.headers) reply.headers(error.headers);
    // An expected outcome is one line without a stack: a trace says nothing of another system's answer.
    if (error.statusCode >= 500 && error.expected) request.log.warn({ code: error.code }, error.detail);
    else if (error.statusCode >= 500) request.log.error({ err: error }, error.detail);
    return reply.status(error.statusCode).send(error.toBody());
  }
  if (hasZodFastifySchemaValidationErrors(error) || error.validation) {
    return reply
      .status(400)
      .send({ detail: 'The request is not valid.', code: 'validation_error', errors: validationErrors(error) });
  }
  if (request.raw.aborted) {
    // The client went away mid-body (node's "aborted", ECONNRESET): nobody is left to answer, and
    // it is neither a fault of ours nor the database's. One line without a stack, not an error.
    request.log.info({ code: error.code, reason: error.message }, 'request aborted by the client');
    return reply.status(400).send({ detail: 'The request was aborted by the client.', code: BAD_REQUEST });
  }
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    const code = FASTIFY_CODES[error.code] ?? (status === 429 ? RATE_LIMITED : BAD_REQUEST);
    return reply.status(status).send({ detail: error.message, code });
  }
  if (isDatabaseUnavailable(error)) {
    request.log.error({ err: error }, 'database unavailable');
    return reply
      .status(503)
      .header('retry-after', String(DATABASE_RETRY_AFTER_S))
      .send({ detail: 'The database is not answering. Try again shortly.', code: DATABASE_UNAVAILABLE });
  }
  request.log.error({ err: error }, 'unhandled error');
  return reply.status(500).send({ detail: 'Internal server error.', code: 'internal_error' });
}
