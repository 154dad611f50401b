import type mail from './mail.fr';

/** `mail` namespace, English. */
const en: typeof mail = {
  dashboard: {
    title: 'Dashboard',
    description: 'Overview of the quarantined e-mail you can see.',
    pending: 'Pending',
    released: 'Released',
    deleted: 'Deleted',
    reload: 'Reload',
    error_title: 'Error loading the dashboard',
    counts_label: 'E-mail counts',
  },
  quarantine: {
    title: 'Quarantine',
    detail_title: 'E-mail detail',
    coming_soon: 'The quarantined e-mail list comes in a future release.',
  },
};
export default en;
