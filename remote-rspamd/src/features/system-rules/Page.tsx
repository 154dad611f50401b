import { PlusOutlined } from '@ant-design/icons';
import Button from 'antd/es/button';
import { PageHeader } from '@qc/ui';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { isFiltered } from '../rules/rule-filters';
import { RuleFilterBar } from '../rules/RuleFilterBar';
import { RuleTable } from '../rules/RuleTable';
import { SYSTEM_ENDPOINT } from '../rules/rules.api';
import { RSPAMD_PATHS, SYSTEM_RULE_ACTIONS, type SystemRule } from '../rules/rules.types';
import { ListTop } from '../rules/StatusLine';
import { useRuleListPage } from '../rules/useRuleListPage';
import { systemColumns, systemRuleName, systemSummary } from './system.columns';

const SPEC = { actions: SYSTEM_RULE_ACTIONS };

/** Spec §2 `rspamd/system-rules`: rules whose patterns (from, subject, to, ip) must all match. */
export function SystemRulesPage() {
  const { t } = useTranslation('rspamd');
  const navigate = useNavigate();
  const page = useRuleListPage<SystemRule>(SYSTEM_ENDPOINT, SPEC);
  const columns = useMemo(() => systemColumns(t), [t]);
  const summary = useMemo(() => (r: SystemRule) => systemSummary(r, t), [t]);
  return (
    <section aria-labelledby="system-title" data-testid="system-page">
      <PageHeader
        title={<span id="system-title">{t('system.title')}</span>}
        description={t('system.description')}
        extra={
          <Button
            type="primary"
            icon={<PlusOutlined aria-hidden />}
            onClick={() => navigate(RSPAMD_PATHS.systemCreate)}
            data-testid="system-new"
          >
            {t('system.new')}
          </Button>
        }
      />
      <ListTop list={page.list} statusOf={SYSTEM_ENDPOINT.list} reloadLabel={t('list.reload')} testPrefix="system" />
      <RuleFilterBar
        filters={page.filters}
        spec={SPEC}
        onChange={page.change}
        onReset={page.reset}
        testPrefix="system"
        searchPlaceholder={t('system.search_placeholder')}
      />
      <RuleTable<SystemRule>
        kind="system"
        ep={SYSTEM_ENDPOINT}
        list={page.list}
        pager={page.pager}
        query={page.query}
        testPrefix="system"
        errorTitle={t('kinds.system.error_title')}
        emptyText={t(isFiltered(page.filters) ? 'list.empty_filtered' : 'system.empty')}
        columns={columns}
        summary={summary}
        nameOf={systemRuleName}
        minWidth={960}
      />
    </section>
  );
}
