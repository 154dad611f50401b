import { PlusOutlined } from '@ant-design/icons';
import Button from 'antd/es/button';
import Select from 'antd/es/select';
import { useSession } from '@qc/auth';
import { LIMITS } from '@qc/contracts';
import {
  Field,
  FilterBar,
  KeysetList,
  PageHeader,
  ReloadButton,
  TextFilter,
  useKeysetNavigation,
  usePhoneLayout,
} from '@qc/ui';
import { usePreferences } from '@qc/ui-state';
import { useId, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { DomainSelect } from '../domains/DomainSelect';
import { orderingOf, userColumns } from './users.columns';
import {
  DEFAULT_USER_FILTERS,
  isFiltered,
  readUserFilters,
  toUserListQuery,
  writeUserFilters,
  type UserFilters,
} from './users.filters';
import { useUserList } from './users.queries';
import { MFA_FILTERS, USER_ORDERINGS, type AdminUser, type Role, type UserOrdering } from './users.types';

const ORDERING_KEYS: Record<UserOrdering, string> = {
  email: 'email_asc',
  '-email': 'email_desc',
  '-date_joined': 'joined_desc',
  date_joined: 'joined_asc',
};

/**
 * Spec §2 `users`: the accounts the caller administers (admin: everyone; domain_admin: their
 * domain's, scoped by the API). Filters, sort and cursor live in the URL; keyset pages.
 */
export function UsersPage() {
  const { t, i18n } = useTranslation('admin');
  const lang = i18n.resolvedLanguage ?? 'fr';
  const navigate = useNavigate();
  const phone = usePhoneLayout();
  const me = useSession((s) => s.user);
  const isAdmin = me?.role === 'admin';
  const [params] = useSearchParams();
  const filters = useMemo(() => readUserFilters(params), [params]);
  const pageSize = Math.min(
    usePreferences((s) => s.preferences.defaultPageSize),
    LIMITS.maxPageSize,
  );
  const query = useMemo(() => toUserListQuery(filters, pageSize, isAdmin), [filters, pageSize, isAdmin]);
  const list = useUserList(query);
  const base = useId();

  const { show, pager } = useKeysetNavigation(filters, writeUserFilters, list);
  const change = (patch: Partial<UserFilters>) => show({ ...filters, ...patch, cursor: null });
  const filtered = isFiltered(filters);
  const changed = filtered || filters.ordering !== DEFAULT_USER_FILTERS.ordering;
  // On a phone only the search shows at first (FilterBar's `more`): the others are counted.
  const moreActive =
    (['role', 'domain', 'active', 'mfa'] as const).filter((k) => filters[k] !== '').length +
    (filters.ordering !== DEFAULT_USER_FILTERS.ordering ? 1 : 0);

  const columns = useMemo(
    () => userColumns(t, lang, phone, filters.ordering, me?.id),
    [t, lang, phone, filters.ordering, me?.id],
  );
  // A domain_admin's accounts are users and domain_admins of their domain: no "admin" choice.
  const roles: Role[] = isAdmin ? ['admin', 'domain_admin', 'user'] : ['domain_admin', 'user'];

  const moreFilters = (
    <>
      <Field id={`${base}-role`} label={t('users.filters.role')} width={200}>
        <Select<Role>
          id={`${base}-role`}
          value={filters.role || undefined}
          placeholder={t('users.filters.any_role')}
          allowClear
          onChange={(role) => change({ role: role ?? '' })}
          options={roles.map((r) => ({ value: r, label: t(`roles.${r}`, { ns: 'common' }) }))}
          data-testid="users-filter-role"
        />
      </Field>
      {isAdmin ? (
        <Field id={`${base}-domain`} label={t('users.filters.domain')} width={220}>
          <DomainSelect
            id={`${base}-domain`}
            value={filters.domain || null}
            placeholder={t('users.filters.any_domain')}
            allowClear
            onChange={(domain) => change({ domain: domain ?? '' })}
            data-testid="users-filter-domain"
          />
        </Field>
      ) : null}
      <Field id={`${base}-active`} label={t('users.filters.active')} width={160}>
        <Select<'true' | 'false'>
          id={`${base}-active`}
          value={filters.active || undefined}
          placeholder={t('users.filters.any_state')}
          allowClear
          onChange={(active) => change({ active: active ?? '' })}
          options={[
            { value: 'true', label: t('users.filters.active_true') },
            { value: 'false', label: t('users.filters.active_false') },
          ]}
          data-testid="users-filter-active"
        />
      </Field>
      <Field id={`${base}-mfa`} label={t('users.filters.mfa')} width={220}>
        <Select<(typeof MFA_FILTERS)[number]>
          id={`${base}-mfa`}
          value={filters.mfa || undefined}
          placeholder={t('users.filters.any_mfa')}
          allowClear
          onChange={(mfa) => change({ mfa: mfa ?? '' })}
          options={MFA_FILTERS.map((m) => ({ value: m, label: t(`users.filters.mfa_${m}`) }))}
          data-testid="users-filter-mfa"
        />
      </Field>
      <Field id={`${base}-ordering`} label={t('users.filters.ordering')} width={240}>
        <Select<UserOrdering>
          id={`${base}-ordering`}
          value={filters.ordering}
          onChange={(ordering) => change({ ordering })}
          options={USER_ORDERINGS.map((o) => ({ value: o, label: t(`users.ordering.${ORDERING_KEYS[o]}`) }))}
          data-testid="users-ordering"
        />
      </Field>
    </>
  );

  return (
    <section aria-labelledby="users-title" data-testid="users-page">
      <PageHeader
        title={<span id="users-title">{t('users.title')}</span>}
        description={
          isAdmin
            ? t('users.description')
            : t('users.description_domain_admin', { domain: me?.domain?.name ?? t('none') })
        }
        extra={
          <>
            <ReloadButton query={list} label={t('users.reload')} testId="users-reload" />
            <Button
              type="primary"
              icon={<PlusOutlined aria-hidden />}
              onClick={() => navigate('new')}
              data-testid="users-new"
            >
              {t('users.new')}
            </Button>
          </>
        }
      />
      <FilterBar
        label={t('users.filters.label')}
        testPrefix="users"
        more={{ filters: moreFilters, active: moreActive }}
        reset={{ shown: changed, onReset: () => show({ ...DEFAULT_USER_FILTERS }) }}
      >
        <TextFilter
          id={`${base}-q`}
          label={t('users.filters.search')}
          placeholder={t('users.filters.search_placeholder')}
          value={filters.q}
          onCommit={(q) => change({ q })}
          width={240}
          testId="users-filter-q"
        />
      </FilterBar>
      <KeysetList<AdminUser>
        list={list}
        pager={pager}
        testPrefix="users"
        errorTitle={t('users.error_title')}
        emptyText={t(filtered ? 'users.empty_filtered' : 'users.empty')}
        pagerLabel={t('users.pager_label')}
        minWidth={1020}
        columns={columns}
        onChange={(_pagination, _filters, sorter) => {
          const s = Array.isArray(sorter) ? sorter[0] : sorter;
          change({ ordering: orderingOf(s?.columnKey, s?.order) });
        }}
        onRow={() => ({ 'data-testid': 'user-row' }) as object}
        aria-label={t('users.table_label')}
      />
    </section>
  );
}
