import { getTokenExpiry, isTokenExpired } from './jwt';
import { makeJwt } from './test-utils/http';

describe('JWT expiry (spec §4: exp in seconds must be in the future)', () => {
  it('reads exp and treats a future exp as valid', () => {
    const token = makeJwt(60);
    expect(getTokenExpiry(token)).toBeGreaterThan(Date.now() / 1000);
    expect(isTokenExpired(token)).toBe(false);
  });

  it('treats an exp in the past or exactly now as expired', () => {
    expect(isTokenExpired(makeJwt(-1))).toBe(true);
    const token = makeJwt(0);
    expect(isTokenExpired(token, getTokenExpiry(token)! * 1000)).toBe(true);
  });

  it('treats missing, malformed or exp-less tokens as expired', () => {
    expect(isTokenExpired(null)).toBe(true);
    expect(isTokenExpired('not-a-jwt')).toBe(true);
    const noExp = `${Buffer.from('{}').toString('base64url')}.${Buffer.from('{"sub":"x"}').toString('base64url')}.s`;
    expect(isTokenExpired(noExp)).toBe(true);
  });
});
