/**
 * The digest links' page (/digest/<token>, issue 20), French: key `digest_link` of the `host`
 * namespace, registered by that page's lazy chunk (registerDigestLinkStrings). Keys mirror
 * digest-link.en.ts.
 */
const digestLink = {
  title: 'Récapitulatif de quarantaine',
  loading: 'Vérification du lien…',
  actions: {
    release: 'Relâcher ce message',
    allow_sender: 'Autoriser cet expéditeur',
    delete: 'Supprimer ce message',
    unsubscribe: 'Ne plus recevoir les notifications',
  },
  explain: {
    release: 'Le message sera remis à son destinataire.',
    allow_sender:
      'L’expéditeur {{sender}} sera ajouté à votre liste blanche\u00a0: ses prochains messages authentifiés (SPF, DKIM ou DMARC) vous seront remis sans passer par la quarantaine.',
    delete: 'Le message sera supprimé définitivement de la quarantaine.',
    unsubscribe:
      'Vous ne recevrez plus les récapitulatifs de quarantaine. Vous pourrez les réactiver dans les paramètres de la console.',
  },
  confirm: {
    release: 'Relâcher le message',
    allow_sender: 'Autoriser l’expéditeur',
    delete: 'Supprimer le message',
    unsubscribe: 'Désactiver les notifications',
  },
  nothing_yet: 'Rien n’a encore été fait\u00a0: confirmez pour continuer.',
  message: {
    label: 'Message concerné',
    sender: 'Expéditeur',
    subject: 'Objet',
    date: 'Reçu le',
    score: 'Score',
    no_subject: '(sans objet)',
    no_score: '—',
  },
  recipient: 'Destinataire',
  expires: 'Lien valable jusqu’au',
  results: {
    released: 'Message relâché',
    sender_allowed: 'Expéditeur autorisé',
    deleted: 'Message supprimé',
    unsubscribed: 'Notifications désactivées',
    already_done: 'Déjà fait',
    failed: 'L’action a échoué',
  },
  results_body: {
    released: 'Le message a été remis à son destinataire.',
    sender_allowed: '{{sender}} a été ajouté à votre liste blanche.',
    sender_allowed_unknown: 'L’expéditeur a été ajouté à votre liste blanche.',
    deleted: 'Le message a été supprimé de la quarantaine.',
    unsubscribed: 'Vous ne recevrez plus de récapitulatifs. Réactivez-les dans les paramètres de la console.',
    already_done: 'Le message avait déjà été relâché ou supprimé\u00a0: il n’y avait plus rien à faire.',
    failed: 'Rien n’a été fait. Vous pouvez réessayer.',
  },
  relay_answer: 'Réponse du relais\u00a0: {{answer}}',
  retry: 'Réessayer',
  states: {
    used_title: 'Lien déjà utilisé',
    used: 'Ce lien a déjà été utilisé\u00a0; il ne peut servir qu’une fois.',
    used_on: 'Le {{date}}\u00a0:',
    expired_title: 'Lien expiré',
    expired: 'Ce lien a expiré et rien n’a été fait. Connectez-vous à la console pour agir sur vos messages.',
    invalid_title: 'Lien invalide',
    invalid:
      'Ce lien n’est pas valide (incomplet, modifié, ou le message n’est plus le vôtre). Rien n’a été fait. Connectez-vous à la console pour agir sur vos messages.',
  },
  load_error: 'Le lien n’a pas pu être vérifié.',
  act_error: 'L’action n’a pas pu être effectuée. Rien n’a été fait.',
  rate_limited: 'Trop de tentatives. Réessayez dans quelques instants.',
  rate_limited_after: 'Trop de tentatives. Réessayez dans {{seconds}}\u00a0s.',
  to_login: 'Se connecter à la console',
  to_console: 'Ouvrir la console',
};
export default digestLink;
