import { z } from 'zod';
import { CursorParam, emptyAsUndefined, PageSizeParam, Role } from './common';

/** Domain administration (DESIGN §4.1): admin only. Names are IDNA A-labels, lower case. */
export const Domain = z.object({
  id: z.string(),
  name: z.string(),
  /** The name as people write it (U-label) when it is an IDN, else the same as `name`. */
  display_name: z.string(),
  description: z.string(),
  users_count: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Domain = z.infer<typeof Domain>;

export const DomainList = z.object({ results: z.array(Domain), next_cursor: z.string().nullable() });
export type DomainList = z.infer<typeof DomainList>;

export const DomainUserSummary = z.object({
  id: z.string(),
  email: z.string(),
  username: z.string(),
  role: Role,
  is_active: z.boolean(),
});
export type DomainUserSummary = z.infer<typeof DomainUserSummary>;

/** GET /api/domains/{id}/: the domain and its first users by e-mail (all of them: GET /api/users/?domain=). */
export const DomainDetail = Domain.extend({ users: z.array(DomainUserSummary) });
export type DomainDetail = z.infer<typeof DomainDetail>;

export const DOMAIN_DETAIL_USERS = 100;
export const DOMAIN_DESCRIPTION_MAX = 500;

const DomainName = z
  .string({ error: 'Domain name is required' })
  .trim()
  .min(1, 'Domain name is required')
  .max(253, 'Invalid domain name');
const Description = z.string().trim().max(DOMAIN_DESCRIPTION_MAX, `At most ${DOMAIN_DESCRIPTION_MAX} characters`);

/** POST /api/domains/: 201 the domain; an invalid (IDN) host name is 400 errors.name, a duplicate 409. */
export const DomainCreate = z.object({ name: DomainName, description: Description.optional() }).strict();
export type DomainCreate = z.infer<typeof DomainCreate>;

/** PATCH /api/domains/{id}/ */
export const DomainUpdate = z.object({ name: DomainName.optional(), description: Description.optional() }).strict();
export type DomainUpdate = z.infer<typeof DomainUpdate>;

/** GET /api/domains/: `q` matches the start of the name; sorted by name. */
export const DomainListQuery = z
  .object({
    q: z.preprocess(emptyAsUndefined, z.string().trim().max(253).optional()),
    cursor: CursorParam,
    page_size: PageSizeParam,
  })
  .strict();
export type DomainListQuery = z.infer<typeof DomainListQuery>;

/** Spec §5's message, the `detail` of 409 domain_has_users. */
export const DOMAIN_HAS_USERS_MESSAGE = 'Cannot delete a domain with associated users; delete the users first';
