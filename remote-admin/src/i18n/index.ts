import { addNamespace } from '@qc/i18n';
import adminEn from './admin.en';
import adminFr from './admin.fr';

/** Namespace of this remote (namespace = app id). */
export const ADMIN_NS = 'admin';

export function registerAdminNamespace() {
  return addNamespace(ADMIN_NS, { fr: adminFr, en: adminEn });
}

export { adminFr, adminEn };
