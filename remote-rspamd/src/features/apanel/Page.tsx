import { PlusOutlined } from '@ant-design/icons';
import Button from 'antd/es/button';
import { Field, PageHeader } from '@qc/ui';
import { useId, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { isFiltered } from '../rules/rule-filters';
import { RuleFilterBar } from '../rules/RuleFilterBar';
import { RuleTable } from '../rules/RuleTable';
import { APANEL_ENDPOINT } from '../rules/rules.api';
import { APANEL_ACTIONS, RSPAMD_PATHS, type ApanelFilter } from '../rules/rules.types';
import { ListTop } from '../rules/StatusLine';
import { useRuleListPage } from '../rules/useRuleListPage';
import { apanelColumns, apanelName, apanelSummary } from './apanel.columns';
import { OwnerSelect } from './OwnerSelect';

const SPEC = { actions: APANEL_ACTIONS, owner: true };

/** Spec §2 `rspamd/apanel-filters`: sender → recipient filters of the system or of a user. */
export function ApanelPage() {
  const { t } = useTranslation('rspamd');
  const navigate = useNavigate();
  const page = useRuleListPage<ApanelFilter>(APANEL_ENDPOINT, SPEC);
  const columns = useMemo(() => apanelColumns(t), [t]);
  const summary = useMemo(() => (f: ApanelFilter) => apanelSummary(f, t), [t]);
  const ownerId = useId();
  return (
    <section aria-labelledby="apanel-title" data-testid="apanel-page">
      <PageHeader
        title={<span id="apanel-title">{t('apanel.title')}</span>}
        description={t('apanel.description')}
        extra={
          <Button
            type="primary"
            icon={<PlusOutlined aria-hidden />}
            onClick={() => navigate(RSPAMD_PATHS.apanelCreate)}
            data-testid="apanel-new"
          >
            {t('apanel.new')}
          </Button>
        }
      />
      <ListTop list={page.list} statusOf={APANEL_ENDPOINT.list} reloadLabel={t('list.reload')} testPrefix="apanel" />
      <RuleFilterBar
        filters={page.filters}
        spec={SPEC}
        onChange={page.change}
        onReset={page.reset}
        testPrefix="apanel"
        searchPlaceholder={t('apanel.search_placeholder')}
        extra={
          <Field id={ownerId} label={t('apanel.filter_owner')} width={240}>
            <OwnerSelect
              id={ownerId}
              value={page.filters.owner || undefined}
              onChange={(owner) => page.change({ owner: owner ?? '' })}
              placeholder={t('apanel.any_owner')}
              allowClear
              data-testid="apanel-filter-owner"
            />
          </Field>
        }
      />
      <RuleTable<ApanelFilter>
        kind="apanel"
        ep={APANEL_ENDPOINT}
        list={page.list}
        pager={page.pager}
        query={page.query}
        testPrefix="apanel"
        errorTitle={t('kinds.apanel.error_title')}
        emptyText={t(isFiltered(page.filters) ? 'list.empty_filtered' : 'apanel.empty')}
        columns={columns}
        summary={summary}
        nameOf={apanelName}
        minWidth={960}
      />
    </section>
  );
}
