import { z } from 'zod';
import { int, isLoopbackHost, optional } from './config-env';

/**
 * Single sign-on with an OpenID Provider (issue 32): QC_OIDC_*; null when QC_OIDC_ISSUER is unset.
 * The client secret stays here (never in a page, a log or a URL).
 */
export interface OidcConfig {
  /** The issuer identifier, as the provider's discovery document must repeat it. */
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Always with `openid`. */
  scopes: string[];
  /** The ID token claim that lists the person's groups (Keycloak `groups`, Entra ID `groups` or `roles`). */
  groupsClaim: string;
  adminGroup: string | null;
  domainAdminGroup: string | null;
  /** A claim with the person's other addresses (an array or one string); null: the e-mail only. */
  aliasesClaim: string | null;
  /** The boolean claim that vouches for `email` (`email_verified`; Entra ID: `xms_edov`). */
  emailVerifiedClaim: string;
  label: string;
  /** The provider's second factor (ID token `amr`) meets the console's two-factor policy. */
  trustMfa: boolean;
  /** Per request to the provider (discovery, keys, token). */
  timeoutMs: number;
  /** Seconds a single sign-on lasts at most (the provider is not asked again meanwhile). */
  sessionMaxAge: number;
}

const claimName = z.string().regex(/^[A-Za-z0-9_.:/-]{1,100}$/, 'must be a claim name (letters, digits, _ . : / -)');

/** The QC_OIDC_* variables (part of config.ts's EnvSchema). */
export const OIDC_ENV = {
  QC_OIDC_ISSUER: z
    .url({
      protocol: /^https?$/,
      error: 'must be the provider’s issuer URL, e.g. https://login.example.com/realms/staff',
    })
    .optional(),
  QC_OIDC_CLIENT_ID: optional,
  QC_OIDC_CLIENT_SECRET: optional,
  QC_OIDC_SCOPES: z
    .string()
    .default('openid email profile')
    .transform((v) => [...new Set(v.split(/[\s,]+/).filter(Boolean))])
    .refine((list) => list.includes('openid'), 'must include openid'),
  QC_OIDC_GROUPS_CLAIM: claimName.default('groups'),
  QC_OIDC_ADMIN_GROUP: optional,
  QC_OIDC_DOMAIN_ADMIN_GROUP: optional,
  QC_OIDC_ALIASES_CLAIM: claimName.optional(),
  QC_OIDC_EMAIL_VERIFIED_CLAIM: claimName.default('email_verified'),
  QC_OIDC_LABEL: z.string().trim().min(1).max(60).default('SSO'),
  QC_OIDC_TRUST_MFA: z.stringbool({ error: 'must be true or false' }).default(false),
  QC_OIDC_TIMEOUT_MS: int(5000, 500, 30000),
  QC_OIDC_SESSION_MAX_AGE: int(43_200, 300, 30 * 86_400),
};

/** The provider's settings, or null when QC_OIDC_ISSUER is unset (the other QC_OIDC_* are then ignored). */
export function oidcConfig(
  e: z.infer<z.ZodObject<typeof OIDC_ENV>>,
  publicUrl: string,
  fail: (problems: string[]) => Error,
): OidcConfig | null {
  if (!e.QC_OIDC_ISSUER) return null;
  const problems: string[] = [];
  if (!e.QC_OIDC_CLIENT_ID) problems.push('QC_OIDC_CLIENT_ID: required with QC_OIDC_ISSUER');
  if (!e.QC_OIDC_CLIENT_SECRET) problems.push('QC_OIDC_CLIENT_SECRET: required with QC_OIDC_ISSUER');
  const issuer = new URL(e.QC_OIDC_ISSUER);
  // Tokens and the client secret travel to it: in clear only on this machine's loopback.
  if (issuer.protocol === 'http:' && !isLoopbackHost(issuer.hostname)) {
    problems.push('QC_OIDC_ISSUER: must be https:// (plain http:// is for loopback only)');
  }
  if (issuer.search || issuer.hash || issuer.username || issuer.password) {
    problems.push('QC_OIDC_ISSUER: an issuer has no query, fragment or user info');
  }
  const pub = new URL(publicUrl);
  if (pub.protocol === 'http:' && !isLoopbackHost(pub.hostname)) {
    problems.push('QC_PUBLIC_URL: single sign-on needs an https:// public URL (its callback carries the code)');
  }
  if (problems.length) throw fail(problems);
  return {
    // As given (a trailing slash is part of some issuers' identifier, Entra ID's v2.0 included).
    issuer: e.QC_OIDC_ISSUER,
    clientId: e.QC_OIDC_CLIENT_ID!,
    clientSecret: e.QC_OIDC_CLIENT_SECRET!,
    scopes: e.QC_OIDC_SCOPES,
    groupsClaim: e.QC_OIDC_GROUPS_CLAIM,
    adminGroup: e.QC_OIDC_ADMIN_GROUP ?? null,
    domainAdminGroup: e.QC_OIDC_DOMAIN_ADMIN_GROUP ?? null,
    aliasesClaim: e.QC_OIDC_ALIASES_CLAIM ?? null,
    emailVerifiedClaim: e.QC_OIDC_EMAIL_VERIFIED_CLAIM,
    label: e.QC_OIDC_LABEL,
    trustMfa: e.QC_OIDC_TRUST_MFA,
    timeoutMs: e.QC_OIDC_TIMEOUT_MS,
    sessionMaxAge: e.QC_OIDC_SESSION_MAX_AGE,
  };
}
