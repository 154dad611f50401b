import { HttpError } from '../../lib/http-error';

/** The console's key of a directory person: their DN, without case or spaces after commas. */
export const dnKey = (dn: string) => dn.replace(/,\s+/g, ',').toLowerCase();

export const directoryUnavailable = () =>
  new HttpError(503, 'directory_unavailable', 'The directory cannot be reached; local accounts can still sign in.');
