import Form from 'antd/es/form';
import Input from 'antd/es/input';
import Switch from 'antd/es/switch';
import { DetailStates, NotFound } from '@qc/ui';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import { ActionField, RuleFormShell, StoredHint } from '../rules/RuleFormShell';
import { APANEL_ENDPOINT, createRule, updateRule } from '../rules/rules.api';
import { useRule } from '../rules/rules.queries';
import {
  APANEL_ACTIONS,
  RSPAMD_LIMITS,
  RSPAMD_PATHS,
  type ApanelAction,
  type ApanelFilter,
} from '../rules/rules.types';
import { ruleStandIns, useLiveCheck } from '../rules/useLiveCheck';
import { changedFields, useRuleSave } from '../rules/useRuleSave';
import { apanelName } from './apanel.columns';
import { OwnerSelect } from './OwnerSelect';
import { SYSTEM_OWNER, type OwnerUser } from './owners';

interface ApanelValues {
  /** `system` or a user id. */
  owner: string;
  from: string;
  to: string;
  action?: ApanelAction;
  description: string;
  enabled: boolean;
}

const FIELDS = ['owner_id', 'from', 'to', 'action', 'description', 'enabled'] as const;
const FORM_NAMES = { owner_id: 'owner' };
const ep = APANEL_ENDPOINT;

function bodyOf(v: ApanelValues) {
  return {
    owner_id: !v.owner || v.owner === SYSTEM_OWNER ? null : v.owner,
    from: (v.from ?? '').trim(),
    to: (v.to ?? '').trim(),
    ...(v.action ? { action: v.action } : {}),
    description: (v.description ?? '').trim(),
    enabled: v.enabled,
  };
}

/** The PATCH of an edited filter: what changed, the owner compared by id. */
function changesOf(v: ApanelValues, rule: ApanelFilter) {
  const body = bodyOf(v);
  return changedFields(body, { ...rule, owner_id: rule.owner?.id ?? null });
}

function ApanelForm({ rule }: { rule: ApanelFilter | null }) {
  const { t } = useTranslation('rspamd');
  const [form] = Form.useForm<ApanelValues>();
  const values = Form.useWatch([], { form, preserve: true }) as ApanelValues | undefined;
  const [owner, setOwner] = useState<OwnerUser | null>(rule?.owner ?? null);
  const userOwned = Boolean(values?.owner && values.owner !== SYSTEM_OWNER);

  const live = useLiveCheck<ApanelValues, (typeof FIELDS)[number], ApanelFilter>({
    form,
    fields: FIELDS,
    conflictField: 'from',
    formNames: FORM_NAMES,
    body: (v) => (v.from?.trim() || v.to?.trim() ? bodyOf(v) : null),
    standIns: (v) => ruleStandIns(v, { action: 'reject', description: RSPAMD_LIMITS.descriptionMin }),
    send: (body, signal) => (rule ? updateRule(ep, rule.id, body, true, signal) : createRule(ep, body, true, signal)),
  });
  const { save, saving, refusal } = useRuleSave({
    kind: 'apanel',
    ep,
    live,
    fields: FIELDS,
    conflictField: 'from',
    editingId: rule?.id ?? null,
    backTo: RSPAMD_PATHS.apanel,
    nameOf: (saved) => apanelName(saved as unknown as ApanelFilter),
  });
  const stored = live.check?.stored ?? null;

  // A user's filter is for mail to their address: an empty or "anyone" recipient becomes it.
  const changeOwner = (value: string | undefined, user: OwnerUser | null) => {
    setOwner(user);
    const to = (form.getFieldValue('to') as string | undefined)?.trim() ?? '';
    if (user && (!to || to === '*')) form.setFieldValue('to', user.email);
    form.setFieldValue('owner', value ?? SYSTEM_OWNER);
    live.schedule();
  };

  return (
    <RuleFormShell<ApanelValues>
      kind="apanel"
      ep={ep}
      form={form}
      title={rule ? t('apanel.edit_title') : t('apanel.new_title')}
      intro={t('apanel.matches')}
      testId="apanel-form-page"
      backTo={RSPAMD_PATHS.apanel}
      editing={rule ? { id: rule.id, name: apanelName(rule) } : null}
      initialValues={
        rule
          ? { ...rule, owner: rule.owner?.id ?? SYSTEM_OWNER }
          : { owner: SYSTEM_OWNER, from: '', to: '*', description: '', enabled: true }
      }
      onValuesChange={live.schedule}
      onFinish={(v) => void save(rule ? changesOf(v, rule) : bodyOf(v))}
      saving={saving}
      refusal={refusal}
    >
      <Form.Item
        name="owner"
        label={t('apanel.owner')}
        extra={userOwned ? t('apanel.owner_user_help') : t('apanel.owner_system_help')}
        rules={[live.rule('owner_id')]}
      >
        <OwnerSelect known={owner} onChange={changeOwner} data-testid="apanel-owner-select" />
      </Form.Item>
      <Form.Item
        name="from"
        label={t('apanel.from')}
        extra={
          <>
            <div>{t('apanel.pattern_help')}</div>
            <StoredHint typed={values?.from ?? ''} stored={stored?.from ?? null} />
          </>
        }
        rules={[
          { required: true, whitespace: true, message: t('errors.pattern_required') },
          { max: RSPAMD_LIMITS.value, message: t('errors.too_long', { max: RSPAMD_LIMITS.value }) },
          live.rule('from'),
        ]}
      >
        <Input autoComplete="off" spellCheck={false} placeholder="*@spam.example" data-testid="apanel-from" />
      </Form.Item>
      <Form.Item
        name="to"
        label={t('apanel.to')}
        extra={
          <>
            <div>{userOwned ? t('apanel.to_user_help', { email: owner?.email ?? '' }) : t('apanel.to_help')}</div>
            <StoredHint typed={values?.to ?? ''} stored={stored?.to ?? null} />
          </>
        }
        rules={[
          { required: true, whitespace: true, message: t('errors.pattern_required') },
          { max: RSPAMD_LIMITS.value, message: t('errors.too_long', { max: RSPAMD_LIMITS.value }) },
          live.rule('to'),
        ]}
      >
        <Input autoComplete="off" spellCheck={false} placeholder="*@example.com" data-testid="apanel-to" />
      </Form.Item>
      <ActionField actions={APANEL_ACTIONS} testId="apanel-action" />
      <Form.Item
        name="description"
        label={t('form.description')}
        rules={[
          { required: true, whitespace: true, message: t('errors.description_required') },
          { min: RSPAMD_LIMITS.descriptionMin, message: t('errors.description_too_short') },
          live.rule('description'),
        ]}
      >
        <Input.TextArea
          autoSize={{ minRows: 2, maxRows: 6 }}
          maxLength={RSPAMD_LIMITS.description}
          showCount
          data-testid="apanel-description"
        />
      </Form.Item>
      <Form.Item name="enabled" label={t('form.enabled')} valuePropName="checked" extra={t('form.enabled_help')}>
        <Switch data-testid="apanel-enabled" />
      </Form.Item>
    </RuleFormShell>
  );
}

/** Spec §2 `rspamd/apanel-filters/create`. */
export function NewApanelPage() {
  return <ApanelForm rule={null} />;
}

/** Spec §2 `rspamd/apanel-filters/edit/{id}`. */
export function EditApanelPage() {
  const { t } = useTranslation('rspamd');
  const { id = '' } = useParams();
  const query = useRule<ApanelFilter>(ep, id);
  return (
    <DetailStates
      query={query}
      errorTitle={t('kinds.apanel.load_error')}
      notFound={
        <NotFound
          title={t('kinds.apanel.not_found')}
          description={t('kinds.apanel.not_found_help')}
          backLabel={t('form.back')}
          backTo={RSPAMD_PATHS.apanel}
          testId="rule-not-found"
        />
      }
    >
      {(rule) => <ApanelForm key={rule.id} rule={rule} />}
    </DetailStates>
  );
}
