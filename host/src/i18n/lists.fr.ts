/**
 * Whitelist and blacklist texts (issue 18), French: the settings page's lists section. Part of the
 * `host` namespace (key `lists`) in the protected pages' texts (shell.fr.ts). Keys mirror lists.en.ts.
 */
const lists = {
  title: 'Listes blanche et noire',
  description:
    'Les expéditeurs authentifiés de la liste blanche sont remis sans passer par la quarantaine\u00a0; ceux de la liste noire sont toujours retenus. Une adresse (nom@exemple.fr) ou un domaine entier (@exemple.fr).',
  tabs: { label: 'Listes', whitelist: 'Liste blanche', blacklist: 'Liste noire' },
  /** What an entry needs to apply (issue 29), above each list. */
  rule: {
    whitelist:
      'Une adresse de la liste blanche ne s’applique que si l’expéditeur est authentifié\u00a0: l’expéditeur de l’enveloppe passe SPF, ou l’adresse From passe DKIM ou DMARC. Un message avec un virus reste retenu.',
    blacklist:
      'Une adresse de la liste noire retient le message, qu’elle soit l’expéditeur de l’enveloppe ou l’adresse From.',
  },
  scope: {
    label: 'Liste de',
    mine: 'Ma liste',
    my_domain: 'Mon domaine',
    domain: 'Un domaine',
    global: 'Globale',
    user: 'Un utilisateur',
    user_field: 'Utilisateur',
    domain_field: 'Domaine',
    pick_user: 'Rechercher un utilisateur',
    pick_domain: 'Rechercher un domaine',
    no_user: 'Aucun utilisateur trouvé',
    no_domain: 'Aucun domaine trouvé',
    choose_user: 'Choisissez un utilisateur pour voir sa liste.',
    choose_domain: 'Choisissez un domaine pour voir sa liste.',
    global_help:
      'La liste globale s’applique à tous les destinataires, après leurs propres listes et celles de leur domaine.',
    domain_help: 'La liste du domaine s’applique à tous ses destinataires, après leurs propres listes.',
  },
  total_one: '{{count}}\u00a0adresse',
  total_other: '{{count}}\u00a0adresses',
  shown: '{{shown}} affichées sur {{total}}',
  search: 'Recherche',
  search_placeholder: 'Partie d’une adresse',
  add: {
    label: 'Ajouter une adresse',
    placeholder: 'nom@exemple.fr ou @exemple.fr',
    submit: 'Ajouter',
    invalid: 'Format invalide',
    too_long: 'Au plus 254\u00a0caractères',
    exists: '{{address}} est déjà sur cette liste.',
    conflict_whitelist:
      '{{address}} est sur la liste blanche de ce même propriétaire\u00a0: retirez-la d’abord de la liste blanche.',
    conflict_blacklist:
      '{{address}} est sur la liste noire de ce même propriétaire\u00a0: retirez-la d’abord de la liste noire.',
  },
  whole_domain: 'tout le domaine',
  added_by: 'Ajoutée par {{who}}, {{date}}',
  added_on: 'Ajoutée {{date}}',
  remove: 'Supprimer',
  remove_label: 'Supprimer {{address}}',
  remove_title: 'Supprimer cette adresse\u202f?',
  remove_body_whitelist: '{{address}} ne sera plus sur la liste blanche.',
  remove_body_blacklist: '{{address}} ne sera plus sur la liste noire.',
  clear: 'Vider la liste',
  clear_title: 'Vider la liste\u202f?',
  clear_body_one: 'L’adresse de cette liste sera supprimée. Cette action est définitive.',
  clear_body_other: 'Les {{count}}\u00a0adresses de cette liste seront supprimées. Cette action est définitive.',
  clear_ok: 'Vider',
  cancel: 'Annuler',
  load_more: 'Afficher plus',
  empty: 'Aucune adresse sur cette liste.',
  empty_search: 'Aucune adresse ne correspond à cette recherche.',
  error_title: 'Erreur lors du chargement de la liste',
  cleared_count_one: '{{count}}\u00a0adresse supprimée.',
  cleared_count_other: '{{count}}\u00a0adresses supprimées.',
  notices: {
    added: 'Adresse ajoutée',
    removed: 'Adresse supprimée',
    cleared: 'Liste vidée',
    add_error: 'Erreur lors de l’ajout',
    remove_error: 'Erreur lors de la suppression',
    clear_error: 'Erreur lors du vidage',
  },
};
export default lists;
