import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Empty from 'antd/es/empty';
import Result from 'antd/es/result';
import Spin from 'antd/es/spin';
import Typography from 'antd/es/typography';
import { useTranslation } from 'react-i18next';
import type { CSSProperties, ReactNode } from 'react';

const centered: CSSProperties = {
  display: 'flex',
  justifyContent: 'center',
  alignItems: 'center',
  padding: 48,
  minHeight: 200,
};

/** Loading state of a page or a screen being fetched. */
export function PageLoading({ label }: { label?: string }) {
  const { t } = useTranslation('common');
  const text = label ?? t('states.loading');
  return (
    <div style={centered} role="status" aria-live="polite" aria-label={text} data-testid="page-loading">
      <Spin size="large" />
    </div>
  );
}

export interface PageErrorProps {
  title?: string;
  description?: ReactNode;
  onRetry?: () => void;
  extra?: ReactNode;
}

/** Error state with an optional Retry. */
export function PageError({ title, description, onRetry, extra }: PageErrorProps) {
  const { t } = useTranslation('common');
  return (
    <Result
      status="error"
      title={title ?? t('states.error_title')}
      subTitle={description ?? t('states.error_description')}
      data-testid="page-error"
      role="alert"
      extra={
        <>
          {onRetry ? (
            <Button type="primary" onClick={onRetry}>
              {t('actions.retry')}
            </Button>
          ) : null}
          {extra}
        </>
      }
    />
  );
}

/**
 * A reload that failed while earlier rows are still shown: said above them, with a Retry, instead
 * of replacing them with PageError (that is for when there is nothing to show).
 */
export function ReloadFailed({ title, description, onRetry, testId }: PageErrorProps & { testId?: string }) {
  const { t } = useTranslation('common');
  return (
    <Alert
      type="error"
      showIcon
      style={{ marginBottom: 16 }}
      message={title ?? t('states.error_title')}
      description={description}
      action={
        onRetry ? (
          <Button size="small" onClick={onRetry}>
            {t('actions.retry')}
          </Button>
        ) : undefined
      }
      data-testid={testId}
    />
  );
}

/** Empty state. */
export function PageEmpty({ description }: { description?: ReactNode }) {
  const { t } = useTranslation('common');
  return <Empty data-testid="page-empty" description={description ?? t('states.empty')} />;
}

/**
 * A small table's "nothing here" line. antd draws its own in the disabled grey (1.8:1 on white,
 * under WCAG AA's 4.5:1); this is secondary text instead.
 */
export function TableEmptyText({ children }: { children: ReactNode }) {
  return <Typography.Text type="secondary">{children}</Typography.Text>;
}

/** A page not built yet: routes, guards and nav exist; the content comes in a later issue. */
export function ComingSoon({ title }: { title?: string }) {
  const { t } = useTranslation('common');
  return (
    <Result
      status="info"
      title={title ?? t('coming_soon.title')}
      subTitle={t('coming_soon.description')}
      data-testid="coming-soon"
    />
  );
}

/**
 * antd's 404 and 500 pictures, for Result's `icon` (with a status that is not '404'/'500', which
 * would draw them bare): they are SVGs titled in English ("No Found", "Server Error"), which screen
 * readers read out on French pages. Here they are shown, not read.
 */
export function ResultPicture({ kind }: { kind: '404' | '500' }) {
  const Picture = kind === '404' ? Result.PRESENTED_IMAGE_404 : Result.PRESENTED_IMAGE_500;
  return (
    <span aria-hidden="true" data-testid={`result-picture-${kind}`}>
      <Picture />
    </span>
  );
}
