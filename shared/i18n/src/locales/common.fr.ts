/** `common` namespace, French (default language). Keys mirror common.en.ts exactly (a test checks). */
const common = {
  app: { name: 'Quarantine Console' },
  theme: {
    toggle_to_dark: 'Activer le thème sombre',
    toggle_to_light: 'Activer le thème clair',
  },
  language: { label: 'Langue', fr: 'Français', en: 'English' },
  actions: {
    retry: 'Réessayer',
    reload: 'Actualiser',
    back_to_dashboard: 'Retour au tableau de bord',
    close: 'Fermer',
  },
  states: {
    loading: 'Chargement…',
    empty: 'Aucune donnée',
    error_title: 'Une erreur est survenue',
    error_description: 'Les données n’ont pas pu être chargées.',
  },
  coming_soon: {
    title: 'Bientôt disponible',
    description: 'Cette page sera disponible dans une prochaine version.',
  },
  remote: {
    load_failed_title: 'Ce module n’a pas pu être chargé',
    load_failed_description:
      'Le module «\u00a0{{name}}\u00a0» est indisponible pour le moment. Vérifiez votre connexion puis réessayez.',
    render_failed_title: 'Ce module a rencontré une erreur',
    render_failed_description:
      'Une erreur inattendue s’est produite pendant l’affichage du module «\u00a0{{name}}\u00a0».',
    incompatible_title: 'Ce module demande une console plus récente',
    incompatible_description:
      'Cette version du module «\u00a0{{name}}\u00a0» a été construite pour une version plus récente de la console. Mettez la console à jour, ou redéployez la version précédente du module.',
  },
  errors: {
    network: 'Impossible de contacter le serveur. Vérifiez votre connexion.',
    timeout: 'Le serveur n’a pas répondu à temps. Réessayez dans un instant.',
    unauthenticated: 'Votre session a expiré. Veuillez vous reconnecter.',
    forbidden: 'Vous n’avez pas les droits nécessaires pour cette action.',
    not_found: 'Élément introuvable.',
    rate_limited: 'Trop de requêtes. Réessayez dans quelques instants.',
    rate_limited_seconds_one: 'Trop de requêtes. Réessayez dans {{count}}\u00a0seconde.',
    rate_limited_seconds_other: 'Trop de requêtes. Réessayez dans {{count}}\u00a0secondes.',
    rate_limited_minutes_one: 'Trop de requêtes. Réessayez dans {{count}}\u00a0minute.',
    rate_limited_minutes_other: 'Trop de requêtes. Réessayez dans {{count}}\u00a0minutes.',
    unavailable: 'Le service est momentanément indisponible. Réessayez dans quelques instants.',
    server: 'Erreur du serveur. Réessayez plus tard.',
    unknown:
      'Une erreur inattendue s’est produite. Réessayez\u202f; si le problème persiste, contactez votre administrateur.',
  },
  roles: { admin: 'Administrateur', domain_admin: 'Administrateur de domaine', user: 'Utilisateur' },
  // Keyset pager and text filters of @qc/ui (every list page of every app).
  pager: {
    label: 'Pagination',
    first: 'Première page',
    previous: 'Page précédente',
    next: 'Page suivante',
    page: 'Page {{page}}',
  },
  filters: {
    clear: 'Effacer «\u00a0{{field}}\u00a0»',
    reset: 'Réinitialiser les filtres',
    more: 'Plus de filtres',
    more_active_one: 'Plus de filtres ({{count}} actif)',
    more_active_other: 'Plus de filtres ({{count}} actifs)',
    fewer: 'Moins de filtres',
  },
};
export default common;
