import type sso from './sso.fr';

/** Single sign-on texts, English (see sso.fr.ts). */
const en: typeof sso = {
  signing_in: 'Signing you in…',
  errors: {
    cancelled: 'The sign-in at the identity provider was cancelled.',
    no_domain: 'None of your addresses is in one of this console’s domains. Ask an administrator for access.',
    address_conflict:
      'One of your addresses already belongs to another account of this console. Contact your administrator.',
    account_inactive: 'Your account is disabled. Contact your administrator.',
    email_not_verified:
      'The identity provider does not vouch for your e-mail address. Have it verified there, or contact your administrator.',
    provider_unreachable:
      'The identity provider did not answer. Try again later; you can also sign in with a console password.',
    clock_skew: 'This server’s clock and the identity provider’s disagree. Contact your administrator.',
    invalid_response: 'The identity provider’s answer could not be verified. Try again.',
    expired: 'The sign-in took too long, or was started in another browser. Start again.',
    provider_error: 'The identity provider refused the sign-in. Try again or contact your administrator.',
    not_configured: 'Single sign-on is not set up on this console.',
    rate_limited: 'Too many sign-ins were started from your network. Try again in a few minutes.',
    unknown: 'Single sign-on failed. Try again, or sign in with your password.',
  },
};

export default en;
