import { ArrowLeftOutlined } from '@ant-design/icons';
import Button from 'antd/es/button';
import { PageError } from '@qc/ui';
import { useTranslation } from 'react-i18next';
import { useBackToList } from './back-to-list';

/** Spec §8 "Email not found": a 404 (missing, purged, or not addressed to the caller). */
export function EmailNotFound() {
  const { t } = useTranslation('mail');
  const back = useBackToList();
  return (
    <div data-testid="email-not-found">
      <PageError
        title={t('email.not_found')}
        description={t('email.not_found_description')}
        extra={
          <Button icon={<ArrowLeftOutlined aria-hidden />} onClick={back}>
            {t('email.back')}
          </Button>
        }
      />
    </div>
  );
}
