import { CheckCircleFilled, SyncOutlined, WarningOutlined } from '@ant-design/icons';
import Flex from 'antd/es/flex';
import Typography from 'antd/es/typography';
import { formatDateTime, ReloadButton, usePhoneLayout, useThemeToken, type ListQuery } from '@qc/ui';
import type { TFunction } from 'i18next';
import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useRspamdStatus } from './rules.queries';
import type { RspamdListName } from './rules.types';

/** The clock, ticking every `ms` while `running` (the "12 s ago" of the status line). */
function useNow(ms: number, running: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => setNow(Date.now()), ms);
    return () => clearInterval(timer);
  }, [ms, running]);
  return now;
}

/** "12 s ago", "3 min ago", "2 h ago", then the date. */
export function sinceText(t: TFunction<'rspamd'>, lang: string, at: string, now: number): string {
  const seconds = Math.max(0, Math.round((now - Date.parse(at)) / 1000));
  if (seconds < 60) return t('status.ago_seconds', { count: seconds });
  if (seconds < 3600) return t('status.ago_minutes', { count: Math.floor(seconds / 60) });
  if (seconds < 48 * 3600) return t('status.ago_hours', { count: Math.floor(seconds / 3600) });
  return t('status.on_date', { date: formatDateTime(at, lang) });
}

/**
 * Whether the rules of this list are in Rspamd yet: when it last fetched the list, and whether it
 * has fetched it since the latest change (asked again every few seconds until it has). The live
 * part is a status region, so a screen reader hears when the change goes live; the ticking time
 * is not in it.
 */
export function StatusLine({ list }: { list: RspamdListName }) {
  const { t, i18n } = useTranslation('rspamd');
  const lang = i18n.resolvedLanguage ?? 'fr';
  const token = useThemeToken();
  const phone = usePhoneLayout();
  const status = useRspamdStatus();
  const entry = status.data?.lists.find((l) => l.list === list);
  const now = useNow(1000, Boolean(entry?.fetched_at));

  let fetched: string;
  let state: ReactNode = null;
  if (!status.data) {
    fetched = status.isError ? t('status.unavailable') : t('status.loading');
  } else if (!entry) {
    fetched = t('status.unknown_list');
  } else {
    fetched = entry.fetched_at
      ? t('status.fetched', { since: sinceText(t, lang, entry.fetched_at, now) })
      : t('status.never_fetched');
    state = entry.live ? (
      <Typography.Text type="success" data-testid="rspamd-status-live">
        <CheckCircleFilled aria-hidden /> {t('status.live')}
      </Typography.Text>
    ) : (
      <Typography.Text data-testid="rspamd-status-waiting">
        <SyncOutlined spin aria-hidden style={{ color: token.colorWarning }} /> {t('status.waiting')}
      </Typography.Text>
    );
  }

  // On a wide screen one line, its parts separated by dots; on a phone one part a line (a dot
  // starting a wrapped line read as a stray mark).
  const dot = phone ? null : (
    <Typography.Text type="secondary" aria-hidden>
      ·{' '}
    </Typography.Text>
  );
  return (
    <Flex
      vertical={phone}
      gap={phone ? 2 : 6}
      wrap
      align={phone ? 'flex-start' : 'center'}
      style={{ marginBottom: 16, fontSize: 13 }}
      data-testid="rspamd-status"
      data-list={list}
    >
      {status.isError && !status.data ? <WarningOutlined aria-hidden style={{ color: token.colorWarning }} /> : null}
      <Typography.Text type="secondary" data-testid="rspamd-status-fetched">
        {fetched}
      </Typography.Text>
      {entry ? (
        <Typography.Text type="secondary" data-testid="rspamd-status-entries">
          {dot}
          {t('status.entries', { count: entry.entries })}
        </Typography.Text>
      ) : null}
      <span role="status">
        {state ? (
          <>
            {dot}
            {state}
          </>
        ) : null}
      </span>
    </Flex>
  );
}

/** Above a rule list: its Rspamd status line, and Reload (the list and the status). */
export function ListTop({
  list,
  statusOf,
  reloadLabel,
  testPrefix,
}: {
  list: Pick<ListQuery<unknown>, 'isFetching' | 'refetch'>;
  statusOf: RspamdListName;
  reloadLabel: string;
  testPrefix: string;
}) {
  const status = useRspamdStatus();
  const reload = {
    isFetching: list.isFetching || status.isFetching,
    refetch: () => Promise.all([list.refetch(), status.refetch()]),
  };
  return (
    <Flex justify="space-between" align="flex-start" gap={8} wrap>
      <StatusLine list={statusOf} />
      <ReloadButton query={reload} label={reloadLabel} testId={`${testPrefix}-reload`} />
    </Flex>
  );
}
