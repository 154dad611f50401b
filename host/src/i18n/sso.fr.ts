/**
 * Single sign-on texts (issue 32, key `sso` of the `host` namespace), French. Registered by the
 * lazy "sso" chunk (/login/sso, and /login?sso_error=), so /login's first load carries none of them.
 * Keys mirror sso.en.ts exactly (a test checks); `errors` has one text per SSO_ERRORS code.
 */
const sso = {
  signing_in: 'Connexion en cours…',
  errors: {
    cancelled: 'La connexion auprès du fournisseur d’identité a été annulée.',
    no_domain:
      'Aucune de vos adresses n’appartient à un domaine de cette console. Demandez l’accès à un administrateur.',
    address_conflict:
      'Une de vos adresses appartient déjà à un autre compte de la console. Contactez votre administrateur.',
    account_inactive: 'Votre compte est désactivé. Contactez votre administrateur.',
    email_not_verified:
      'Le fournisseur d’identité ne garantit pas votre adresse e-mail. Faites-la vérifier auprès de lui, ou contactez votre administrateur.',
    provider_unreachable:
      'Le fournisseur d’identité n’a pas répondu. Réessayez plus tard\u00a0; vous pouvez aussi vous connecter avec un mot de passe de la console.',
    clock_skew:
      'L’heure de ce serveur et celle du fournisseur d’identité ne concordent pas. Contactez votre administrateur.',
    invalid_response: 'La réponse du fournisseur d’identité n’a pas pu être vérifiée. Réessayez.',
    expired: 'La connexion a pris trop de temps ou a été commencée dans un autre navigateur. Recommencez.',
    provider_error: 'Le fournisseur d’identité a refusé la connexion. Réessayez ou contactez votre administrateur.',
    not_configured: 'La connexion unique n’est pas configurée sur cette console.',
    rate_limited: 'Trop de connexions ont été lancées depuis votre réseau. Réessayez dans quelques minutes.',
    unknown: 'La connexion unique a échoué. Réessayez ou connectez-vous avec votre mot de passe.',
  },
};

export default sso;
