/** `mail` namespace, French. Keys mirror mail.en.ts exactly (a test checks). */
const mail = {
  dashboard: {
    title: 'Tableau de bord',
    description: 'Vue d’ensemble des e-mails en quarantaine que vous pouvez consulter.',
    pending: 'En attente',
    released: 'Libérés',
    deleted: 'Supprimés',
    reload: 'Actualiser',
    error_title: 'Erreur lors du chargement du tableau de bord',
    counts_label: 'Compteurs des e-mails',
  },
  quarantine: {
    title: 'Quarantaine',
    detail_title: 'Détail de l’e-mail',
    coming_soon: 'La liste des e-mails en quarantaine arrive dans une prochaine version.',
  },
};
export default mail;
