import { ArrowLeftOutlined, MailOutlined } from '@ant-design/icons';
import Alert from 'antd/es/alert';
import Card from 'antd/es/card';
import Flex from 'antd/es/flex';
import Table from 'antd/es/table';
import Tag from 'antd/es/tag';
import { errorMessageKey, readApiError } from '@qc/api-client';
import { PageError, PageHeader, PageLoading, useDocumentTitle, usePhoneLayout } from '@qc/ui';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router-dom';
import { RemoteVersion } from '../../RemoteVersion';
import { useUuidLogs } from './logs.queries';
import { EMAIL_ID, HARAKA_UUID, type HarakaLogLine, type HarakaUuidLogs, type TransactionOutcome } from './logs.types';
import { MONO, useLogColumns, WRAP } from './logColumns';

const OUTCOME_COLORS: Record<TransactionOutcome, string> = {
  queued: 'green',
  quarantined: 'orange',
  rejected: 'red',
  deferred: 'gold',
  discarded: 'volcano',
  unknown: 'default',
};

function BackLink() {
  const { t } = useTranslation('haraka');
  return (
    <Link to="/haraka/logs" data-testid="uuid-back">
      <ArrowLeftOutlined aria-hidden /> {t('uuid.back')}
    </Link>
  );
}

/**
 * Spec §2 `haraka/logs/{uuid}`: every line of one connection or transaction, oldest first, and what
 * became of it; for a quarantined e-mail's id, those of the transaction it was received in.
 */
export function UuidPage() {
  const { t } = useTranslation('haraka');
  const { uuid = '' } = useParams();
  const valid = HARAKA_UUID.test(uuid) || EMAIL_ID.test(uuid);
  const logs = useUuidLogs(uuid, valid);
  // An e-mail's id stands for its uuid: the title names the uuid once it is known.
  const shown = logs.data?.uuid ?? uuid;
  useDocumentTitle(t('uuid.title', { uuid: shown }));

  let body: ReactNode;
  if (!valid) body = <PageError title={t('uuid.invalid')} extra={<BackLink />} />;
  else if (logs.isPending) body = <PageLoading />;
  else if (logs.isError) {
    const { status } = readApiError(logs.error);
    body =
      status === 404 ? (
        <div data-testid="uuid-not-found">
          <PageError title={t('uuid.not_found')} description={t('uuid.not_found_description')} extra={<BackLink />} />
        </div>
      ) : status === 400 ? (
        <PageError title={t('uuid.invalid')} extra={<BackLink />} />
      ) : (
        <PageError
          title={t('uuid.error_title')}
          description={t(errorMessageKey(logs.error), { ns: 'common' })}
          onRetry={() => void logs.refetch()}
        />
      );
  } else body = <UuidLogs data={logs.data} />;

  return (
    <section aria-labelledby="haraka-uuid-title" data-testid="haraka-uuid-page">
      <div style={{ marginBottom: 12 }}>
        <BackLink />
      </div>
      <PageHeader
        title={
          <span id="haraka-uuid-title" style={{ overflowWrap: 'anywhere' }}>
            {t('uuid.title', { uuid: shown })}
          </span>
        }
        description={t('uuid.description')}
      />
      {body}
      <RemoteVersion />
    </section>
  );
}

function UuidLogs({ data }: { data: HarakaUuidLogs }) {
  const { t } = useTranslation('haraka');
  const phone = usePhoneLayout();
  const columns = useLogColumns({ search: false });
  return (
    <Flex vertical gap={16}>
      {data.transactions.length ? (
        <Card size="small" title={t('uuid.transactions')} data-testid="uuid-transactions">
          <Flex vertical gap={8} role="list" aria-label={t('uuid.transactions')}>
            {data.transactions.map((tx) => (
              <Flex key={tx.uuid} gap={12} align="center" wrap role="listitem" data-testid="uuid-transaction">
                <span style={{ ...MONO, ...WRAP }}>{t('uuid.transaction_label', { uuid: tx.uuid })}</span>
                <Tag
                  color={OUTCOME_COLORS[tx.outcome] ?? 'default'}
                  data-testid="uuid-outcome"
                  data-outcome={tx.outcome}
                >
                  {t(`uuid.outcomes.${tx.outcome}`, { defaultValue: tx.outcome })}
                </Tag>
                {tx.email_id ? (
                  <Link to={`/mail/${encodeURIComponent(tx.email_id)}`} data-testid="uuid-email-link">
                    <MailOutlined aria-hidden /> {t('uuid.open_email')}
                  </Link>
                ) : null}
              </Flex>
            ))}
          </Flex>
        </Card>
      ) : null}
      {data.truncated ? (
        <Alert
          type="info"
          showIcon
          title={t('uuid.truncated', { count: data.lines.length })}
          data-testid="uuid-truncated"
        />
      ) : null}
      <Table<HarakaLogLine>
        rowKey="id"
        columns={columns}
        dataSource={data.lines}
        pagination={false}
        size="small"
        tableLayout="fixed"
        scroll={phone ? undefined : { x: 1000 }}
        onRow={() => ({ 'data-testid': 'log-row' }) as object}
        aria-label={t('logs.table_label')}
        data-testid="uuid-lines"
      />
    </Flex>
  );
}
