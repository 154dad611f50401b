import { ReloadOutlined } from '@ant-design/icons';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Descriptions from 'antd/es/descriptions';
import Flex from 'antd/es/flex';
import Tag from 'antd/es/tag';
import Typography from 'antd/es/typography';
import { errorMessageKey } from '@qc/api-client';
import type { FeedbackItem, FeedbackType } from '@qc/contracts';
import { formatDateTime, PageEmpty, PageError, PageHeader, PageLoading } from '@qc/ui';
import { useTranslation } from 'react-i18next';
import { useFeedbackList } from './feedback.queries';
import { FeedbackImageThumb } from './FeedbackImageThumb';

const TYPE_COLORS: Record<FeedbackType, string> = {
  bug: 'red',
  suggestion: 'blue',
  question: 'gold',
  other: 'default',
};

function FeedbackCard({ item, formatDate }: { item: FeedbackItem; formatDate: (iso: string) => string }) {
  const { t } = useTranslation('host');
  const user = item.user ? `${item.user.username} <${item.user.email}>` : t('feedback_admin.deleted_user');
  return (
    <Card size="small" data-testid="feedback-item" data-id={item.id}>
      <Flex justify="space-between" align="center" gap={8} wrap style={{ marginBottom: 8 }}>
        <Tag color={TYPE_COLORS[item.type]} data-testid="feedback-item-type">
          {t(`feedback.types.${item.type}`)}
        </Tag>
        <Typography.Text type="secondary">
          <time dateTime={item.created_at}>{formatDate(item.created_at)}</time>
        </Typography.Text>
      </Flex>
      {/* Rendered as text: whatever the author typed (DESIGN §7). */}
      <Typography.Paragraph style={{ whiteSpace: 'pre-wrap', marginBottom: 8 }} data-testid="feedback-item-message">
        {item.message}
      </Typography.Paragraph>
      <Descriptions
        size="small"
        column={{ xs: 1, md: 2 }}
        items={[
          { key: 'from', label: t('feedback_admin.from'), children: user },
          {
            key: 'contact',
            label: t('feedback_admin.contact'),
            children: item.email || t('feedback_admin.no_contact'),
          },
        ]}
      />
      {item.images.length ? (
        <Flex gap={8} wrap style={{ marginTop: 8 }} aria-label={t('feedback_admin.images')} role="group">
          {item.images.map((image, i) => (
            <FeedbackImageThumb key={image.id} image={image} index={i} />
          ))}
        </Flex>
      ) : null}
    </Card>
  );
}

/** /feedback (admin): the feedback received, newest first, with "Load more" (keyset cursor). */
export default function FeedbackAdminPage() {
  const { t, i18n } = useTranslation('host');
  const list = useFeedbackList();
  const items = list.data?.pages.flatMap((p) => p.results) ?? [];
  const formatDate = (iso: string) => formatDateTime(iso, i18n.resolvedLanguage ?? 'fr', 'medium');

  let body;
  if (list.isPending) body = <PageLoading />;
  else if (list.isError && items.length === 0)
    body = (
      <PageError
        title={t('feedback_admin.error_title')}
        description={t(`common:${errorMessageKey(list.error)}`)}
        onRetry={() => void list.refetch()}
      />
    );
  else if (items.length === 0) body = <PageEmpty description={t('feedback_admin.empty')} />;
  else
    body = (
      <>
        <ol
          aria-label={t('feedback_admin.list')}
          style={{ listStyle: 'none', margin: 0, padding: 0, display: 'grid', gap: 16 }}
        >
          {items.map((item) => (
            <li key={item.id}>
              <FeedbackCard item={item} formatDate={formatDate} />
            </li>
          ))}
        </ol>
        {list.isFetchNextPageError ? (
          <Alert
            type="error"
            showIcon
            role="alert"
            title={t('feedback_admin.error_title')}
            description={t(`common:${errorMessageKey(list.error)}`)}
            style={{ marginTop: 16 }}
          />
        ) : null}
        <Flex justify="center" style={{ marginTop: 16 }}>
          {list.hasNextPage ? (
            <Button
              onClick={() => void list.fetchNextPage()}
              loading={list.isFetchingNextPage}
              data-testid="feedback-load-more"
            >
              {t('feedback_admin.load_more')}
            </Button>
          ) : (
            <Typography.Text type="secondary" data-testid="feedback-all-loaded">
              {t('feedback_admin.all_loaded')}
            </Typography.Text>
          )}
        </Flex>
      </>
    );

  return (
    <section aria-labelledby="feedback-title" data-testid="feedback-page">
      <PageHeader
        title={<span id="feedback-title">{t('nav.feedback')}</span>}
        description={t('feedback_admin.description')}
        extra={
          <Button
            icon={<ReloadOutlined aria-hidden spin={list.isRefetching} />}
            onClick={() => void list.refetch()}
            data-testid="feedback-reload"
          >
            {t('common:actions.reload')}
          </Button>
        }
      />
      {body}
    </section>
  );
}
