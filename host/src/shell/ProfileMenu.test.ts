import { initials } from './ProfileMenu';

describe('avatar initials (spec §3)', () => {
  it('uses the username initials, U by default', () => {
    expect(initials('jane.doe')).toBe('JD');
    expect(initials('admin')).toBe('A');
    expect(initials('mary ann smith')).toBe('MA');
    expect(initials('')).toBe('U');
    expect(initials(null)).toBe('U');
  });
});
