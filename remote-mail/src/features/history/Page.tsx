import Flex from 'antd/es/flex';
import Select from 'antd/es/select';
import type { ColumnsType } from 'antd/es/table';
import Tag from 'antd/es/tag';
import Typography from 'antd/es/typography';
import { useHasRole, useSession } from '@qc/auth';
import type { HistoryCategory, HistoryEntry, HistoryTargetKind } from '@qc/contracts';
import {
  Field,
  FilterBar,
  formatDateTime,
  KeysetList,
  PageHeader,
  ReloadButton,
  TextFilter,
  useKeysetNavigation,
  usePhoneLayout,
} from '@qc/ui';
import { usePreferences } from '@qc/ui-state';
import type { TFunction } from 'i18next';
import { useId, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router-dom';
import { PeriodField } from '../filters/PeriodField';
import { LearnMenu } from '../email/LearnMenu';
import { shownSubject } from '../email/bidi';
import { useToday } from '../filters/useToday';
import { failureReason } from '../quarantine/failure-reason';
import { CELL_LINK } from '../quarantine/quarantine.format';
import { LIMITS } from '../quarantine/quarantine.types';
import {
  actionsOf,
  DEFAULT_HISTORY_FILTERS,
  HISTORY_CATEGORIES,
  HISTORY_CATEGORY_ACTIONS,
  isMailAction,
  readHistoryFilters,
  toHistoryQuery,
  writeHistoryFilters,
  type HistoryFilters,
} from './history.filters';
import { HistoryExportButton } from './ExportButton';
import { useHistoryList } from './history.queries';

const ACTION_COLORS: Record<HistoryEntry['action'], string> = {
  download: 'blue',
  release: 'green',
  delete: 'red',
  user_create: 'cyan',
  user_update: 'blue',
  user_delete: 'volcano',
  mfa_reset: 'orange',
  domain_create: 'cyan',
  domain_update: 'blue',
  domain_delete: 'volcano',
  filter_create: 'cyan',
  filter_update: 'blue',
  filter_delete: 'volcano',
  login_failed: 'red',
  account_locked: 'red',
  refresh_reuse: 'volcano',
  totp_replay: 'volcano',
  mfa_enabled: 'green',
  mfa_disabled: 'orange',
  password_changed: 'gold',
  learn_spam: 'magenta',
  learn_ham: 'lime',
  list_add: 'cyan',
  list_remove: 'volcano',
  list_clear: 'red',
};

/**
 * A list row's label as the api records it (`whitelist jane@example.com`, `blacklist of user
 * jane@corp.example`, `whitelist of domain corp.example`, `blacklist global`): its English words in
 * the page's language, the address or name as recorded. Anything else is shown as recorded.
 */
export function listTargetLabel(t: TFunction<'mail'>, label: string): string {
  const m = /^(whitelist|blacklist)(?: of (user|domain))?(?: (global))?(?: (.*))?$/.exec(label);
  if (!m) return label;
  const kind = t(`history.list_label.${m[1] as 'whitelist' | 'blacklist'}`);
  const owner = m[2] ? `${t('history.list_label.of')} ${t(`history.list_label.${m[2] as 'user' | 'domain'}`)}` : null;
  const global = m[3] ? t('history.list_label.global') : null;
  return [kind, owner, global, m[4] ?? null].filter(Boolean).join(' ');
}
/**
 * The page of what a row is about, for those whose route it is (DESIGN §3: users domain_admin;
 * domains and Rspamd rules admin). A standard filter's page needs its family, which the row does
 * not record: no link for it.
 */
export function targetPage(
  kind: HistoryTargetKind,
  id: string,
  can: { opensUsers: boolean; opensAdmin: boolean },
): string | null {
  const ref = encodeURIComponent(id);
  if (kind === 'user') return can.opensUsers ? `/users/${ref}` : null;
  if (!can.opensAdmin) return null;
  if (kind === 'domain') return `/domains/${ref}`;
  if (kind === 'apanel_filter') return `/rspamd/apanel-filters/edit/${ref}`;
  if (kind === 'system_rule') return `/rspamd/system-rules/edit/${ref}`;
  return null;
}

// Long action names wrap inside their tag instead of overflowing the column.
const WRAPPING_TAG = { whiteSpace: 'normal' } as const;

/**
 * Spec §3 `history`: the audit trail of downloads, releases and deletions, and (issue 16) of the
 * administration of users and domains and the accounts' security events, and (issue 17) of the
 * Rspamd rules. Filters and cursor live in the URL.
 */
export function HistoryPage() {
  const { t, i18n } = useTranslation('mail');
  const lang = i18n.resolvedLanguage ?? 'fr';
  const phone = usePhoneLayout();
  const role = useSession((s) => s.user?.role);
  const [params] = useSearchParams();
  const filters = useMemo(() => readHistoryFilters(params), [params]);
  const pageSize = Math.min(
    usePreferences((s) => s.preferences.defaultPageSize),
    LIMITS.maxPageSize,
  );
  const now = useToday();
  const query = useMemo(() => toHistoryQuery(filters, pageSize, now), [filters, pageSize, now]);
  const list = useHistoryList(query);
  const base = useId();

  const { show, pager } = useKeysetNavigation(filters, writeHistoryFilters, list);
  const change = (patch: Partial<HistoryFilters>) => show({ ...filters, ...patch, cursor: null });
  const changed = filters.category !== '' || filters.action !== '' || filters.user !== '' || filters.period !== '';
  // The pages of remote-admin, for those whose routes they are (DESIGN §3: users domain_admin, domains admin).
  const opensUsers = useHasRole('domain_admin');
  const opensAdmin = useHasRole('admin');
  const actionLabel = (a: HistoryEntry['action']) => t(`history.actions.${a}`, { defaultValue: a });
  const actionOption = (a: HistoryEntry['action']) => ({ value: a, label: actionLabel(a) });
  // Every category's actions under its name; once a category is chosen, only its own.
  const actionOptions = filters.category
    ? actionsOf(filters.category).map(actionOption)
    : HISTORY_CATEGORIES.map((c) => ({
        label: t(`history.categories.${c}`),
        title: t(`history.categories.${c}`),
        options: HISTORY_CATEGORY_ACTIONS[c].map(actionOption),
      }));
  const changeCategory = (category: HistoryCategory | undefined) => {
    const next = category ?? '';
    const keeps = filters.action && actionsOf(next).includes(filters.action);
    change({ category: next, action: keeps ? filters.action : '' });
  };

  const dateCell = (v: string) => <time dateTime={v}>{formatDateTime(v, lang)}</time>;
  const actionCell = (v: HistoryEntry['action']) => (
    <Tag color={ACTION_COLORS[v] ?? 'default'} style={WRAPPING_TAG}>
      {actionLabel(v)}
    </Tag>
  );
  // A row about a user, a domain or an Rspamd rule: its e-mail or name as recorded, a link to its
  // page for those who may open it while it exists, and the fields an update changed.
  const targetCell = (target: NonNullable<HistoryEntry['target']>, changes: string[] | null) => {
    const page = target.id !== null ? targetPage(target.kind, target.id, { opensUsers, opensAdmin }) : null;
    const rule = target.kind !== 'user' && target.kind !== 'domain';
    const label =
      target.kind === 'list_entry' || target.kind === 'list' ? listTargetLabel(t, target.label) : target.label;
    const fields = changes?.length
      ? changes
          .map((f) =>
            t(rule ? `history.rule_fields.${f}` : `history.fields.${f}`, {
              defaultValue: t(`history.fields.${f}`, { defaultValue: f }),
            }),
          )
          .join(', ')
      : null;
    return (
      <Flex vertical gap={2} style={{ minWidth: 0 }} data-testid="history-target">
        <span style={CELL_LINK}>
          <Typography.Text type="secondary">{t(`history.target_kinds.${target.kind}`)}</Typography.Text>{' '}
          {page ? (
            <Link to={page} title={label} data-testid="history-target-link">
              {label}
            </Link>
          ) : (
            <span title={label}>{label}</span>
          )}
        </span>
        {fields ? (
          <Typography.Text type="secondary" style={{ ...CELL_LINK, fontSize: 12 }} data-testid="history-changes">
            <span title={fields}>{t('history.changed', { fields })}</span>
          </Typography.Text>
        ) : null}
      </Flex>
    );
  };
  // The mail by its subject where the caller may see it (else its id, as recorded); or the user or
  // domain an administration or security row is about.
  const aboutCell = (entry: HistoryEntry) => {
    const mail = mailCell(entry);
    if (!entry.target) return mail ?? t('none');
    const target = targetCell(entry.target, entry.changes);
    // A copy released to another address is about both: the mail, and where its copy went.
    return entry.target.kind === 'release_to' && mail ? (
      <Flex vertical gap={2} style={{ minWidth: 0 }}>
        {mail}
        {target}
      </Flex>
    ) : (
      target
    );
  };
  const mailCell = (entry: HistoryEntry) => {
    if (entry.email_id === null) return null;
    const name = entry.email ? shownSubject(entry.email.subject, t('no_subject')) : entry.email_id;
    const link = (
      <Link
        to={`/mail/${encodeURIComponent(entry.email_id)}`}
        title={entry.email ? `${name} (${entry.email_id})` : name}
        style={CELL_LINK}
        data-testid="history-email-link"
      >
        {name}
      </Link>
    );
    // A mail the caller still sees: it can be learned from here (the api says if its bytes are gone).
    if (!entry.email) return link;
    return (
      <Flex gap={6} align="center" style={{ minWidth: 0 }}>
        <span style={{ minWidth: 0, flex: '1 1 auto', overflow: 'hidden' }}>{link}</span>
        <LearnMenu
          id={entry.email_id}
          size="small"
          label={t('history.learn_menu')}
          ariaLabel={`${t('history.learn_menu_label')} (${name})`}
          testId="history-learn"
        />
      </Flex>
    );
  };
  // A failure says why, in words, under its tag (visible: no hover-only tooltip).
  const resultCell = (entry: HistoryEntry) => (
    <Flex vertical align="flex-start" gap={2}>
      <Tag color={entry.result === 'success' ? 'success' : 'error'} data-testid="history-result">
        {t(`history.results.${entry.result}`, { defaultValue: entry.result })}
      </Tag>
      {/* The codes explained are those of mail actions; another failure is its action's name. */}
      {entry.result === 'failure' && isMailAction(entry.action) ? (
        <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid="history-reason">
          {failureReason(t, entry.code)}
        </Typography.Text>
      ) : null}
    </Flex>
  );

  // Fixed layout: the e-mail columns share what the fixed ones leave and cut long text with an
  // ellipsis (full text in the title), so the table fits the page (1280 px screens) instead of
  // growing with its content; below its minimum width it scrolls. On a phone, each row is one
  // stacked cell instead: action and result, the e-mail, then user, date and IP.
  const columns: ColumnsType<HistoryEntry> = phone
    ? [
        {
          key: 'summary',
          title: t('history.columns.entry'),
          render: (_: unknown, entry) => (
            <Flex vertical gap={4} style={{ minWidth: 0 }} data-testid="history-summary">
              <Flex gap={6} align="flex-start">
                {actionCell(entry.action)}
                {resultCell(entry)}
              </Flex>
              {aboutCell(entry)}
              <Typography.Text type="secondary" ellipsis style={{ fontSize: 12 }}>
                <span title={entry.user.email}>{entry.user.email}</span> · {dateCell(entry.date)}
                {entry.ip_address ? ` · ${entry.ip_address}` : null}
              </Typography.Text>
            </Flex>
          ),
        },
      ]
    : [
        {
          key: 'date',
          title: t('history.columns.date'),
          dataIndex: 'date',
          width: 150,
          render: dateCell,
        },
        {
          key: 'user',
          title: t('history.columns.user'),
          dataIndex: ['user', 'email'],
          ellipsis: { showTitle: false },
          render: (v: string) => <span title={v}>{v}</span>,
        },
        {
          key: 'action',
          title: t('history.columns.action'),
          dataIndex: 'action',
          width: 140,
          render: actionCell,
        },
        {
          key: 'email',
          title: t('history.columns.about'),
          dataIndex: 'email_id',
          ellipsis: { showTitle: false },
          render: (_: string, entry) => aboutCell(entry),
        },
        {
          key: 'ip',
          title: t('history.columns.ip'),
          dataIndex: 'ip_address',
          width: 140,
          ellipsis: { showTitle: false },
          render: (v: string | null) => (v ? <span title={v}>{v}</span> : t('none')),
        },
        {
          key: 'result',
          title: t('history.columns.result'),
          dataIndex: 'result',
          width: 210,
          render: (_: HistoryEntry['result'], entry) => resultCell(entry),
        },
      ];

  return (
    <section aria-labelledby="history-title" data-testid="history-page">
      <PageHeader
        title={<span id="history-title">{t('history.title')}</span>}
        description={t(
          role === 'user'
            ? 'history.description_user'
            : role === 'domain_admin'
              ? 'history.description_domain_admin'
              : 'history.description',
        )}
        extra={<ReloadButton query={list} label={t('history.reload')} testId="history-reload" />}
      />
      <FilterBar
        label={t('history.filters.label')}
        testPrefix="history"
        reset={{ shown: changed, onReset: () => show({ ...DEFAULT_HISTORY_FILTERS }) }}
      >
        <Field id={`${base}-category`} label={t('history.filters.category')} width={190}>
          <Select<HistoryCategory>
            id={`${base}-category`}
            value={filters.category || undefined}
            placeholder={t('history.filters.any_category')}
            allowClear
            onChange={changeCategory}
            options={HISTORY_CATEGORIES.map((c) => ({ value: c, label: t(`history.categories.${c}`) }))}
            data-testid="history-filter-category"
          />
        </Field>
        <Field id={`${base}-action`} label={t('history.filters.action')} width={230}>
          <Select<HistoryEntry['action']>
            id={`${base}-action`}
            value={filters.action || undefined}
            placeholder={t('history.filters.any_action')}
            allowClear
            onChange={(action) => change({ action: action ?? '' })}
            options={actionOptions}
            // Every option in the page (about twenty): found by the browser's and tests' searches alike.
            virtual={false}
            popupMatchSelectWidth={false}
            data-testid="history-filter-action"
          />
        </Field>
        <TextFilter
          id={`${base}-user`}
          label={t('history.filters.user')}
          placeholder={t('history.filters.user_placeholder')}
          value={filters.user}
          onCommit={(user) => change({ user })}
          width={260}
          testId="history-filter-user"
        />
        <PeriodField
          id={`${base}-period`}
          label={t('history.filters.period')}
          value={filters}
          onChange={change}
          testId="history-filter-period"
        />
        <HistoryExportButton query={query} />
      </FilterBar>
      <KeysetList<HistoryEntry>
        list={list}
        pager={pager}
        testPrefix="history"
        errorTitle={t('history.error_title')}
        emptyText={t('history.empty')}
        pagerLabel={t('history.pager_label')}
        minWidth={900}
        columns={columns}
        onRow={() => ({ 'data-testid': 'history-row' }) as object}
        aria-label={t('history.table_label')}
      />
    </section>
  );
}
