import Flex from 'antd/es/flex';
import type { ColumnsType } from 'antd/es/table';
import type { SortOrder } from 'antd/es/table/interface';
import Tag from 'antd/es/tag';
import Typography from 'antd/es/typography';
import { formatDateTime } from '@qc/ui';
import type { TFunction } from 'i18next';
import type { CSSProperties } from 'react';
import { Link } from 'react-router-dom';
import { MfaTag, OtherAddresses, RoleTag, SourceTag, StatusTags } from './UserTags';
import type { AdminUser, UserOrdering } from './users.types';

/** A cell's link as wide as its cell, cut with an ellipsis there (full text in its title). */
const CELL_LINK: CSSProperties = {
  display: 'block',
  overflow: 'hidden',
  textOverflow: 'ellipsis',
  whiteSpace: 'nowrap',
};

export const fullName = (u: Pick<AdminUser, 'first_name' | 'last_name'>) =>
  [u.first_name, u.last_name].filter(Boolean).join(' ');

/** antd's sort order of a column for the list's `ordering` (one column sorted at a time). */
export function sortOrderOf(ordering: UserOrdering, column: 'email' | 'date_joined'): SortOrder {
  if (ordering === column) return 'ascend';
  if (ordering === `-${column}`) return 'descend';
  return null;
}

/** The `ordering` for a click on a sortable column header (antd's sorter state). */
export function orderingOf(column: unknown, order: SortOrder | undefined): UserOrdering {
  if (column !== 'email' && column !== 'date_joined') return 'email';
  if (!order) return 'email';
  return order === 'descend' ? `-${column}` : column;
}

// Ascend, descend, ascend again: a third click never leaves the list unsorted.
const SORT_DIRECTIONS: SortOrder[] = ['ascend', 'descend', 'ascend'];

/** The users list's columns in this language: one stacked cell per row on a phone. */
export function userColumns(
  t: TFunction<'admin'>,
  lang: string,
  phone: boolean,
  ordering: UserOrdering,
  meId: string | undefined,
): ColumnsType<AdminUser> {
  const date = (v: string | null) =>
    v ? (
      <time dateTime={v}>{formatDateTime(v, lang)}</time>
    ) : (
      <Typography.Text type="secondary">{t('never')}</Typography.Text>
    );
  const emailLink = (u: AdminUser) => (
    <Link to={encodeURIComponent(u.id)} title={u.email} style={CELL_LINK} data-testid="user-link">
      {u.email}
    </Link>
  );
  // The primary address, then "+N" for the others (aliases, shared mailboxes).
  const addresses = (u: AdminUser) => (
    <Flex gap={4} align="center" style={{ minWidth: 0 }}>
      <span style={{ minWidth: 0, flex: '0 1 auto' }}>{emailLink(u)}</span>
      <OtherAddresses user={u} />
    </Flex>
  );
  const who = (u: AdminUser) => {
    const name = fullName(u);
    return (
      <Typography.Text type="secondary" ellipsis style={{ fontSize: 12 }}>
        {name ? `${name} · ${u.username}` : u.username}
      </Typography.Text>
    );
  };
  const extraTags = (u: AdminUser) => (
    <>
      {u.id === meId ? <Tag data-testid="user-you">{t('you')}</Tag> : null}
      <SourceTag source={u.source} />
      {u.is_external ? <Tag>{t('users.tags.external')}</Tag> : null}
    </>
  );
  const domainName = (u: AdminUser) => u.domain?.name ?? t('none');

  if (phone) {
    return [
      {
        key: 'summary',
        title: t('users.columns.user'),
        render: (_: unknown, u) => (
          <Flex vertical gap={4} style={{ minWidth: 0 }} data-testid="user-summary">
            {addresses(u)}
            {who(u)}
            <Flex gap={4} wrap>
              <RoleTag role={u.role} />
              <StatusTags user={u} />
              <MfaTag user={u} />
              {extraTags(u)}
            </Flex>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {u.domain ? `${u.domain.name} · ` : null}
              {u.last_login ? t('last_login_at', { when: formatDateTime(u.last_login, lang) }) : t('last_login_never')}
            </Typography.Text>
          </Flex>
        ),
      },
    ];
  }
  return [
    {
      key: 'email',
      dataIndex: 'email',
      title: t('users.columns.user'),
      sorter: true,
      sortOrder: sortOrderOf(ordering, 'email'),
      sortDirections: SORT_DIRECTIONS,
      render: (_: string, u) => (
        <Flex vertical gap={2} style={{ minWidth: 0 }}>
          {addresses(u)}
          {who(u)}
        </Flex>
      ),
    },
    {
      key: 'role',
      title: t('users.columns.role'),
      width: 170,
      render: (_: unknown, u) => (
        <Flex gap={4} wrap>
          <RoleTag role={u.role} />
          {extraTags(u)}
        </Flex>
      ),
    },
    {
      key: 'domain',
      title: t('users.columns.domain'),
      width: 150,
      ellipsis: { showTitle: false },
      render: (_: unknown, u) => <span title={u.domain?.name}>{domainName(u)}</span>,
    },
    {
      // Account state, invitation and two-factor together: the e-mail column keeps the width.
      key: 'status',
      title: t('users.columns.status'),
      width: 190,
      render: (_: unknown, u) => (
        <Flex gap={4} wrap>
          <StatusTags user={u} />
          <MfaTag user={u} />
        </Flex>
      ),
    },
    {
      key: 'last_login',
      title: t('users.columns.last_login'),
      width: 140,
      render: (_: unknown, u) => date(u.last_login),
    },
    {
      key: 'date_joined',
      dataIndex: 'date_joined',
      title: t('users.columns.date_joined'),
      width: 140,
      sorter: true,
      sortOrder: sortOrderOf(ordering, 'date_joined'),
      sortDirections: SORT_DIRECTIONS,
      render: (v: string) => date(v),
    },
  ];
}
