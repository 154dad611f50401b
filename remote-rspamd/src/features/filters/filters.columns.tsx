import Flex from 'antd/es/flex';
import type { ColumnsType } from 'antd/es/table';
import Typography from 'antd/es/typography';
import type { TFunction } from 'i18next';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { CELL_TEXT, WhenBy } from '../rules/RuleCells';
import { ActionTag, PatternTypeTag } from '../rules/RuleTags';
import { RSPAMD_PATHS, type RspamdFilter } from '../rules/rules.types';

/** The value of a filter, a link to its form. */
export function valueLink(f: RspamdFilter): ReactNode {
  return (
    <Link to={RSPAMD_PATHS.filterEdit(f.type, f.id)} title={f.value} style={CELL_TEXT} data-testid="rule-link">
      {f.value}
    </Link>
  );
}

/** A filter as a phone shows it: one stacked cell. */
export function filterSummary(f: RspamdFilter): ReactNode {
  return (
    <>
      {valueLink(f)}
      <Flex gap={4} wrap>
        <PatternTypeTag type={f.pattern_type} />
        <ActionTag action={f.action} />
      </Flex>
      {f.description ? <Typography.Text ellipsis>{f.description}</Typography.Text> : null}
      <WhenBy at={f.created_at} by={f.created_by} />
    </>
  );
}

/** The describing columns of a filter list on a wide screen. */
export function filterColumns(t: TFunction<'rspamd'>): ColumnsType<RspamdFilter> {
  return [
    {
      key: 'value',
      title: t('filters.columns.value'),
      render: (_: unknown, f) => (
        <Flex vertical gap={4} align="flex-start" style={{ minWidth: 0 }}>
          {valueLink(f)}
          <PatternTypeTag type={f.pattern_type} />
        </Flex>
      ),
    },
    {
      key: 'action',
      title: t('list.columns.action'),
      width: 150,
      render: (_: unknown, f) => <ActionTag action={f.action} />,
    },
    {
      key: 'description',
      title: t('list.columns.description'),
      ellipsis: { showTitle: false },
      render: (_: unknown, f) => (f.description ? <span title={f.description}>{f.description}</span> : t('none')),
    },
    {
      key: 'created',
      title: t('list.columns.created'),
      width: 220,
      render: (_: unknown, f) => <WhenBy at={f.created_at} by={f.created_by} />,
    },
  ];
}
