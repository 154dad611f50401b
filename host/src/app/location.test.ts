import { isSafeReturnPath, leaveLogin, markSigningOut, redirectToLogin, returnPath } from './location';

beforeEach(() => window.history.replaceState(null, '', '/'));

describe('login redirects outside the router (spec §2)', () => {
  it('remembers the origin of an unauthenticated visit and returns to it after sign-in', () => {
    window.history.replaceState(null, '', '/mail/42?tab=raw#top');
    redirectToLogin();
    expect(window.location.pathname).toBe('/login');
    expect(returnPath()).toBe('/mail/42?tab=raw#top');
    leaveLogin();
    expect(`${window.location.pathname}${window.location.search}${window.location.hash}`).toBe('/mail/42?tab=raw#top');
  });

  it('goes to /dashboard when nothing (or something unsafe) was remembered', () => {
    window.history.replaceState(null, '', '/login');
    expect(returnPath()).toBe('/dashboard');
    window.history.replaceState({ qcFrom: '//evil.example/x' }, '', '/login');
    expect(returnPath()).toBe('/dashboard');
    expect(isSafeReturnPath('/login')).toBe(false);
    expect(isSafeReturnPath('https://evil.example/')).toBe(false);
    expect(isSafeReturnPath('/history')).toBe(true);
  });

  it('a sign-out does not remember where the user was', () => {
    window.history.replaceState(null, '', '/settings');
    markSigningOut();
    redirectToLogin();
    expect(window.location.pathname).toBe('/login');
    expect(returnPath()).toBe('/dashboard');
  });
});
