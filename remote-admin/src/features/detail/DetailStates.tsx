import { ArrowLeftOutlined } from '@ant-design/icons';
import Button from 'antd/es/button';
import { errorMessageKey, readApiError } from '@qc/api-client';
import { PageError, PageLoading, useDocumentTitle } from '@qc/ui';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';

/** A page for a record that does not exist, or not for the caller (the API answers 404 alike), with a way back to the list. */
export function NotFound({
  title,
  description,
  backLabel,
  testId,
}: {
  title: string;
  description: string;
  backLabel: string;
  testId: string;
}) {
  const navigate = useNavigate();
  useDocumentTitle(title);
  return (
    <div data-testid={testId}>
      <PageError
        title={title}
        description={description}
        extra={
          <Button icon={<ArrowLeftOutlined aria-hidden />} onClick={() => navigate('..')}>
            {backLabel}
          </Button>
        }
      />
    </div>
  );
}

/**
 * The states of a record's page (a user, a domain) fetched by id: loading; `notFound` on a 404;
 * any other failure, with a Retry; then the record (`children`).
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
