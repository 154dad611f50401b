import { loadConfig } from '../../config';
import { amrShowsSecondFactor, claimAt, personFromClaims, stringList } from './oidc-person';

// The ID token's claims as a person (pure): every mapping rule, and the configuration's guards.
const config = {
  groupsClaim: 'groups',
  adminGroup: 'qc-admins',
  domainAdminGroup: 'qc-domain-admins',
  aliasesClaim: 'mail_aliases',
  emailVerifiedClaim: 'email_verified',
};
const base = { iss: 'https://sso.example', sub: 'abc', email: 'Ann@Example.com', email_verified: true };

test('a person: normalised e-mail, aliases without repeats or non-addresses, names, key from issuer and subject', () => {
  const person = personFromClaims(
    {
      ...base,
      mail_aliases: ['ann.lee@example.com', 'SMTP:Sales@Example.com', 'ann@example.com', 'not an address', 42],
      given_name: 'Ann',
      family_name: 'Lee',
    },
    config,
  );
  expect(person).toEqual({
    source: 'oidc',
    externalId: 'https://sso.example abc',
    mail: 'ann@example.com',
    aliases: ['ann.lee@example.com', 'sales@example.com'],
    role: 'user',
    disabled: false,
    first_name: 'Ann',
    last_name: 'Lee',
  });
  expect(personFromClaims({ ...base, name: 'Ann Lee' }, config)).toMatchObject({
    first_name: 'Ann Lee',
    last_name: '',
  });
});

test('the e-mail must be vouched for: true (or "true"), by the configured claim', () => {
  for (const v of [false, 'false', 1, undefined, null, 'yes']) {
    expect(() => personFromClaims({ ...base, email_verified: v }, config)).toThrow(
      expect.objectContaining({ code: 'email_not_verified' }),
    );
  }
  expect(personFromClaims({ ...base, email_verified: 'true' }, config).mail).toBe('ann@example.com');
  const entra = { ...config, emailVerifiedClaim: 'xms_edov' };
  expect(() => personFromClaims(base, entra)).toThrow(expect.objectContaining({ code: 'email_not_verified' }));
  expect(personFromClaims({ ...base, xms_edov: true }, entra).mail).toBe('ann@example.com');
});

test('roles from the groups claim (exact values; a lone string too); admin wins over domain_admin', () => {
  const role = (groups: unknown) => personFromClaims({ ...base, groups }, config).role;
  expect(role(['qc-admins', 'qc-domain-admins'])).toBe('admin');
  expect(role(['qc-domain-admins'])).toBe('domain_admin');
  expect(role('qc-admins')).toBe('admin');
  expect(role(['QC-ADMINS', '/qc-admins', 'qc-admins '])).toBe('user');
  expect(role(undefined)).toBe('user');
  const nested = { ...config, groupsClaim: 'realm_access.roles' };
  expect(personFromClaims({ ...base, realm_access: { roles: ['qc-admins'] } }, nested).role).toBe('admin');
  expect(personFromClaims({ ...base, realm_access: {} }, nested).role).toBe('user');
});

test('claimAt: the name as it is first (namespaced URLs have dots), then a path; never the prototype', () => {
  expect(claimAt({ 'https://example.com/roles': ['a'] }, 'https://example.com/roles')).toEqual(['a']);
  expect(claimAt({ a: { b: { c: 1 } } }, 'a.b.c')).toBe(1);
  expect(claimAt({ a: 1 }, 'a.b')).toBeUndefined();
  expect(claimAt({}, 'constructor')).toBeUndefined();
  expect(claimAt({ a: {} }, 'a.constructor')).toBeUndefined();
  expect(stringList(['x', 1, null, 'y'])).toEqual(['x', 'y']);
});

test('a second factor: mfa, or two methods one of which is a factor beyond a password', () => {
  expect(amrShowsSecondFactor(['mfa'])).toBe(true);
  expect(amrShowsSecondFactor(['pwd', 'otp'])).toBe(true);
  expect(amrShowsSecondFactor(['pwd', 'hwk'])).toBe(true);
  expect(amrShowsSecondFactor(['pwd'])).toBe(false);
  expect(amrShowsSecondFactor(['otp'])).toBe(false);
  expect(amrShowsSecondFactor(['pwd', 'pin'])).toBe(false);
  expect(amrShowsSecondFactor(['pwd', 'geo'])).toBe(false);
  expect(amrShowsSecondFactor('mfa')).toBe(true);
  expect(amrShowsSecondFactor(undefined)).toBe(false);
});

test('configuration: issuer and public URL over https (loopback addresses only may be http), client required', () => {
  const env = (extra: Record<string, string>) => ({
    QC_DATA_DIR: '/tmp/qc-oidc-config-test',
    QC_SECRET_KEY: 'f3a9c1e07b4d4e8a9c61a11ce0000001b0b0000002ca40100000',
    QC_OIDC_CLIENT_ID: 'c',
    QC_OIDC_CLIENT_SECRET: 's',
    ...extra,
  });
  const load = (extra: Record<string, string>) => () => loadConfig(env(extra), '/tmp');
  expect(load({ QC_OIDC_ISSUER: 'http://sso.example/realms/x' })).toThrow(/QC_OIDC_ISSUER: must be https/);
  expect(load({ QC_OIDC_ISSUER: 'http://127.evil.example/realms/x' })).toThrow(/QC_OIDC_ISSUER: must be https/);
  expect(load({ QC_OIDC_ISSUER: 'https://sso.example', QC_PUBLIC_URL: 'http://console.example' })).toThrow(
    /QC_PUBLIC_URL: single sign-on needs an https/,
  );
  expect(load({ QC_OIDC_ISSUER: 'https://sso.example', QC_OIDC_CLIENT_SECRET: '' })).toThrow(
    /QC_OIDC_CLIENT_SECRET: required/,
  );
  expect(load({ QC_OIDC_ISSUER: 'https://sso.example', QC_OIDC_SCOPES: 'email profile' })).toThrow(/include openid/);
  const ok = loadConfig(
    env({ QC_OIDC_ISSUER: 'http://127.0.0.1:5556/dex', QC_PUBLIC_URL: 'http://127.0.0.1:8080' }),
    '/tmp',
  );
  expect(ok.oidc).toMatchObject({
    issuer: 'http://127.0.0.1:5556/dex',
    scopes: ['openid', 'email', 'profile'],
    label: 'SSO',
  });
  expect(loadConfig(env({}), '/tmp').oidc).toBeNull();
});
