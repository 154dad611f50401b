import { ArrowLeftOutlined, DeleteOutlined } from '@ant-design/icons';
import Alert from 'antd/es/alert';
import Button, { type ButtonProps } from 'antd/es/button';
import Card from 'antd/es/card';
import Descriptions from 'antd/es/descriptions';
import Flex from 'antd/es/flex';
import Form from 'antd/es/form';
import Modal from 'antd/es/modal';
import Table from 'antd/es/table';
import Tag from 'antd/es/tag';
import { formatDateTime, PageHeader, TableEmptyText, useDocumentTitle, usePhoneLayout } from '@qc/ui';
import { notify } from '@qc/ui-state';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { DetailStates, NotFound } from '../detail/DetailStates';
import { DomainName } from '../domains/Page';
import { DOMAIN_FORM_FIELDS, DomainFields, type DomainValues } from '../domains/DomainFields';
import { useDeleteDomain, useDomain, useUpdateDomain } from '../domains/domains.queries';
import type { DomainDetail, DomainUserSummary } from '../domains/domains.types';
import { FormError, useFormRefusal } from '../forms/FormError';
import { adminErrorText } from '../users/user-form';
import { RoleTag } from '../users/UserTags';

export function DomainNotFound() {
  const { t } = useTranslation('admin');
  return (
    <NotFound
      title={t('domain.not_found')}
      description={t('domain.not_found_description')}
      backLabel={t('domain.back')}
      testId="domain-not-found"
    />
  );
}

/** Spec §2 `domains/{id}`: name and description, its users, deletion (refused while it has users, spec §5). */
export default function DomainPage() {
  const { t } = useTranslation('admin');
  const { id = '' } = useParams();
  const domain = useDomain(id);
  return (
    <DetailStates query={domain} notFound={<DomainNotFound />} errorTitle={t('domain.error_title')}>
      {(domain) => <DomainDetailView domain={domain} />}
    </DetailStates>
  );
}

function DomainDetailView({ domain }: { domain: DomainDetail }) {
  const { t, i18n } = useTranslation('admin');
  const lang = i18n.resolvedLanguage ?? 'fr';
  const navigate = useNavigate();
  useDocumentTitle(domain.display_name);
  const date = (v: string) => <time dateTime={v}>{formatDateTime(v, lang)}</time>;

  return (
    <section aria-labelledby="domain-title" data-testid="domain-page" style={{ maxWidth: 960 }}>
      <PageHeader
        title={
          <span id="domain-title">
            <DomainName domain={domain} />
          </span>
        }
        description={domain.description || undefined}
        extra={
          <Button icon={<ArrowLeftOutlined aria-hidden />} onClick={() => navigate('..')} data-testid="domain-back">
            {t('domain.back')}
          </Button>
        }
      />
      <Descriptions
        size="small"
        column={{ xs: 1, sm: 3 }}
        style={{ marginBottom: 24 }}
        items={[
          { key: 'created', label: t('domain.created'), children: date(domain.created_at) },
          { key: 'updated', label: t('domain.updated'), children: date(domain.updated_at) },
          {
            key: 'users',
            label: t('domains.columns.users'),
            children: t('domains.users_count', { count: domain.users_count }),
          },
        ]}
      />
      <DomainEditForm domain={domain} />
      <DomainUsers domain={domain} />
      <DeleteDomain domain={domain} />
    </section>
  );
}

function DomainEditForm({ domain }: { domain: DomainDetail }) {
  const { t } = useTranslation('admin');
  const [form] = Form.useForm<DomainValues>();
  const update = useUpdateDomain(domain.id);
  const refusal = useFormRefusal(form, DOMAIN_FORM_FIELDS);
  const initial = { name: domain.display_name, description: domain.description };
  const values = Form.useWatch([], form) as Partial<DomainValues> | undefined;
  const changesOf = (v: Partial<DomainValues>) => ({
    ...(v.name !== undefined && v.name.trim() !== initial.name ? { name: v.name.trim() } : {}),
    ...(v.description !== undefined && v.description.trim() !== initial.description
      ? { description: v.description.trim() }
      : {}),
  });
  const dirty = values ? Object.keys(changesOf(values)).length > 0 : false;

  const save = async (v: DomainValues) => {
    refusal.clear();
    const changes = changesOf(v);
    if (!Object.keys(changes).length) return;
    try {
      const saved = await update.mutateAsync(changes);
      form.setFieldsValue({ name: saved.display_name, description: saved.description });
      notify({ type: 'success', title: t('domain.saved') });
    } catch (error) {
      const message = refusal.refuse(error);
      notify({ type: 'error', title: t('domain.save_error'), description: message ?? undefined });
    }
  };

  return (
    <Card title={<h2 style={{ fontSize: 16, margin: 0 }}>{t('domain.details')}</h2>} style={{ marginBottom: 24 }}>
      <FormError message={refusal.message} />
      <Form<DomainValues>
        form={form}
        name={`domain-${domain.id}`}
        layout="vertical"
        initialValues={initial}
        onFinish={(v) => void save(v)}
        scrollToFirstError={{ focus: true }}
      >
        <DomainFields testPrefix="domain" />
        <Button type="primary" htmlType="submit" disabled={!dirty} loading={update.isPending} data-testid="domain-save">
          {t('domain.save')}
        </Button>
      </Form>
    </Card>
  );
}

/** The domain's first users (by e-mail), each a link to their page; all of them: the users list filtered. */
function DomainUsers({ domain }: { domain: DomainDetail }) {
  const { t } = useTranslation('admin');
  const phone = usePhoneLayout();
  const emailLink = (u: DomainUserSummary) => (
    <Link to={`/users/${encodeURIComponent(u.id)}`} style={{ overflowWrap: 'anywhere' }} data-testid="domain-user-link">
      {u.email}
    </Link>
  );
  const roleTags = (u: DomainUserSummary) => (
    <Flex gap={4} wrap>
      <RoleTag role={u.role} />
      {u.is_active ? null : <Tag>{t('users.tags.inactive')}</Tag>}
    </Flex>
  );
  return (
    <Card
      title={<h2 style={{ fontSize: 16, margin: 0 }}>{t('domain.users_title')}</h2>}
      style={{ marginBottom: 24 }}
      extra={
        domain.users_count > domain.users.length ? (
          <Link to={`/users?domain=${encodeURIComponent(domain.id)}`} data-testid="domain-users-all">
            {t('domain.users_more', { count: domain.users_count })}
          </Link>
        ) : null
      }
    >
      <Table<DomainUserSummary>
        rowKey="id"
        size="small"
        pagination={false}
        dataSource={domain.users}
        aria-label={t('domain.users_label')}
        locale={{ emptyText: <TableEmptyText>{t('domain.users_empty')}</TableEmptyText> }}
        // On a phone one cell, the role under the address: two columns pushed the page sideways.
        columns={
          phone
            ? [
                {
                  key: 'user',
                  title: t('users.columns.email'),
                  render: (_: unknown, u) => (
                    <Flex vertical gap={4} align="flex-start" style={{ minWidth: 0 }}>
                      {emailLink(u)}
                      {roleTags(u)}
                    </Flex>
                  ),
                },
              ]
            : [
                { key: 'email', title: t('users.columns.email'), render: (_: unknown, u) => emailLink(u) },
                { key: 'role', title: t('users.columns.role'), width: 200, render: (_: unknown, u) => roleTags(u) },
              ]
        }
        data-testid="domain-users"
      />
    </Card>
  );
}

/** Delete behind a confirmation; while the domain has users the API refuses (409 domain_has_users, spec §5). */
function DeleteDomain({ domain }: { domain: DomainDetail }) {
  const { t } = useTranslation('admin');
  const navigate = useNavigate();
  const [modal, contextHolder] = Modal.useModal();
  const remove = useDeleteDomain(domain.id);
  const [refusal, setRefusal] = useState<string | null>(null);

  const confirmDelete = () =>
    modal.confirm({
      title: t('domain.delete.confirm_title', { name: domain.display_name }),
      content: t('domain.delete.confirm_body'),
      okText: t('domain.delete.ok'),
      okButtonProps: { danger: true, ...({ 'data-testid': 'domain-delete-confirm' } as ButtonProps) },
      cancelText: t('domain.cancel'),
      autoFocusButton: 'cancel',
      onOk: async () => {
        setRefusal(null);
        try {
          await remove.mutateAsync();
          notify({ type: 'success', title: t('domain.delete.done') });
          navigate('..');
        } catch (error) {
          const text = adminErrorText(error, t);
          setRefusal(text);
          notify({ type: 'error', title: t('domain.delete.error'), description: text });
        }
      },
    });

  return (
    <Card
      title={<h2 style={{ fontSize: 16, margin: 0 }}>{t('domain.delete.title')}</h2>}
      data-testid="domain-delete-section"
    >
      {contextHolder}
      {refusal ? (
        <Alert
          type="error"
          showIcon
          style={{ marginBottom: 16 }}
          title={refusal}
          role="alert"
          data-testid="domain-delete-refused"
        />
      ) : null}
      <Flex vertical gap={12} align="flex-start">
        <span>{t('domain.delete.help')}</span>
        <Button
          danger
          icon={<DeleteOutlined aria-hidden />}
          loading={remove.isPending}
          onClick={confirmDelete}
          data-testid="domain-delete"
        >
          {t('domain.delete.button')}
        </Button>
      </Flex>
    </Card>
  );
}
