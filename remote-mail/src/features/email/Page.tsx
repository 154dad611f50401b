import { ArrowLeftOutlined } from '@ant-design/icons';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Col from 'antd/es/col';
import Empty from 'antd/es/empty';
import Flex from 'antd/es/flex';
import Row from 'antd/es/row';
import Table from 'antd/es/table';
import Tabs from 'antd/es/tabs';
import Typography from 'antd/es/typography';
import { errorMessageKey, readApiError } from '@qc/api-client';
import { PageError, PageHeader, PageLoading, TableEmptyText, useDocumentTitle, usePhoneLayout } from '@qc/ui';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import type { MailHeader, QuarantineDetail } from '../quarantine/quarantine.types';
import { Attachments } from './Attachments';
import { useBackToList } from './back-to-list';
import { EmailActions } from './EmailActions';
import { EmailFields, SenderLine } from './EmailFields';
import { useEmail } from './email.queries';
import { EmailNotFound } from './EmailNotFound';
import { HoldReasons } from './HoldReasons';
import { HomographNote } from './HomographNote';
import { preStyle, RawSource } from './RawSource';
import { shownSubject } from './bidi';
import { defangUrl } from './safe-html';
import { ReleaseTo } from './ReleaseTo';
import { SafePreview } from './SafePreview';
import { SpamActions } from './SpamActions';
import { SymbolsTable } from './SymbolsTable';

/** The Text tab shows this many characters at most. */
export const TEXT_PREVIEW_CHARS = 200_000;

function TextBody({ text }: { text: string | null }) {
  const { t, i18n } = useTranslation('mail');
  if (!text) return <Empty description={t('email.text.empty')} />;
  const lang = i18n.resolvedLanguage ?? 'fr';
  const n = (v: number) => new Intl.NumberFormat(lang).format(v);
  return (
    <>
      {text.length > TEXT_PREVIEW_CHARS ? (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 12 }}
          title={t('email.text.truncated', { shown: n(TEXT_PREVIEW_CHARS), total: n(text.length) })}
        />
      ) : null}
      <pre style={preStyle} data-testid="email-text">
        {text.slice(0, TEXT_PREVIEW_CHARS)}
      </pre>
    </>
  );
}

const headerValue = (v: string) => <span style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>{v}</span>;

function Headers({ headers }: { headers: MailHeader[] }) {
  const { t } = useTranslation('mail');
  // On a phone, each header's name above its value: a 200 px name column would leave the value a sliver.
  const phone = usePhoneLayout();
  return (
    <>
      <Typography.Paragraph type="secondary" style={{ fontSize: 12 }} data-testid="email-headers-help">
        {t('email.headers.help')}
      </Typography.Paragraph>
      <Table<MailHeader & { key: number }>
        size="small"
        dataSource={headers.map((h, key) => ({ ...h, key }))}
        pagination={false}
        locale={{ emptyText: <TableEmptyText>{t('email.headers.empty')}</TableEmptyText> }}
        columns={
          phone
            ? [
                {
                  key: 'header',
                  title: t('email.headers.header'),
                  render: (_, h) => (
                    <div data-testid="email-header-summary">
                      <Typography.Text strong>{h.name}</Typography.Text>
                      <div>{headerValue(h.value)}</div>
                    </div>
                  ),
                },
              ]
            : [
                { key: 'name', title: t('email.headers.name'), dataIndex: 'name', width: 200 },
                { key: 'value', title: t('email.headers.value'), dataIndex: 'value', render: headerValue },
              ]
        }
        data-testid="email-headers"
      />
    </>
  );
}

function DetectedUrls({ urls }: { urls: string[] }) {
  const { t } = useTranslation('mail');
  if (!urls.length) return <Typography.Text type="secondary">{t('email.urls.empty')}</Typography.Text>;
  return (
    <>
      <Typography.Paragraph type="secondary">{t('email.urls.help')}</Typography.Paragraph>
      <ul style={{ margin: 0, paddingInlineStart: 20 }} data-testid="email-urls">
        {urls.map((url, i) => (
          <li key={i}>
            <Typography.Text code style={{ wordBreak: 'break-all' }} data-testid="email-url">
              {defangUrl(url)}
            </Typography.Text>{' '}
            <HomographNote url={url} />
          </li>
        ))}
      </ul>
    </>
  );
}

function EmailView({ email }: { email: QuarantineDetail }) {
  const { t } = useTranslation('mail');
  const back = useBackToList();
  const phone = usePhoneLayout();
  const subject = shownSubject(email.subject, t('no_subject'));
  useDocumentTitle(subject);
  return (
    <article aria-labelledby="email-title" data-testid="email-detail">
      <PageHeader
        title={
          <span id="email-title" style={{ wordBreak: 'break-word' }}>
            {subject}
          </span>
        }
        description={<SenderLine address={email.sender} name={email.sender_name ?? null} />}
        extra={
          <Button icon={<ArrowLeftOutlined aria-hidden />} onClick={back} data-testid="email-back">
            {t('email.back')}
          </Button>
        }
      />
      <Flex vertical gap={16}>
        <EmailActions
          email={email}
          onDeleted={back}
          extra={
            <>
              <ReleaseTo email={email} />
              <SpamActions email={email} />
            </>
          }
        />
        <HoldReasons reasons={email.hold_reasons ?? []} learned={email.learned ?? null} />
        <Card title={t('email.details')} size="small">
          <EmailFields email={email} />
        </Card>
        <Card size="small">
          {email.body_truncated ? (
            <Alert type="info" showIcon title={t('email.body_truncated')} data-testid="email-body-truncated" />
          ) : null}
          <Tabs
            aria-label={t('email.tabs.label')}
            // A plain-text mail opens on its text, not on an empty preview.
            defaultActiveKey={email.html_body ? 'preview' : 'text'}
            // On a phone the four tabs fit the width (none hidden behind a "more" menu).
            {...(phone ? { size: 'small' as const, tabBarGutter: 12 } : {})}
            items={[
              {
                key: 'preview',
                label: <span data-testid="email-tab-preview">{t('email.tabs.preview')}</span>,
                children: <SafePreview html={email.html_body} />,
              },
              {
                key: 'text',
                label: <span data-testid="email-tab-text">{t('email.tabs.text')}</span>,
                children: <TextBody text={email.text_body} />,
              },
              {
                key: 'headers',
                label: <span data-testid="email-tab-headers">{t('email.tabs.headers')}</span>,
                children: <Headers headers={email.headers} />,
              },
              {
                key: 'raw',
                label: <span data-testid="email-tab-raw">{t('email.tabs.raw')}</span>,
                // Rendered (and so fetched) only once the tab is opened.
                children: email.raw_available ? (
                  <RawSource id={email.id} />
                ) : (
                  <Empty description={t('email.raw.unavailable')} />
                ),
              },
            ]}
          />
        </Card>
        <Card title={t('email.symbols.title')} size="small">
          <SymbolsTable symbols={email.symbols} />
        </Card>
        <Row gutter={[16, 16]}>
          <Col xs={24} lg={12}>
            <Card title={t('email.attachments.title')} size="small" style={{ height: '100%' }}>
              <Attachments emailId={email.id} attachments={email.attachments} rawAvailable={email.raw_available} />
            </Card>
          </Col>
          <Col xs={24} lg={12}>
            <Card title={t('email.urls.title')} size="small" style={{ height: '100%' }}>
              <DetectedUrls urls={email.urls} />
            </Card>
          </Col>
        </Row>
      </Flex>
    </article>
  );
}

/** Spec §2 `mail/{id}`: the e-mail detail. Lazy chunk of the Quarantine page group. */
export default function EmailDetailPage() {
  const { t } = useTranslation('mail');
  const id = useParams().id ?? '';
  const email = useEmail(id);
  if (email.isPending) return <PageLoading />;
  // A refetch that fails (the server went away after an action) keeps the e-mail shown: the action's
  // own notice says what failed, and the page must not vanish under the user.
  // Gone meanwhile (404 on a refetch): the page says so rather than keep a stale copy with live actions.
  if (email.isError && readApiError(email.error).status === 404) return <EmailNotFound />;
  if (email.data !== undefined) return <EmailView email={email.data} />;
  return (
    <PageError
      title={t('email.error_title')}
      description={t(errorMessageKey(email.error), { ns: 'common' })}
      onRetry={() => void email.refetch()}
    />
  );
}
