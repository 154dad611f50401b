/**
 * The invitation page's texts (key `invitation` of the `host` namespace), French: registered by that
 * page's lazy chunk (registerInvitationStrings), so /login never downloads them. Keys mirror
 * invitation.en.ts.
 */
const invitation = {
  title: 'Choisir votre mot de passe',
  description:
    'Vous avez été invité à utiliser Quarantine Console. Choisissez le mot de passe de votre compte pour terminer.',
  password: 'Nouveau mot de passe',
  confirm: 'Confirmer le mot de passe',
  password_required: 'Veuillez saisir un mot de passe',
  too_short: 'Le mot de passe doit contenir au moins {{min}} caractères',
  too_long: 'Le mot de passe doit contenir au plus {{max}} caractères',
  confirm_required: 'Veuillez confirmer le mot de passe',
  mismatch: 'Les mots de passe ne correspondent pas',
  submit: 'Enregistrer le mot de passe',
  success: 'Mot de passe enregistré. Vous pouvez maintenant vous connecter.',
  error: 'Le mot de passe n’a pas pu être enregistré.',
  link_title: 'Lien d’invitation inutilisable',
  invalid:
    'Ce lien d’invitation a déjà été utilisé ou n’est pas valide. Demandez une nouvelle invitation à votre administrateur.',
  expired: 'Ce lien d’invitation a expiré. Demandez une nouvelle invitation à votre administrateur.',
  missing_token: 'Ce lien est incomplet\u00a0: ouvrez le lien complet reçu par e-mail.',
  to_login: 'Aller à la page de connexion',
};
export default invitation;
