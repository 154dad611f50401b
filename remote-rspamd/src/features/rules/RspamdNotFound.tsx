import { NotFound } from '@qc/ui';
import { useTranslation } from 'react-i18next';
import { RSPAMD_PATHS } from './rules.types';

/** A path of this remote's groups that names no page (an unknown family, a typo). */
export function RspamdNotFound() {
  const { t } = useTranslation('rspamd');
  return (
    <NotFound
      title={t('not_found.title')}
      description={t('not_found.description')}
      backLabel={t('not_found.back')}
      backTo={RSPAMD_PATHS.filters('domains')}
      testId="rspamd-not-found"
    />
  );
}
