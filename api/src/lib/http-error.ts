import type { ApiError } from '@qc/contracts';

/** An answer of DESIGN §4's error shape; thrown by services, rendered by the app's error handler. */
export class HttpError extends Error {
  /** A 5xx that is another system's expected answer (a relay's refusal): a warning, not an error. */
  readonly expected: boolean = false;

  constructor(
    readonly statusCode: number,
    readonly code: string,
    readonly detail: string,
    readonly errors?: Record<string, string>,
    readonly headers?: Record<string, string>,
  ) {
    super(detail);
    this.name = 'HttpError';
  }

  toBody(): ApiError {
    return this.errors
      ? { detail: this.detail, code: this.code, errors: this.errors }
      : { detail: this.detail, code: this.code };
  }
}

export const unauthorized = (code: string, detail: string) => new HttpError(401, code, detail);
export const forbidden = (detail = 'You do not have permission to do this.') => new HttpError(403, 'forbidden', detail);
export const notFound = (detail = 'Not found.') => new HttpError(404, 'not_found', detail);
