import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../app-context';
import { currentAuth, requireAuthHook, requireRoleHook } from '../auth/authenticate';
import { actorOf } from '../history/audit.service';

/** What the three kinds of rule routes share: the admin-only hooks, the actor, the OpenAPI texts. */

export const security = [{ bearer: [] }];
export const tags = ['rspamd'];

// Role checked before the query or body is validated: a domain_admin or user learns nothing but 403.
export const adminOnly = (ctx: AppContext) => [requireAuthHook(ctx), requireRoleHook('admin')];

/** Who acts, from where (request.ip honours X-Forwarded-For only from QC_TRUSTED_PROXIES). */
export const actor = (request: FastifyRequest) => actorOf(currentAuth(request), request.ip ?? null);

export const isDryRun = (query: { dry_run?: 'true' | 'false' }) => query.dry_run === 'true';

export const REGEX_TEXT =
  'A regex is written `/source/flags` (flags among `i`, `m`, `s`, `u`) or as a bare source, stored ' +
  "`/source/i`; at most 256 characters. Refused (400): what Rspamd's Hyperscan cannot run " +
  '(backreferences `\\1` `\\k<n>`, lookaround `(?=` `(?!` `(?<=` `(?<!`, possessive, atomic, conditionals, ' +
  'inline flags, Unicode properties) and anything that can backtrack catastrophically (`(a+)+`, `(a|aa)*`, ' +
  '`(.*a){20}`).';

export const CONFLICT_TEXT =
  'One rule per value: a second rule with the same stored value is 409 `filter_exists` when it has the ' +
  'same action, `filter_conflict` when its action differs (accept vs reject: Rspamd would apply whichever ' +
  'it saw first); the `detail` names the other rule: `#<id> <value> (<action>, "<description>")`.';

export const DRY_RUN_TEXT =
  '`?dry_run=true`: validated, normalised and checked for conflicts, nothing saved and nothing in the ' +
  'history; the answer (200) is the rule as it would be stored (a new rule has the id "").';

export const CHANGE_TEXT =
  'Every change bumps the version of the list Rspamd fetches (in the same transaction) and is written ' +
  'to the history (filter_create/update/delete) with its actor.';

export const BULK_TEXT =
  'The same change on each id (at most 200), in one transaction: `results` has one entry per distinct id, ' +
  '`ok` or `not_found` (unknown, or not of this kind or family). A rule already in the asked state is `ok`, ' +
  'unchanged. Each rule changed gets its history row.';
