import Button from 'antd/es/button';
import Flex from 'antd/es/flex';
import Input from 'antd/es/input';
import Select from 'antd/es/select';
import Switch from 'antd/es/switch';
import Table from 'antd/es/table';
import Typography from 'antd/es/typography';
import {
  DATE_PRESETS,
  Field,
  FilterBar,
  formatDateTime,
  ListStates,
  PageEmpty,
  PageHeader,
  ReloadButton,
  TextFilter,
  toLocalDay,
  usePhoneLayout,
  type DatePeriod,
} from '@qc/ui';
import { usePreferences } from '@qc/ui-state';
import { useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { RemoteVersion } from '../../RemoteVersion';
import {
  DEFAULT_LOG_FILTERS,
  filtersChanged,
  isSplit,
  periodIncludesNow,
  readLogFilters,
  toLogSearch,
  toSearchRange,
  WINDOW_DAYS,
  writeLogFilters,
  type LogFilters,
} from './logs.filters';
import { useLogSearch } from './logs.queries';
import { LOG_SEVERITIES, type HarakaLogLine, type LogSeverity } from './logs.types';
import { useLogColumns } from './logColumns';
import { TAIL_INTERVAL_MS, useLiveTail } from './useLiveTail';
import { UuidBox } from './UuidBox';

const MAX_PAGE_SIZE = 100;

/** Spec §2 `haraka/logs`: the search of Haraka's log lines, newest first, with a live tail. */
export function LogsPage() {
  const { t, i18n } = useTranslation('haraka');
  const lang = i18n.resolvedLanguage ?? 'fr';
  const phone = usePhoneLayout();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const filters = useMemo(() => readLogFilters(params), [params]);
  // "Now" of the presets: fixed for one set of filters, so the query key does not change each render.
  const now = useMemo(() => new Date(), [filters]); // eslint-disable-line react-hooks/exhaustive-deps
  const pageSize = Math.min(
    usePreferences((s) => s.preferences.defaultPageSize),
    MAX_PAGE_SIZE,
  );
  const search = useMemo(() => toLogSearch(filters, pageSize), [filters, pageSize]);
  const range = useMemo(() => toSearchRange(filters, now), [filters, now]);
  const list = useLogSearch(search, range);
  const base = useId();

  const tailable = periodIncludesNow(filters, now);
  const [tailOn, setTailOn] = useState(false);
  const loaded = useMemo(() => list.data?.pages.flatMap((p) => p.page.results) ?? [], [list.data]);
  const tail = useLiveTail(tailOn && tailable, search, loaded[0]?.ts ?? null);
  const rows = useMemo(() => {
    const known = new Set(tail.lines.map((l) => l.id));
    return [...tail.lines, ...loaded.filter((l) => !known.has(l.id))];
  }, [tail.lines, loaded]);

  const show = (next: LogFilters) => {
    const search = writeLogFilters(next).toString();
    navigate({ search: search ? `?${search}` : '' });
  };
  const change = (patch: Partial<LogFilters>) => show({ ...filters, ...patch });
  const pickPeriod = (period: DatePeriod | undefined) => {
    if (period === 'custom') {
      const today = toLocalDay(new Date());
      change({ period, from: today, to: today });
    } else change({ period: period ?? '', from: '', to: '' });
  };
  const firstWindow = list.data?.pages[0]?.page.window;

  const columns = useLogColumns({ search: true });

  return (
    <section aria-labelledby="haraka-logs-title" data-testid="haraka-logs-page">
      <PageHeader
        title={<span id="haraka-logs-title">{t('logs.title')}</span>}
        description={t('logs.description')}
        extra={<ReloadButton query={list} label={t('logs.reload')} testId="logs-reload" />}
      />
      <UuidBox />
      <FilterBar
        label={t('logs.filters.label')}
        testPrefix="logs"
        reset={{ shown: filtersChanged(filters), onReset: () => show({ ...DEFAULT_LOG_FILTERS }) }}
        more={{
          active: (filters.hostname ? 1 : 0) + (filters.severity.length ? 1 : 0),
          filters: (
            <>
              <Field id={`${base}-severity`} label={t('logs.filters.severity')} width={260}>
                <Select<LogSeverity[]>
                  id={`${base}-severity`}
                  mode="multiple"
                  value={filters.severity}
                  placeholder={t('logs.filters.any_severity')}
                  allowClear
                  onChange={(severity) => change({ severity: LOG_SEVERITIES.filter((s) => severity.includes(s)) })}
                  options={LOG_SEVERITIES.map((s) => ({ value: s, label: t(`severities.${s}`) }))}
                  data-testid="logs-filter-severity"
                />
              </Field>
              <TextFilter
                id={`${base}-hostname`}
                label={t('logs.filters.hostname')}
                placeholder={t('logs.filters.hostname_placeholder')}
                value={filters.hostname}
                onCommit={(hostname) => change({ hostname: hostname.trim() })}
                width={200}
                testId="logs-filter-hostname"
              />
            </>
          ),
        }}
      >
        <TextFilter
          id={`${base}-q`}
          label={t('logs.filters.q')}
          placeholder={t('logs.filters.q_placeholder')}
          value={filters.q}
          onCommit={(q) => change({ q: q.trim() })}
          width={240}
          testId="logs-filter-q"
        />
        <Field id={`${base}-period`} label={t('logs.filters.period')} width={200}>
          <Select<DatePeriod | ''>
            id={`${base}-period`}
            value={filters.period}
            onChange={(p) => pickPeriod(p || undefined)}
            options={[
              { value: '', label: t('periods.last_24_hours') },
              ...DATE_PRESETS.map((p) => ({ value: p, label: t(`periods.${p}`) })),
              { value: 'custom', label: t('periods.custom') },
            ]}
            labelRender={({ value, label }) => (value === 'custom' ? t('periods.custom_chosen') : label)}
            data-testid="logs-filter-period"
          />
        </Field>
        {filters.period === 'custom' ? (
          <>
            <Field id={`${base}-from`} label={t('logs.filters.from')} width={160}>
              <Input
                id={`${base}-from`}
                type="date"
                value={filters.from}
                max={filters.to}
                onChange={(e) => e.target.value && e.target.value <= filters.to && change({ from: e.target.value })}
                data-testid="logs-filter-from"
              />
            </Field>
            <Field id={`${base}-to`} label={t('logs.filters.to')} width={160}>
              <Input
                id={`${base}-to`}
                type="date"
                value={filters.to}
                min={filters.from}
                onChange={(e) => e.target.value && e.target.value >= filters.from && change({ to: e.target.value })}
                data-testid="logs-filter-to"
              />
            </Field>
          </>
        ) : null}
        <Field id={`${base}-tail`} label={t('logs.tail.label')} width={120}>
          <Switch
            id={`${base}-tail`}
            checked={tailOn && tailable}
            disabled={!tailable}
            onChange={(on) => {
              if (!on) tail.clear();
              setTailOn(on);
            }}
            style={{ alignSelf: 'flex-start', marginTop: 4 }}
            data-testid="logs-tail"
          />
        </Field>
      </FilterBar>
      <Flex vertical gap={4} style={{ marginBottom: 12 }} aria-live="polite">
        {firstWindow ? (
          <Typography.Text type="secondary" data-testid="logs-window">
            {t('logs.window', {
              from: formatDateTime(range ? new Date(range.from).toISOString() : firstWindow.from, lang),
              to: formatDateTime(range ? new Date(range.to).toISOString() : firstWindow.to, lang),
            })}
          </Typography.Text>
        ) : null}
        {isSplit(range) ? (
          <Typography.Text type="secondary" data-testid="logs-split-note">
            {t('logs.split_note', { days: WINDOW_DAYS })}
          </Typography.Text>
        ) : null}
        {tailOn && !tailable ? (
          <Typography.Text type="secondary" data-testid="logs-tail-unavailable">
            {t('logs.tail.unavailable')}
          </Typography.Text>
        ) : tailOn ? (
          <Typography.Text type="secondary" data-testid="logs-tail-status">
            {tail.paused ? t('logs.tail.paused') : t('logs.tail.on', { seconds: TAIL_INTERVAL_MS / 1000 })}
            {tail.lines.length ? ` ${t('logs.tail.new_lines', { count: tail.lines.length })}` : null}
          </Typography.Text>
        ) : !tailable ? (
          <Typography.Text type="secondary">{t('logs.tail.unavailable')}</Typography.Text>
        ) : null}
      </Flex>
      <ListStates
        query={{ ...list, data: list.data ? { results: loaded } : undefined }}
        errorTitle={t('logs.error_title')}
        refetchTestId="logs-refetch-error"
      >
        <Table<HarakaLogLine>
          rowKey="id"
          columns={columns}
          dataSource={rows}
          loading={list.isPending}
          pagination={false}
          size="small"
          tableLayout="fixed"
          scroll={phone ? undefined : { x: 1000 }}
          locale={{ emptyText: list.isPending ? ' ' : <PageEmpty description={t('logs.empty')} /> }}
          onRow={(l) => ({ 'data-testid': 'log-row', 'data-severity': l.severity }) as object}
          aria-label={t('logs.table_label')}
          data-testid="logs-table"
        />
        <Flex justify="space-between" align="center" gap={12} wrap style={{ marginTop: 16 }}>
          <Typography.Text type="secondary" data-testid="logs-count">
            {t('logs.shown_count', { count: rows.length })}
          </Typography.Text>
          {list.hasNextPage ? (
            <Button
              onClick={() => void list.fetchNextPage()}
              loading={list.isFetchingNextPage}
              data-testid="logs-load-more"
            >
              {list.isFetchingNextPage ? t('logs.loading_more') : t('logs.load_more')}
            </Button>
          ) : list.data && rows.length ? (
            <Typography.Text type="secondary" data-testid="logs-end">
              {t('logs.end')}
            </Typography.Text>
          ) : null}
        </Flex>
      </ListStates>
      <RemoteVersion />
    </section>
  );
}
