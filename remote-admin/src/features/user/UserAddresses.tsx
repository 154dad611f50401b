import { DeleteOutlined, PlusOutlined, StarOutlined } from '@ant-design/icons';
import Button, { type ButtonProps } from 'antd/es/button';
import Card from 'antd/es/card';
import Flex from 'antd/es/flex';
import Input, { type InputRef } from 'antd/es/input';
import Modal from 'antd/es/modal';
import Tag from 'antd/es/tag';
import Typography from 'antd/es/typography';
import { notify } from '@qc/ui-state';
import { useEffect, useId, useRef, useState, type CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import { FormError } from '../forms/FormError';
import { adminErrorText } from '../users/user-form';
import { useUpdateUser } from '../users/users.queries';
import { ADDRESSES_MAX, type AdminUser } from '../users/users.types';
import {
  addressesChanged,
  addressesToSend,
  orderedRows,
  refusalOf,
  removedAddresses,
  rowProblems,
  rowsOf,
  type AddressRow,
} from './addresses';

const LIST: CSSProperties = {
  listStyle: 'none',
  margin: 0,
  padding: 0,
  display: 'flex',
  flexDirection: 'column',
  gap: 12,
};

const cardTitle = (text: string) => <h2 style={{ fontSize: 16, margin: 0 }}>{text}</h2>;

/**
 * The user's addresses (issue 31): every address whose mail is theirs, the primary (their e-mail)
 * first. Edited here for a local account by whoever manages it (an admin; a domain_admin within
 * their domain); a directory or SSO account's come from there and are only shown.
 */
export function UserAddresses({
  user,
  editable,
  domainAdminOf,
}: {
  user: AdminUser;
  editable: boolean;
  /** The caller's domain when they are a domain_admin (the addresses must be in it). */
  domainAdminOf: string | null;
}) {
  const { t } = useTranslation('admin');
  if (!editable) {
    const help = user.source === 'local' ? t('user.addresses.help') : t(`user.addresses.help_managed_${user.source}`);
    return (
      <Card title={cardTitle(t('user.addresses.title'))} style={{ marginBottom: 24 }} data-testid="user-addresses">
        <Typography.Paragraph type="secondary">{help}</Typography.Paragraph>
        <ul style={LIST} aria-label={t('user.addresses.list_label')}>
          {rowsOf(user).map((row) => (
            <li key={row.value} data-testid="user-address">
              <Flex gap={8} align="center" wrap>
                <Typography.Text style={{ overflowWrap: 'anywhere' }}>{row.value}</Typography.Text>
                {row.key === 0 ? <Tag color="blue">{t('user.addresses.primary')}</Tag> : null}
              </Flex>
            </li>
          ))}
        </ul>
      </Card>
    );
  }
  return <AddressesEditor user={user} domainAdminOf={domainAdminOf} />;
}

function AddressesEditor({ user, domainAdminOf }: { user: AdminUser; domainAdminOf: string | null }) {
  const { t } = useTranslation('admin');
  const update = useUpdateUser(user.id);
  const [modal, contextHolder] = Modal.useModal();
  const base = useId();
  const [rows, setRows] = useState<AddressRow[]>(() => rowsOf(user));
  const [primaryKey, setPrimaryKey] = useState(0);
  const [problems, setProblems] = useState<Map<number, string>>(new Map());
  const [listError, setListError] = useState<string | null>(null);
  const inputs = useRef(new Map<number, InputRef>());
  const focusNext = useRef<number | null>(null);
  // An external user keeps their e-mail (DESIGN §4.1): aliases only.
  const primaryLocked = user.is_external;

  // The user as now stored (saved here, or re-read): the editor starts again from it (set while
  // rendering, as React advises for state that follows a prop).
  const stored = `${user.email}\n${user.addresses.join('\n')}`;
  const [seen, setSeen] = useState(stored);
  if (seen !== stored) {
    setSeen(stored);
    setRows(rowsOf(user));
    setPrimaryKey(0);
    setProblems(new Map());
    setListError(null);
  }

  // Focus a row once it is drawn (a new one, or the first the checks refused).
  useEffect(() => {
    if (focusNext.current === null) return;
    inputs.current.get(focusNext.current)?.focus();
    focusNext.current = null;
  });

  const sent = addressesToSend(rows, primaryKey);
  const dirty = addressesChanged(sent, user.addresses.length ? user.addresses : [user.email]);

  const problemText = (problem: string) =>
    problem === 'taken'
      ? t('user.addresses.errors.taken')
      : problem === 'refused'
        ? domainAdminOf
          ? t('user.addresses.errors.refused_domain_admin', { domain: domainAdminOf })
          : t('user.addresses.errors.refused')
        : t(`user.addresses.errors.${problem}`);

  const change = (key: number, value: string) => {
    setRows((all) => all.map((r) => (r.key === key ? { ...r, value } : r)));
    if (problems.has(key)) setProblems((p) => new Map([...p].filter(([k]) => k !== key)));
  };
  const add = () => {
    const key = Math.max(-1, ...rows.map((r) => r.key)) + 1;
    setRows((all) => [...all, { key, value: '' }]);
    focusNext.current = key;
  };
  const remove = (key: number) => {
    const at = rows.findIndex((r) => r.key === key);
    const rest = rows.filter((r) => r.key !== key);
    setRows(rest);
    setProblems((p) => new Map([...p].filter(([k]) => k !== key)));
    // The focus goes to the line that took its place (or the one before), never to <body>.
    focusNext.current = (rest[at] ?? rest[at - 1])?.key ?? null;
  };
  const makePrimary = (key: number) => {
    setPrimaryKey(key);
    focusNext.current = key;
  };
  const reset = () => {
    setRows(rowsOf(user));
    setPrimaryKey(0);
    setProblems(new Map());
    setListError(null);
  };

  const send = async (order: AddressRow[]) => {
    try {
      await update.mutateAsync({ addresses: order.map((r) => r.value.trim()) });
      notify({ type: 'success', title: t('user.addresses.saved') });
    } catch (error) {
      const refusal = refusalOf(error, order);
      setProblems(new Map([...refusal.rows]));
      const message = refusal.unplaced || !refusal.rows.size ? adminErrorText(error, t) : null;
      setListError(message);
      const first = order.find((r) => refusal.rows.has(r.key));
      if (first) focusNext.current = first.key;
      notify({ type: 'error', title: t('user.addresses.save_error'), description: message ?? undefined });
    }
  };

  const save = () => {
    setListError(null);
    const found = rowProblems(rows);
    if (found.size) {
      setProblems(new Map(found));
      focusNext.current = rows.find((r) => found.has(r.key))!.key;
      // A re-render is needed to run the focus effect even when the problems are the same.
      setRows((all) => [...all]);
      return;
    }
    setProblems(new Map());
    const order = orderedRows(rows, primaryKey);
    const removed = removedAddresses(sent, user.addresses);
    if (!removed.length) return void send(order);
    modal.confirm({
      title: t('user.addresses.confirm_title', { count: removed.length, email: user.email }),
      content: t('user.addresses.confirm_body', { addresses: removed.join(', ') }),
      okText: t('user.addresses.confirm_ok'),
      okButtonProps: { danger: true, ...({ 'data-testid': 'user-addresses-confirm' } as ButtonProps) },
      cancelText: t('user.cancel'),
      focusable: { autoFocusButton: 'cancel' },
      onOk: () => send(order),
    });
  };

  const full = rows.length >= ADDRESSES_MAX;
  const help = [
    t('user.addresses.help'),
    domainAdminOf ? t('user.addresses.help_domain_admin', { domain: domainAdminOf }) : t('user.addresses.help_admin'),
  ].join(' ');

  return (
    <Card title={cardTitle(t('user.addresses.title'))} style={{ marginBottom: 24 }} data-testid="user-addresses">
      {contextHolder}
      <Typography.Paragraph type="secondary" id={`${base}-help`}>
        {help}
        {primaryLocked ? ` ${t('user.addresses.primary_locked')}` : null}
      </Typography.Paragraph>
      <FormError message={listError} />
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          save();
        }}
        data-testid="user-addresses-form"
      >
        <ul style={LIST} aria-label={t('user.addresses.list_label')}>
          {rows.map((row, i) => {
            const primary = row.key === primaryKey;
            const problem = problems.get(row.key);
            const errorId = `${base}-error-${row.key}`;
            const address = row.value.trim();
            const locked = primaryLocked && primary;
            return (
              <li key={row.key} data-testid="user-address">
                <Flex gap={8} align="center" wrap>
                  <Input
                    ref={(el) => {
                      if (el) inputs.current.set(row.key, el);
                      else inputs.current.delete(row.key);
                    }}
                    type="email"
                    autoComplete="off"
                    value={row.value}
                    readOnly={locked}
                    onChange={(e) => change(row.key, e.target.value)}
                    aria-label={t('user.addresses.address_label', { n: i + 1 })}
                    aria-invalid={problem ? true : undefined}
                    aria-describedby={problem ? errorId : `${base}-help`}
                    status={problem ? 'error' : undefined}
                    style={{ flex: '1 1 240px', minWidth: 0 }}
                    data-testid="user-address-input"
                  />
                  {primary ? (
                    <Tag color="blue" icon={<StarOutlined aria-hidden />} data-testid="user-address-primary">
                      {t('user.addresses.primary')}
                    </Tag>
                  ) : primaryLocked ? null : (
                    <Button
                      size="small"
                      onClick={() => makePrimary(row.key)}
                      aria-label={
                        address ? t('user.addresses.make_primary_label', { address }) : t('user.addresses.make_primary')
                      }
                      data-testid="user-address-make-primary"
                    >
                      {t('user.addresses.make_primary')}
                    </Button>
                  )}
                  {primary ? null : (
                    <Button
                      size="small"
                      danger
                      icon={<DeleteOutlined aria-hidden />}
                      onClick={() => remove(row.key)}
                      aria-label={
                        address
                          ? t('user.addresses.remove_label', { address })
                          : t('user.addresses.remove_empty_label', { n: i + 1 })
                      }
                      data-testid="user-address-remove"
                    >
                      {t('user.addresses.remove')}
                    </Button>
                  )}
                </Flex>
                {problem ? (
                  <div id={errorId} role="alert" style={{ marginTop: 4 }} data-testid="user-address-error">
                    <Typography.Text type="danger">{problemText(problem)}</Typography.Text>
                  </div>
                ) : null}
              </li>
            );
          })}
        </ul>
        {full ? (
          <Typography.Paragraph type="secondary" style={{ marginTop: 12 }}>
            {t('user.addresses.errors.too_many', { max: ADDRESSES_MAX })}
          </Typography.Paragraph>
        ) : null}
        <Flex gap={8} wrap style={{ marginTop: 16 }}>
          <Button icon={<PlusOutlined aria-hidden />} onClick={add} disabled={full} data-testid="user-address-add">
            {t('user.addresses.add')}
          </Button>
          <Button
            type="primary"
            htmlType="submit"
            disabled={!dirty}
            loading={update.isPending}
            data-testid="user-addresses-save"
          >
            {t('user.addresses.save')}
          </Button>
          <Button onClick={reset} disabled={!dirty} data-testid="user-addresses-reset">
            {t('user.addresses.reset')}
          </Button>
        </Flex>
      </form>
    </Card>
  );
}
