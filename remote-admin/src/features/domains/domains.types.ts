/** Domain types from @qc/contracts (types only, like users.types.ts); the limit is mirrored. */
export type { Domain, DomainList, DomainDetail, DomainUserSummary, DomainCreate, DomainUpdate } from '@qc/contracts';

/** Mirrors DOMAIN_DESCRIPTION_MAX of @qc/contracts (checked by a test). */
export const DOMAIN_DESCRIPTION_MAX = 500;
/** A host name is at most 253 characters (the API's own limit). */
export const DOMAIN_NAME_MAX = 253;
