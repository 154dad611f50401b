import Flex from 'antd/es/flex';
import type { ColumnsType } from 'antd/es/table';
import Typography from 'antd/es/typography';
import type { TFunction } from 'i18next';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { CELL_TEXT, WhenBy } from '../rules/RuleCells';
import { ActionTag } from '../rules/RuleTags';
import { RSPAMD_PATHS, type SystemRule } from '../rules/rules.types';

export const SYSTEM_PATTERNS = ['from', 'subject', 'to', 'ip'] as const;
export type SystemPattern = (typeof SYSTEM_PATTERNS)[number];

export const systemRuleName = (r: Pick<SystemRule, 'name'>) => r.name;

function nameLink(r: SystemRule): ReactNode {
  return (
    <Link to={RSPAMD_PATHS.systemEdit(r.id)} title={r.name} style={CELL_TEXT} data-testid="rule-link">
      {r.name}
    </Link>
  );
}

/** The patterns a rule has, one line each ("Subject: *invoice*"); all of them must match. */
export function Patterns({ rule, t }: { rule: SystemRule; t: TFunction<'rspamd'> }) {
  return (
    <Flex vertical gap={2} style={{ minWidth: 0 }} data-testid="system-patterns">
      {SYSTEM_PATTERNS.filter((p) => rule[p]).map((p) => (
        <span key={p} style={CELL_TEXT} title={rule[p] ?? ''}>
          <Typography.Text type="secondary">{t(`system.pattern_names.${p}`)}</Typography.Text> {rule[p]}
        </span>
      ))}
    </Flex>
  );
}

export function systemSummary(r: SystemRule, t: TFunction<'rspamd'>): ReactNode {
  return (
    <>
      {nameLink(r)}
      <Patterns rule={r} t={t} />
      <Flex gap={4} wrap>
        <ActionTag action={r.action} />
      </Flex>
      <WhenBy at={r.updated_at} by={r.created_by} />
    </>
  );
}

export function systemColumns(t: TFunction<'rspamd'>): ColumnsType<SystemRule> {
  return [
    { key: 'name', title: t('system.columns.name'), width: 220, render: (_: unknown, r) => nameLink(r) },
    { key: 'patterns', title: t('system.columns.patterns'), render: (_: unknown, r) => <Patterns rule={r} t={t} /> },
    {
      key: 'action',
      title: t('list.columns.action'),
      width: 150,
      render: (_: unknown, r) => <ActionTag action={r.action} />,
    },
    {
      key: 'owner',
      title: t('system.columns.owner'),
      width: 220,
      render: (_: unknown, r) => <WhenBy at={r.updated_at} by={r.created_by} />,
    },
  ];
}
