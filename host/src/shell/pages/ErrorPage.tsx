import Button from 'antd/es/button';
import Result from 'antd/es/result';
import { ResultPicture } from '@qc/ui';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useRouteError } from 'react-router-dom';

/** errorElement of the router: the generic page of spec §2, titled "Unexpected Application Error!". */
export function ErrorPage() {
  const { t } = useTranslation('host');
  const error = useRouteError();
  useEffect(() => {
    console.error('[host] unhandled route error', error);
  }, [error]);
  return (
    <Result
      status="info"
      icon={<ResultPicture kind="500" />}
      title={<h1 style={{ fontSize: 24, margin: 0 }}>{t('error_page.title')}</h1>}
      subTitle={t('error_page.description')}
      data-testid="route-error"
      extra={
        <>
          <Button type="primary" onClick={() => window.location.reload()}>
            {t('error_page.reload')}
          </Button>
          <Button onClick={() => window.location.assign('/dashboard')}>{t('common:actions.back_to_dashboard')}</Button>
        </>
      }
    />
  );
}
