import { ArrowLeftOutlined } from '@ant-design/icons';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import { errorMessageKey, readApiError } from '@qc/api-client';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { useDocumentTitle } from './document-title';
import { PageError, PageLoading } from './PageStates';

/**
 * A page for a record that does not exist, or not for the caller (the API answers 404 alike), with
 * a way back (`backTo`, default: the parent route).
 */
export function NotFound({
  title,
  description,
  backLabel,
  testId,
  backTo = '..',
}: {
  title: string;
  description: string;
  backLabel: string;
  testId: string;
  backTo?: string;
}) {
  const navigate = useNavigate();
  useDocumentTitle(title);
  return (
    <div data-testid={testId}>
      <PageError
        title={title}
        description={description}
        extra={
          <Button icon={<ArrowLeftOutlined aria-hidden />} onClick={() => navigate(backTo)}>
            {backLabel}
          </Button>
        }
      />
    </div>
  );
}

/**
 * The states of a record's page (a user, a domain, a rule) fetched by id: loading; `notFound` on a
 * 404; any other failure, with a Retry; then the record (`children`).
 */
export function DetailStates<T>({
  query,
  notFound,
  errorTitle,
  children,
}: {
  query: UseQueryResult<T>;
  notFound: ReactNode;
  errorTitle: string;
  children: (record: T) => ReactNode;
}) {
  const { t } = useTranslation('common');
  if (query.isPending) return <PageLoading />;
  if (query.isError) {
    if (readApiError(query.error).status === 404) return notFound;
    return (
      <PageError
        title={errorTitle}
        description={t(errorMessageKey(query.error))}
        onRetry={() => void query.refetch()}
      />
    );
  }
  return children(query.data);
}

/** What the API refused of a form that its fields do not say themselves, above the form. */
export function FormError({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <Alert type="error" showIcon style={{ marginBottom: 16 }} title={message} role="alert" data-testid="form-error" />
  );
}
