import { DeleteOutlined } from '@ant-design/icons';
import Button from 'antd/es/button';
import Flex from 'antd/es/flex';
import Switch from 'antd/es/switch';
import type { ColumnsType } from 'antd/es/table';
import { KeysetList, usePhoneLayout, VisuallyHidden, type KeysetPager, type ListQuery } from '@qc/ui';
import { notify } from '@qc/ui-state';
import { useMemo, useState, type Key, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { BulkBar } from './BulkBar';
import { useConfirmDelete } from './DeleteRule';
import { ruleErrorText } from './rule-errors';
import type { RuleEndpoint } from './rules.api';
import { useUpdateRule } from './rules.queries';

/** What every rule of the three kinds has. */
export interface BaseRule {
  id: string;
  enabled: boolean;
}

/** The kind's texts: `kinds.<kind>.*` of the rspamd namespace (filter, apanel, system). */
export type RuleKind = 'filter' | 'apanel' | 'system';

export interface RuleTableProps<T extends BaseRule> {
  kind: RuleKind;
  ep: RuleEndpoint;
  list: ListQuery<T> & { data?: { results: T[]; next_cursor: string | null } };
  pager: KeysetPager;
  /** The rows are those of this query: the selection is dropped when it changes. */
  query: object;
  testPrefix: string;
  errorTitle: string;
  emptyText: ReactNode;
  /** The columns that describe a rule (a wide screen); the state and delete columns are added. */
  columns: ColumnsType<T>;
  /** A phone's one stacked cell per rule (the state and delete controls are added under it). */
  summary: (rule: T) => ReactNode;
  /** How a rule is named to people (confirmations, notices, the controls' names). */
  nameOf: (rule: T) => string;
  minWidth: number;
}

/**
 * A kind's rules as a keyset table: selection with bulk enable/disable/delete, an enabled switch
 * and a delete button per row (behind a confirmation), and the list's failure and empty states.
 */
export function RuleTable<T extends BaseRule>({
  kind,
  ep,
  list,
  pager,
  query,
  testPrefix,
  errorTitle,
  emptyText,
  columns,
  summary,
  nameOf,
  minWidth,
}: RuleTableProps<T>) {
  const { t } = useTranslation('rspamd');
  const phone = usePhoneLayout();
  const update = useUpdateRule<T>(ep);
  const { confirmDelete, contextHolder } = useConfirmDelete(kind, ep);
  const [selected, setSelected] = useState<Key[]>([]);
  const [toggling, setToggling] = useState<ReadonlySet<string>>(new Set());
  // The selection belongs to the page shown: dropped when the page or the filters change.
  const [selectionOf, setSelectionOf] = useState(query);
  if (selectionOf !== query) {
    setSelectionOf(query);
    setSelected([]);
  }

  const toggle = async (rule: T, enabled: boolean) => {
    setToggling((s) => new Set(s).add(rule.id));
    try {
      await update.mutateAsync({ id: rule.id, changes: { enabled } });
      notify({
        type: 'success',
        title: t(`kinds.${kind}.updated`),
        description: t(enabled ? 'list.now_enabled' : 'list.now_disabled', { name: nameOf(rule) }),
      });
    } catch (error) {
      notify({ type: 'error', title: t(`kinds.${kind}.update_error`), description: ruleErrorText(error, t) });
    } finally {
      setToggling((s) => {
        const next = new Set(s);
        next.delete(rule.id);
        return next;
      });
    }
  };

  const stateSwitch = (rule: T) => (
    <Switch
      checked={rule.enabled}
      loading={toggling.has(rule.id)}
      onChange={(on) => void toggle(rule, on)}
      aria-label={t('list.enabled_label', { name: nameOf(rule) })}
      data-testid="rule-enabled"
    />
  );
  const deleteButton = (rule: T) => (
    <Button
      danger
      // Touch-sized on a phone (small is about 24 px high).
      size={phone ? 'middle' : 'small'}
      icon={<DeleteOutlined aria-hidden />}
      onClick={() => confirmDelete(rule.id, nameOf(rule))}
      aria-label={t('list.delete_label', { name: nameOf(rule) })}
      title={t('list.delete')}
      data-testid="rule-delete"
    />
  );

  const allColumns: ColumnsType<T> = useMemo(
    () =>
      phone
        ? [
            {
              key: 'summary',
              title: t('list.columns.rule'),
              render: (_: unknown, rule: T) => (
                <Flex vertical gap={6} style={{ minWidth: 0 }} data-testid="rule-summary">
                  {summary(rule)}
                  <Flex gap={12} align="center">
                    {stateSwitch(rule)}
                    {deleteButton(rule)}
                  </Flex>
                </Flex>
              ),
            },
          ]
        : [
            ...columns,
            {
              key: 'enabled',
              title: t('list.columns.enabled'),
              width: 90,
              render: (_: unknown, rule: T) => stateSwitch(rule),
            },
            {
              key: 'actions',
              title: <VisuallyHidden>{t('list.columns.actions')}</VisuallyHidden>,
              width: 64,
              render: (_: unknown, rule: T) => deleteButton(rule),
            },
          ],
    // stateSwitch/deleteButton read `toggling`: rebuilt with it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [phone, columns, summary, t, toggling],
  );

  const rowSelection = useMemo(
    () => ({
      selectedRowKeys: selected,
      onChange: setSelected,
      // antd names it "Select all" in English whatever the language; it selects this page only.
      getTitleCheckboxProps: () => ({ 'aria-label': t('bulk.select_page') }),
      getCheckboxProps: (rule: T) => ({ 'aria-label': t('bulk.select_row', { name: nameOf(rule) }) }),
    }),
    [selected, t, nameOf],
  );

  const rows = list.data?.results ?? [];
  return (
    <>
      {contextHolder}
      <BulkBar
        kind={kind}
        ep={ep}
        rules={rows.filter((r) => selected.includes(r.id)).map((r) => ({ id: r.id, name: nameOf(r) }))}
        onDone={() => setSelected([])}
        testPrefix={testPrefix}
      />
      <KeysetList<T>
        list={list}
        pager={pager}
        testPrefix={testPrefix}
        errorTitle={errorTitle}
        emptyText={emptyText}
        pagerLabel={t(`kinds.${kind}.pager_label`)}
        minWidth={minWidth}
        columns={allColumns}
        rowSelection={rowSelection}
        onRow={(rule) => ({ 'data-testid': 'rule-row', 'data-rule-id': rule.id }) as object}
        aria-label={t(`kinds.${kind}.table_label`)}
      />
    </>
  );
}
