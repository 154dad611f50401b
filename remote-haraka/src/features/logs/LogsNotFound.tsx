import { NotFound } from '@qc/ui';
import { useTranslation } from 'react-i18next';

/** Any path under haraka/logs/ deeper than a uuid (spec §2: any other path shows a not-found page). */
export function LogsNotFound() {
  const { t } = useTranslation('haraka');
  return (
    <NotFound
      title={t('not_found.title')}
      description={t('not_found.description')}
      backLabel={t('uuid.back')}
      backTo="/haraka/logs"
      testId="haraka-not-found"
    />
  );
}
