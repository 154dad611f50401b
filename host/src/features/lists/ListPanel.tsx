import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import Button, { type ButtonProps } from 'antd/es/button';
import Flex from 'antd/es/flex';
import Input from 'antd/es/input';
import Modal from 'antd/es/modal';
import Tag from 'antd/es/tag';
import Typography from 'antd/es/typography';
import { errorMessageKey, readApiError, type ListOwnerParams } from '@qc/api-client';
import type { ListEntry, ListKind } from '@qc/contracts';
import { formatDateTime, ListStates, PageEmpty, PageLoading, TextFilter, useThemeToken } from '@qc/ui';
import { notify } from '@qc/ui-state';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { isListAddress, shownAddress } from './address';
import { useAddEntry, useClearList, useListEntries, useRemoveEntry } from './lists.queries';

const OTHER: Record<ListKind, ListKind> = { whitelist: 'blacklist', blacklist: 'whitelist' };

/** The api's field message (English, spec §5) in the page's language. */
function addressMessage(message: string, t: (key: string) => string): string {
  if (/^Invalid format/i.test(message)) return t('lists.add.invalid');
  if (/^At most/i.test(message)) return t('lists.add.too_long');
  return message;
}

function EntryRow({
  entry,
  onRemove,
  divided,
}: {
  entry: ListEntry;
  onRemove: (entry: ListEntry) => void;
  divided: boolean;
}) {
  const { t, i18n } = useTranslation('host');
  const lang = i18n.resolvedLanguage ?? 'fr';
  const { text, wholeDomain } = shownAddress(entry);
  const date = formatDateTime(entry.created_at, lang, 'medium');
  const token = useThemeToken();
  return (
    <li
      data-testid="list-entry"
      style={{ padding: '10px 0', ...(divided ? { borderTop: `1px solid ${token.colorBorderSecondary}` } : {}) }}
    >
      <Flex justify="space-between" align="center" gap={8}>
        <Flex vertical gap={2} style={{ minWidth: 0, flex: '1 1 auto' }}>
          <span style={{ wordBreak: 'break-all' }}>
            <span title={entry.address} data-testid="list-entry-address">
              {text}
            </span>
            {wholeDomain ? (
              <Tag style={{ marginInlineStart: 8 }} data-testid="list-entry-domain">
                {t('lists.whole_domain')}
              </Tag>
            ) : null}
          </span>
          <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid="list-entry-meta">
            {entry.created_by
              ? t('lists.added_by', { who: entry.created_by.email, date })
              : t('lists.added_on', { date })}
          </Typography.Text>
        </Flex>
        <Button
          danger
          icon={<DeleteOutlined aria-hidden />}
          aria-label={t('lists.remove_label', { address: text })}
          title={t('lists.remove_label', { address: text })}
          onClick={() => onRemove(entry)}
          data-testid="list-entry-remove"
        />
      </Flex>
    </li>
  );
}

/**
 * One owner's list of one kind: total, search, add (spec §5 checked before sending; the api's
 * refusal on the field), the entries with "load more", remove and clear behind confirmations, and
 * spec §8's notices.
 */
export function ListPanel({ kind, owner }: { kind: ListKind; owner: ListOwnerParams }) {
  const { t } = useTranslation('host');
  const token = useThemeToken();
  const base = useId();
  const [modal, contextHolder] = Modal.useModal();
  const [q, setQ] = useState('');
  const list = useListEntries(owner, q);
  const add = useAddEntry();
  const remove = useRemoveEntry();
  const clear = useClearList();
  const [address, setAddress] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);

  const entries = list.data?.pages.flatMap((p) => p.results) ?? [];
  const total = list.data?.pages[0]?.total ?? 0;
  const shown = list.data ? { results: entries } : undefined;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const value = address.trim();
    if (!isListAddress(value)) {
      setFieldError(t('lists.add.invalid'));
      return;
    }
    try {
      const entry = await add.mutateAsync({ owner, address: value });
      setAddress('');
      setFieldError(null);
      notify({ type: 'success', title: t('lists.notices.added'), description: shownAddress(entry).text });
    } catch (error) {
      const info = readApiError(error);
      if (info.status === 400 && info.errors?.address) setFieldError(addressMessage(info.errors.address, t));
      else if (info.code === 'list_exists') setFieldError(t('lists.add.exists', { address: value }));
      else if (info.code === 'list_conflict') setFieldError(t(`lists.add.conflict_${OTHER[kind]}`, { address: value }));
      else
        notify({
          type: 'error',
          title: t('lists.notices.add_error'),
          description: t(errorMessageKey(error), { ns: 'common' }),
        });
    }
  };

  const confirmRemove = (entry: ListEntry) => {
    const text = shownAddress(entry).text;
    void modal.confirm({
      title: t('lists.remove_title'),
      content: t(`lists.remove_body_${kind}`, { address: text }),
      okText: t('lists.remove'),
      cancelText: t('lists.cancel'),
      okButtonProps: { danger: true, 'data-testid': 'list-remove-confirm' } as ButtonProps,
      focusable: { autoFocusButton: 'cancel' },
      onOk: async () => {
        try {
          await remove.mutateAsync(entry.id);
          notify({ type: 'success', title: t('lists.notices.removed'), description: text });
        } catch (error) {
          notify({
            type: 'error',
            title: t('lists.notices.remove_error'),
            description: t(errorMessageKey(error), { ns: 'common' }),
          });
        }
      },
    });
  };

  const confirmClear = () =>
    void modal.confirm({
      title: t('lists.clear_title'),
      content: t('lists.clear_body', { count: total }),
      okText: t('lists.clear_ok'),
      cancelText: t('lists.cancel'),
      okButtonProps: { danger: true, 'data-testid': 'list-clear-confirm' } as ButtonProps,
      focusable: { autoFocusButton: 'cancel' }, // not undone by Enter: focus starts on Cancel
      onOk: async () => {
        try {
          const { deleted } = await clear.mutateAsync(owner);
          notify({
            type: 'success',
            title: t('lists.notices.cleared'),
            description: t('lists.cleared_count', { count: deleted }),
          });
        } catch (error) {
          notify({
            type: 'error',
            title: t('lists.notices.clear_error'),
            description: t(errorMessageKey(error), { ns: 'common' }),
          });
        }
      },
    });

  const errorId = `${base}-address-error`;
  return (
    <Flex vertical gap={16} data-testid={`list-panel-${kind}`}>
      {contextHolder}
      <Typography.Paragraph type="secondary" style={{ margin: 0 }} data-testid="list-rule">
        {t(`lists.rule.${kind}`)}
      </Typography.Paragraph>
      <form onSubmit={(e) => void submit(e)} noValidate data-testid="list-add-form">
        <Flex vertical gap={4}>
          <label htmlFor={`${base}-address`} style={{ fontSize: 12 }}>
            {t('lists.add.label')}
          </label>
          <Flex gap={8}>
            <Input
              id={`${base}-address`}
              value={address}
              onChange={(e) => {
                setAddress(e.target.value);
                if (fieldError) setFieldError(null);
              }}
              placeholder={t('lists.add.placeholder')}
              status={fieldError ? 'error' : undefined}
              aria-invalid={fieldError ? true : undefined}
              aria-describedby={fieldError ? errorId : undefined}
              maxLength={300}
              autoComplete="off"
              style={{ flex: '1 1 auto', minWidth: 0 }}
              data-testid="list-add-input"
            />
            <Button
              type="primary"
              htmlType="submit"
              icon={<PlusOutlined aria-hidden />}
              loading={add.isPending}
              data-testid="list-add-submit"
            >
              {t('lists.add.submit')}
            </Button>
          </Flex>
          {fieldError ? (
            <div
              id={errorId}
              role="alert"
              style={{ color: token.colorError, fontSize: 13 }}
              data-testid="list-add-error"
            >
              {fieldError}
            </div>
          ) : null}
        </Flex>
      </form>
      <Flex justify="space-between" align="flex-end" gap={12} wrap>
        <TextFilter
          id={`${base}-search`}
          label={t('lists.search')}
          placeholder={t('lists.search_placeholder')}
          value={q}
          onCommit={setQ}
          width={260}
          testId="list-search"
        />
        <Flex align="center" gap={12} wrap>
          <Typography.Text type="secondary" data-testid="list-total" aria-live="polite">
            {list.data ? t('lists.total', { count: total }) : null}
          </Typography.Text>
          <Button
            danger
            onClick={confirmClear}
            disabled={!total || clear.isPending}
            loading={clear.isPending}
            data-testid="list-clear"
          >
            {t('lists.clear')}
          </Button>
        </Flex>
      </Flex>
      <ListStates
        query={{ ...list, data: shown }}
        errorTitle={t('lists.error_title')}
        refetchTestId="list-refetch-error"
      >
        {list.isPending ? (
          <PageLoading />
        ) : list.data && !entries.length ? (
          <PageEmpty description={t(q ? 'lists.empty_search' : 'lists.empty')} />
        ) : list.data ? (
          <>
            <ul
              aria-label={t(`lists.tabs.${kind}`)}
              style={{ listStyle: 'none', margin: 0, padding: 0, opacity: list.isPlaceholderData ? 0.5 : 1 }}
              data-testid="list-entries"
            >
              {entries.map((entry, i) => (
                <EntryRow key={entry.id} entry={entry} onRemove={confirmRemove} divided={i > 0} />
              ))}
            </ul>
            {list.hasNextPage ? (
              <Flex justify="center" align="center" gap={12} wrap>
                <Typography.Text type="secondary">{t('lists.shown', { shown: entries.length, total })}</Typography.Text>
                <Button
                  onClick={() => void list.fetchNextPage()}
                  loading={list.isFetchingNextPage}
                  data-testid="list-load-more"
                >
                  {t('lists.load_more')}
                </Button>
              </Flex>
            ) : null}
          </>
        ) : null}
      </ListStates>
    </Flex>
  );
}
