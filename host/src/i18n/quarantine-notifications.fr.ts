/**
 * Quarantine notification settings (issue 20), French: the settings page's section. Part of the
 * `host` namespace (key `quarantine_notifications`) in the protected pages' texts (shell.fr.ts).
 * Keys mirror quarantine-notifications.en.ts.
 */
const quarantineNotifications = {
  title: 'Notifications de quarantaine',
  description:
    'Un e-mail récapitulatif des messages retenus pour vous, avec des liens pour les relâcher, autoriser l’expéditeur ou les supprimer.',
  enabled: 'Recevoir les notifications',
  frequency: 'Fréquence',
  frequencies: { daily: 'Quotidienne', weekly: 'Hebdomadaire', monthly: 'Mensuelle', never: 'Jamais' },
  frequency_help: {
    daily: 'Chaque jour à l’heure choisie.',
    weekly: 'Chaque lundi à l’heure choisie.',
    monthly: 'Le 1er de chaque mois à l’heure choisie.',
    never: 'Aucun récapitulatif ne sera envoyé.',
  },
  send_time: 'Heure d’envoi',
  send_time_placeholder: 'HH:MM',
  time_zone: 'Fuseau horaire',
  time_zone_search: 'Rechercher un fuseau horaire',
  time_zone_browser: 'Proposé d’après votre navigateur\u00a0: enregistrez pour l’adopter.',
  no_time_zone: 'Aucun fuseau horaire trouvé',
  language: 'Langue des e-mails',
  domain_digest: 'M’envoyer aussi le récapitulatif de mon domaine',
  domain_digest_help: 'Les messages retenus pour tous les destinataires de votre domaine.',
  off: 'Les notifications sont désactivées\u00a0: aucun récapitulatif ne sera envoyé.',
  last_sent: 'Dernier envoi',
  never_sent: 'jamais',
  last_failed_title: 'La dernière tentative d’envoi a échoué',
  last_failed_body: 'Un nouvel essai aura lieu au prochain envoi.',
  relay_answer: 'Réponse du relais\u00a0: {{answer}}',
  defaults_badge: 'Réglages par défaut de la console',
  save: 'Enregistrer',
  success: 'Paramètres enregistrés',
  error: 'Erreur lors de l’enregistrement des paramètres',
  load_error: 'Erreur lors du chargement des paramètres de notification',
  invalid: {
    enabled: 'Valeur invalide',
    frequency: 'Fréquence inconnue',
    send_time: 'Heure invalide (HH:MM, de 00:00 à 23:59)',
    time_zone: 'Fuseau horaire inconnu',
    language: 'Langue inconnue',
    domain_digest: 'Réservé aux administrateurs de domaine',
    required_time_zone: 'Choisissez un fuseau horaire',
  },
  test: {
    button: 'M’envoyer un récapitulatif de test',
    sent_one: 'Récapitulatif de test envoyé\u00a0: {{count}}\u00a0message en attente',
    sent_other: 'Récapitulatif de test envoyé\u00a0: {{count}}\u00a0messages en attente',
    empty: 'Aucun message en attente\u00a0: aucun récapitulatif n’a été envoyé.',
    error: 'Le récapitulatif de test n’a pas pu être envoyé',
    rate_limited: 'Trop de récapitulatifs de test demandés. Réessayez dans quelques minutes.',
    rate_limited_after: 'Trop de récapitulatifs de test demandés. Réessayez dans {{seconds}}\u00a0s.',
    relay_refused: 'Le relais de messagerie a refusé le récapitulatif.',
    relay_unreachable: 'Le relais de messagerie est injoignable.',
    relay_not_configured: 'Aucun relais de messagerie n’est configuré\u00a0: la console ne peut pas envoyer d’e-mails.',
  },
  defaults: {
    title: 'Réglages par défaut pour tous les utilisateurs',
    description:
      'S’appliquent à chaque utilisateur qui n’a pas enregistré ses propres réglages\u00a0: les modifier les change pour eux tous.',
    save: 'Enregistrer les réglages par défaut',
    success: 'Réglages par défaut enregistrés',
    error: 'Erreur lors de l’enregistrement des réglages par défaut',
    load_error: 'Erreur lors du chargement des réglages par défaut',
  },
};
export default quarantineNotifications;
