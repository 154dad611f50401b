import { HttpError } from '../../lib/http-error';
import { normaliseDn } from './directory';

/** The console's key of a directory person (users.external_id): their DN, normalised. */
export const dnKey = normaliseDn;

export const directoryUnavailable = () =>
  new HttpError(503, 'directory_unavailable', 'The directory cannot be reached; local accounts can still sign in.');
