import {
  isSafeReturnPath,
  leaveLogin,
  markSigningOut,
  redirectToLogin,
  returnPath,
  showLoginPage,
  stashOriginForSso,
  takeStashedOrigin,
} from './location';

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

describe('the origin across the single sign-on round trip (issue 32)', () => {
  beforeEach(() => sessionStorage.clear());

  it('waits in this tab’s storage while the browser is at the provider, read once', () => {
    window.history.replaceState(null, '', '/history');
    redirectToLogin();
    stashOriginForSso();
    window.history.pushState(null, '', '/login/sso'); // the provider brings the browser back here
    expect(returnPath()).toBe('/dashboard');
    window.history.replaceState(takeStashedOrigin(), '', '/login/sso');
    expect(returnPath()).toBe('/history');
    expect(takeStashedOrigin()).toBeNull(); // forgotten once taken
  });

  it('nothing remembered: nothing stashed (an older stash is dropped); an unsafe stash is ignored', () => {
    sessionStorage.setItem('qcSsoFrom', '/old');
    window.history.replaceState(null, '', '/login');
    stashOriginForSso();
    expect(takeStashedOrigin()).toBeNull();
    sessionStorage.setItem('qcSsoFrom', '//evil.example/');
    expect(takeStashedOrigin()).toBeNull();
  });

  it('the sign-in pages are never an origin; /login from /login/sso keeps the origin', () => {
    expect(isSafeReturnPath('/login/sso')).toBe(false);
    expect(isSafeReturnPath('/login/sso#ticket=x')).toBe(false);
    window.history.replaceState({ qcFrom: '/mail/1' }, '', '/login/sso');
    showLoginPage();
    expect(window.location.pathname).toBe('/login');
    expect(returnPath()).toBe('/mail/1');
  });
});
