import Form, { type Rule } from 'antd/es/form';
import Input from 'antd/es/input';
import Switch from 'antd/es/switch';
import Typography from 'antd/es/typography';
import { DetailStates, NotFound } from '@qc/ui';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import { ActionField, RuleFormShell, StoredHint } from '../rules/RuleFormShell';
import { createRule, SYSTEM_ENDPOINT, updateRule } from '../rules/rules.api';
import { useRule } from '../rules/rules.queries';
import {
  RSPAMD_LIMITS,
  RSPAMD_PATHS,
  SYSTEM_RULE_ACTIONS,
  type SystemRule,
  type SystemRuleAction,
} from '../rules/rules.types';
import { ruleStandIns, useLiveCheck } from '../rules/useLiveCheck';
import { changedFields, useRuleSave } from '../rules/useRuleSave';
import { SYSTEM_PATTERNS, type SystemPattern } from './system.columns';

interface SystemValues {
  name: string;
  from: string;
  subject: string;
  to: string;
  ip: string;
  action?: SystemRuleAction;
  enabled: boolean;
}

const FIELDS = ['name', 'from', 'subject', 'to', 'ip', 'action', 'enabled', 'patterns'] as const;
/** The api's "no pattern" (`errors.patterns`) is said under the first pattern, like the form's own. */
const FORM_NAMES = { patterns: 'from' };
const ep = SYSTEM_ENDPOINT;
const PLACEHOLDERS: Record<SystemPattern, string> = {
  from: '*@bulk.example',
  subject: '*invoice*',
  to: '*@example.com',
  ip: '192.0.2.0/24',
};

/** An empty pattern is sent as null (not part of the rule). */
const pattern = (v: string | undefined) => (v?.trim() ? v.trim() : null);

function bodyOf(v: SystemValues) {
  return {
    name: (v.name ?? '').trim(),
    from: pattern(v.from),
    subject: pattern(v.subject),
    to: pattern(v.to),
    ip: pattern(v.ip),
    ...(v.action ? { action: v.action } : {}),
    enabled: v.enabled,
  };
}

function SystemRuleForm({ rule }: { rule: SystemRule | null }) {
  const { t } = useTranslation('rspamd');
  const [form] = Form.useForm<SystemValues>();
  const values = Form.useWatch([], { form, preserve: true }) as SystemValues | undefined;

  const live = useLiveCheck<SystemValues, (typeof FIELDS)[number], SystemRule>({
    form,
    fields: FIELDS,
    conflictField: 'name',
    formNames: FORM_NAMES,
    body: (v) => (v.name?.trim() || SYSTEM_PATTERNS.some((p) => v[p]?.trim()) ? bodyOf(v) : null),
    standIns: (v) => ruleStandIns(v, { action: 'reject', name: RSPAMD_LIMITS.nameMin }),
    send: (body, signal) => (rule ? updateRule(ep, rule.id, body, true, signal) : createRule(ep, body, true, signal)),
  });
  const { save, saving, refusal } = useRuleSave({
    kind: 'system',
    ep,
    live,
    fields: FIELDS,
    conflictField: 'name',
    editingId: rule?.id ?? null,
    backTo: RSPAMD_PATHS.system,
    nameOf: (saved) => String(saved.name ?? ''),
  });
  const stored = live.check?.stored ?? null;

  // Spec §5 "pattern required": at least one of the four, said under the first.
  const onePattern: Rule = ({ getFieldValue }) => ({
    validator: async () => {
      if (!SYSTEM_PATTERNS.some((p) => (getFieldValue(p) as string | undefined)?.trim()))
        throw new Error(t('errors.one_pattern'));
    },
  });

  return (
    <RuleFormShell<SystemValues>
      kind="system"
      ep={ep}
      form={form}
      title={rule ? t('system.edit_title') : t('system.new_title')}
      intro={t('system.matches')}
      testId="system-form-page"
      backTo={RSPAMD_PATHS.system}
      editing={rule ? { id: rule.id, name: rule.name } : null}
      initialValues={
        rule
          ? { ...rule, from: rule.from ?? '', subject: rule.subject ?? '', to: rule.to ?? '', ip: rule.ip ?? '' }
          : { name: '', from: '', subject: '', to: '', ip: '', enabled: true }
      }
      onValuesChange={live.schedule}
      onFinish={(v) => void save(rule ? changedFields(bodyOf(v), rule) : bodyOf(v))}
      saving={saving}
      refusal={refusal}
    >
      {rule && (
        // Rspamd names a matching rule by this id (QC_SYSTEM_<ACTION> system:<id> in a message's symbols).
        <Form.Item label={t('system.id')} extra={t('system.id_help', { id: rule.id })}>
          <Typography.Text code copyable data-testid="system-id">
            {rule.id}
          </Typography.Text>
        </Form.Item>
      )}
      <Form.Item
        name="name"
        label={t('system.name')}
        rules={[
          { required: true, whitespace: true, message: t('errors.name_required') },
          { min: RSPAMD_LIMITS.nameMin, message: t('errors.name_too_short') },
          { max: RSPAMD_LIMITS.name, message: t('errors.too_long', { max: RSPAMD_LIMITS.name }) },
          live.rule('name'),
        ]}
      >
        <Input autoComplete="off" maxLength={RSPAMD_LIMITS.name} data-testid="system-name" />
      </Form.Item>
      <fieldset style={{ border: 0, padding: 0, margin: 0 }}>
        <legend style={{ fontSize: 14, marginBottom: 8 }}>{t('system.patterns_legend')}</legend>
        {SYSTEM_PATTERNS.map((p, i) => (
          <Form.Item
            key={p}
            name={p}
            label={t(`system.fields.${p}`)}
            dependencies={i === 0 ? SYSTEM_PATTERNS.slice(1) : undefined}
            extra={
              <>
                <div>{t(`system.help.${p}`)}</div>
                <StoredHint typed={values?.[p] ?? ''} stored={stored ? (stored[p] ?? null) : null} />
              </>
            }
            rules={[
              ...(i === 0 ? [onePattern, live.rule('patterns')] : []),
              { max: RSPAMD_LIMITS.value, message: t('errors.too_long', { max: RSPAMD_LIMITS.value }) },
              live.rule(p),
            ]}
          >
            <Input autoComplete="off" spellCheck={false} placeholder={PLACEHOLDERS[p]} data-testid={`system-${p}`} />
          </Form.Item>
        ))}
      </fieldset>
      <ActionField actions={SYSTEM_RULE_ACTIONS} testId="system-action" />
      <Form.Item name="enabled" label={t('form.enabled')} valuePropName="checked" extra={t('system.enabled_help')}>
        <Switch data-testid="system-enabled" />
      </Form.Item>
    </RuleFormShell>
  );
}

/** `rspamd/system-rules/create` (in the style of the other kinds' routes). */
export function NewSystemRulePage() {
  return <SystemRuleForm rule={null} />;
}

/** `rspamd/system-rules/edit/{id}`. */
export function EditSystemRulePage() {
  const { t } = useTranslation('rspamd');
  const { id = '' } = useParams();
  const query = useRule<SystemRule>(ep, id);
  return (
    <DetailStates
      query={query}
      errorTitle={t('kinds.system.load_error')}
      notFound={
        <NotFound
          title={t('kinds.system.not_found')}
          description={t('kinds.system.not_found_help')}
          backLabel={t('form.back')}
          backTo={RSPAMD_PATHS.system}
          testId="rule-not-found"
        />
      }
    >
      {(rule) => <SystemRuleForm key={rule.id} rule={rule} />}
    </DetailStates>
  );
}
