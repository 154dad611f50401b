/**
 * Two-factor texts, French: the profile's MFA section and the set-up step a sign-in may require. Part
 * of the `host` namespace (key `mfa`), in the protected pages' texts (shell.fr.ts) and registered on
 * its own by the lazy set-up step of /login (registerMfaStrings). Keys mirror mfa.en.ts.
 */
const mfa = {
  title: 'Authentification à deux facteurs',
  status_on: 'Activée',
  status_off: 'Désactivée',
  description_off:
    'Protégez votre compte\u00a0: à chaque connexion, un code à 6 chiffres de votre application d’authentification vous sera demandé.',
  description_on:
    'Un code de votre application d’authentification (ou un code de secours) est demandé à chaque connexion.',
  enable: 'Activer',
  disable: 'Désactiver',
  regenerate: 'Nouveaux codes de secours',
  cancel: 'Annuler',
  next: 'Suivant',
  back: 'Retour',
  retry: 'Réessayer',
  enable_title: 'Activer l’authentification à deux facteurs',
  steps: { scan: 'Scanner', verify: 'Vérifier', codes: 'Codes de secours' },
  scan_help:
    'Scannez ce QR code avec votre application d’authentification (Google Authenticator, Microsoft Authenticator, Aegis, 1Password…).',
  qr_label: 'QR code à scanner avec l’application d’authentification',
  manual: 'Impossible de scanner\u202f? Saisissez cette clé dans l’application\u00a0:',
  setup_error: 'La configuration n’a pas pu démarrer.',
  code: 'Code à 6 chiffres',
  code_help: 'Saisissez le code affiché par l’application pour confirmer.',
  code_invalid: 'Le code doit contenir exactement 6 chiffres',
  code_wrong: 'Code TOTP invalide. Vérifiez l’horloge de votre appareil puis réessayez.',
  verify_submit: 'Activer',
  codes_help:
    'Conservez ces codes de secours en lieu sûr\u00a0: chacun permet une connexion si vous n’avez plus votre application. Ils ne seront plus jamais affichés.',
  codes_label: 'Codes de secours',
  copy: 'Copier',
  copied: 'Codes copiés dans le presse-papiers',
  copy_failed: 'Les codes n’ont pas pu être copiés\u00a0: téléchargez-les plutôt.',
  download: 'Télécharger (.txt)',
  saved: 'J’ai enregistré ces codes',
  done: 'Terminer',
  file_header: 'Quarantine Console\u00a0: codes de secours de {{account}} (chaque code ne fonctionne qu’une fois)',
  password: 'Mot de passe',
  password_required: 'Veuillez saisir votre mot de passe',
  password_wrong: 'Mot de passe incorrect',
  password_help_directory:
    'Le mot de passe de l’annuaire de votre organisation, celui avec lequel vous vous connectez.',
  app_code: 'Code de l’application d’authentification',
  app_code_help_sso:
    'Vous vous connectez par l’authentification unique (SSO) de votre organisation\u00a0: la console n’a pas de mot de passe pour votre compte et demande donc un code de votre application à la place.',
  app_code_wrong:
    'Ce code n’est pas valide ou a déjà servi. Attendez le code suivant de votre application puis réessayez.',
  disable_title: 'Désactiver l’authentification à deux facteurs',
  disable_help:
    'Saisissez votre mot de passe pour confirmer. Vos codes de secours seront supprimés et vos autres sessions fermées.',
  disable_help_code:
    'Saisissez le code affiché par votre application d’authentification pour confirmer. Vos codes de secours seront supprimés et vos autres sessions fermées.',
  disable_submit: 'Désactiver',
  regenerate_title: 'Générer de nouveaux codes de secours',
  regenerate_help:
    'Saisissez votre mot de passe pour confirmer. Les codes actuels ne fonctionneront plus et vos autres sessions seront fermées.',
  regenerate_help_code:
    'Saisissez le code affiché par votre application d’authentification pour confirmer. Les codes actuels ne fonctionneront plus et vos autres sessions seront fermées.',
  regenerate_submit: 'Générer',
  enabled: 'Authentification à deux facteurs activée avec succès',
  disabled: 'Authentification à deux facteurs désactivée',
  regenerated: 'Nouveaux codes de secours générés',
  error: 'Erreur d’authentification à deux facteurs',
  verify_error: 'Erreur lors de la vérification du code TOTP',
  setup_expired: 'La configuration a expiré\u00a0: scannez le nouveau QR code.',
  mandatory:
    'L’authentification à deux facteurs est obligatoire pour votre compte\u00a0: elle ne peut pas être désactivée.',
  required_help:
    'Votre compte exige l’authentification à deux facteurs. Configurez-la maintenant pour terminer la connexion.',
  continue: 'Continuer',
};
export default mfa;
