import { ComingSoon, PageHeader } from '@qc/ui';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';

/** /mail and /mail/{id}: placeholder until the quarantine list issue. */
export function QuarantinePage() {
  const { t } = useTranslation('mail');
  const id = useParams()['*'];
  return (
    <section>
      <PageHeader title={id ? t('quarantine.detail_title') : t('quarantine.title')} description={id ? id : undefined} />
      <ComingSoon title={t('common:coming_soon.title')} />
      <p style={{ textAlign: 'center' }}>{t('quarantine.coming_soon')}</p>
    </section>
  );
}
