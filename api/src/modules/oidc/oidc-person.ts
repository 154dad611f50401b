import { emailAddress, NAME_MAX, type Role } from '@qc/contracts';
import type { OidcConfig } from '../../config';
import type { ExternalPerson } from '../users/external-accounts.service';
import { OidcError, type IdTokenClaims } from './oidc-client';

/** The ID token's claims as a console person (issue 32): pure, so every mapping rule is a unit test. */

const Address = emailAddress();
/** An address the way the console stores it; `smtp:` (Active Directory's proxy form) is dropped. */
function address(raw: unknown): string | null {
  if (typeof raw !== 'string') return null;
  const parsed = Address.safeParse(raw.trim().replace(/^smtp:/i, ''));
  return parsed.success ? parsed.data : null;
}

/** A claim as a list of strings: an array, or one string (some providers send a lone group so). */
export function stringList(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (!Array.isArray(value)) return [];
  return value.filter((v): v is string => typeof v === 'string');
}

/**
 * RFC 8176 method references beyond "something you know" (a PIN is one; a location is no factor):
 * a second factor shown when the provider says `mfa`, or names two methods, one of them these.
 */
const SECOND_FACTORS = new Set([
  'mfa',
  'otp',
  'hwk',
  'swk',
  'sms',
  'tel',
  'fpt',
  'face',
  'iris',
  'retina',
  'vbm',
  'pop',
  'sc',
  'bio',
]);
export function amrShowsSecondFactor(amr: unknown): boolean {
  const methods = new Set(stringList(amr));
  if (methods.has('mfa')) return true;
  return methods.size >= 2 && [...methods].some((m) => SECOND_FACTORS.has(m));
}

/**
 * A claim by name; else, for a name with dots, by path (Keycloak's `realm_access.roles`). The name
 * as it is comes first: namespaced claims are URLs (`https://example.com/roles`).
 */
export function claimAt(claims: Record<string, unknown>, name: string): unknown {
  if (Object.hasOwn(claims, name)) return claims[name];
  if (!name.includes('.')) return undefined;
  let value: unknown = claims;
  for (const part of name.split('.')) {
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, part)) return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

/** The person, or OidcError('email_not_verified') when the provider does not vouch for the e-mail. */
export function personFromClaims(
  claims: IdTokenClaims,
  config: Pick<OidcConfig, 'groupsClaim' | 'adminGroup' | 'domainAdminGroup' | 'aliasesClaim' | 'emailVerifiedClaim'>,
): ExternalPerson {
  const mail = address(claims.email);
  // Only `true` vouches (or the string "true": Amazon Cognito sends its booleans so).
  const verified = claimAt(claims, config.emailVerifiedClaim);
  if (mail && verified !== true && verified !== 'true') {
    throw new OidcError(
      'email_not_verified',
      `${config.emailVerifiedClaim} is ${JSON.stringify(verified)} for ${mail}`,
    );
  }
  const aliases = config.aliasesClaim
    ? [
        ...new Set(
          stringList(claimAt(claims, config.aliasesClaim))
            .map(address)
            .filter((a): a is string => a !== null && a !== mail),
        ),
      ]
    : [];
  const groups = new Set(stringList(claimAt(claims, config.groupsClaim)));
  const inGroup = (group: string | null) => group !== null && groups.has(group);
  const role: Role = inGroup(config.adminGroup) ? 'admin' : inGroup(config.domainAdminGroup) ? 'domain_admin' : 'user';
  const text = (v: unknown) => (typeof v === 'string' ? v.trim().slice(0, NAME_MAX) : '');
  const given = text(claims.given_name);
  const family = text(claims.family_name);
  return {
    source: 'oidc',
    // The subject is unique per issuer only: both make the key.
    externalId: `${claims.iss} ${claims.sub}`,
    mail,
    // Without a vouched-for e-mail, aliases alone do not make a person (their own verification is the claim's).
    aliases: mail ? aliases : [],
    role,
    disabled: false,
    first_name: given || (family ? '' : text(claims.name)),
    last_name: family,
  };
}
