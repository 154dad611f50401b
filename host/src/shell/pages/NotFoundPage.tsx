import Button from 'antd/es/button';
import Result from 'antd/es/result';
import { ResultPicture, useDocumentTitle } from '@qc/ui';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';

/** Any path the route table does not know (spec §2). */
export function NotFoundPage() {
  const { t } = useTranslation('host');
  const navigate = useNavigate();
  useDocumentTitle(t('not_found.title'));
  return (
    <Result
      status="info"
      icon={<ResultPicture kind="404" />}
      title={<h1 style={{ fontSize: 24, margin: 0 }}>{t('not_found.title')}</h1>}
      subTitle={t('not_found.description')}
      data-testid="not-found"
      extra={
        <Button type="primary" onClick={() => navigate('/dashboard')}>
          {t('common:actions.back_to_dashboard')}
        </Button>
      }
    />
  );
}
