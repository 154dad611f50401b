import Flex from 'antd/es/flex';
import type { ColumnsType } from 'antd/es/table';
import Tag from 'antd/es/tag';
import Typography from 'antd/es/typography';
import type { TFunction } from 'i18next';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { CELL_TEXT, WhenBy } from '../rules/RuleCells';
import { ActionTag } from '../rules/RuleTags';
import { RSPAMD_PATHS, type ApanelFilter } from '../rules/rules.types';

/** A control-panel filter named to people: "sender → recipient". */
export const apanelName = (f: Pick<ApanelFilter, 'from' | 'to'>) => `${f.from} → ${f.to}`;

/** The pair, a link to its form: the sender, then the recipient under it (each cut to the cell). */
function pairLink(f: ApanelFilter): ReactNode {
  return (
    <Link
      to={RSPAMD_PATHS.apanelEdit(f.id)}
      title={apanelName(f)}
      aria-label={apanelName(f)}
      style={{ display: 'block', minWidth: 0 }}
      data-testid="rule-link"
    >
      <span style={CELL_TEXT}>{f.from}</span>
      <span style={CELL_TEXT}>→ {f.to}</span>
    </Link>
  );
}

export function OwnerTag({ owner, t }: { owner: ApanelFilter['owner']; t: TFunction<'rspamd'> }) {
  return owner ? (
    <Typography.Text style={CELL_TEXT} title={owner.email} data-testid="apanel-owner">
      {owner.email}
    </Typography.Text>
  ) : (
    <Tag data-testid="apanel-owner">{t('apanel.owner_system')}</Tag>
  );
}

export function apanelSummary(f: ApanelFilter, t: TFunction<'rspamd'>): ReactNode {
  return (
    <>
      {pairLink(f)}
      <Flex gap={4} wrap align="center">
        <ActionTag action={f.action} />
        <OwnerTag owner={f.owner} t={t} />
      </Flex>
      {f.description ? <Typography.Text ellipsis>{f.description}</Typography.Text> : null}
      <WhenBy at={f.updated_at} />
    </>
  );
}

export function apanelColumns(t: TFunction<'rspamd'>): ColumnsType<ApanelFilter> {
  return [
    { key: 'pair', title: t('apanel.columns.pair'), render: (_: unknown, f) => pairLink(f) },
    {
      key: 'owner',
      title: t('apanel.columns.owner'),
      width: 200,
      render: (_: unknown, f) => <OwnerTag owner={f.owner} t={t} />,
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
      // The pair takes what is left: it is what tells the rows apart.
      width: 220,
      ellipsis: { showTitle: false },
      render: (_: unknown, f) => (f.description ? <span title={f.description}>{f.description}</span> : t('none')),
    },
    {
      key: 'updated',
      title: t('list.columns.updated'),
      width: 150,
      render: (_: unknown, f) => <WhenBy at={f.updated_at} />,
    },
  ];
}
