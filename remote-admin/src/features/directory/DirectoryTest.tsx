import { SearchOutlined } from '@ant-design/icons';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Descriptions from 'antd/es/descriptions';
import Flex from 'antd/es/flex';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import Tag from 'antd/es/tag';
import Typography from 'antd/es/typography';
import { readApiError } from '@qc/api-client';
import { usePhoneLayout } from '@qc/ui';
import { useState, type CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { FormError } from '../forms/FormError';
import { adminErrorText, isValidEmail } from '../users/user-form';
import { SettingValue } from './SettingValue';
import { useDirectoryTest } from './directory.queries';
import type { DirectoryOutcome, DirectoryTestAddress, DirectoryTestResult } from './directory.types';

const LIST: CSSProperties = {
  listStyle: 'none',
  margin: 0,
  padding: 0,
  display: 'flex',
  flexDirection: 'column',
  gap: 8,
};

const OUTCOME_ALERT: Record<DirectoryOutcome, 'success' | 'info' | 'error' | 'warning'> = {
  create: 'success',
  update: 'info',
  refused: 'error',
  not_found: 'warning',
};

/**
 * "Test": one login looked up in the directory (POST /api/admin/directory/test/), and what the
 * console would make of it: created or updated, or refused and why; its addresses, kept or not;
 * groups, role, domain. Nothing is created; no password is asked for.
 */
export function DirectoryTest() {
  const { t } = useTranslation('admin');
  const [form] = Form.useForm<{ login: string }>();
  const test = useDirectoryTest();
  const [failure, setFailure] = useState<string | null>(null);
  const [tested, setTested] = useState<{ login: string; result: DirectoryTestResult } | null>(null);

  const run = async ({ login }: { login: string }) => {
    setFailure(null);
    setTested(null);
    const value = login.trim();
    try {
      const result = await test.mutateAsync({ login: value });
      setTested({ login: value, result });
    } catch (error) {
      const { code, errors } = readApiError(error);
      if (code === 'validation_error' && errors?.login)
        form.setFields([{ name: 'login', errors: [t('directory.test.invalid')] }]);
      else setFailure(adminErrorText(error, t));
    }
  };

  return (
    <Card
      title={<h2 style={{ fontSize: 16, margin: 0 }}>{t('directory.test.title')}</h2>}
      style={{ marginBottom: 24 }}
      data-testid="directory-test"
    >
      <Typography.Paragraph type="secondary">{t('directory.test.help')}</Typography.Paragraph>
      <Form<{ login: string }>
        form={form}
        name="directory-test"
        layout="vertical"
        onFinish={(v) => void run(v)}
        requiredMark={false}
      >
        <Flex gap={8} wrap align="flex-start">
          <Form.Item
            name="login"
            label={t('directory.test.login')}
            validateFirst
            rules={[
              { required: true, whitespace: true, message: t('directory.test.required') },
              {
                validator: (_, v: string | undefined) =>
                  !v?.trim() || isValidEmail(v)
                    ? Promise.resolve()
                    : Promise.reject(new Error(t('directory.test.invalid'))),
              },
            ]}
            style={{ flex: '1 1 280px', marginBottom: 16 }}
          >
            <Input
              type="email"
              autoComplete="off"
              placeholder={t('directory.test.login_placeholder')}
              data-testid="directory-test-login"
            />
          </Form.Item>
          {/* Aligned with the input under its label (a label's height above), wrapped below it on a phone. */}
          <Form.Item label=" " colon={false} style={{ marginBottom: 16 }}>
            <Button
              type="primary"
              htmlType="submit"
              icon={<SearchOutlined aria-hidden />}
              loading={test.isPending}
              data-testid="directory-test-submit"
            >
              {t('directory.test.submit')}
            </Button>
          </Form.Item>
        </Flex>
      </Form>
      <FormError message={failure} />
      <div aria-live="polite">{tested ? <TestResult login={tested.login} result={tested.result} /> : null}</div>
    </Card>
  );
}

function TestResult({ login, result: r }: { login: string; result: DirectoryTestResult }) {
  const { t } = useTranslation('admin');
  const phone = usePhoneLayout();
  const outcome =
    r.outcome === 'refused'
      ? t('directory.test.outcomes.refused', {
          reason: r.refusal ? t(`directory.test.refusals.${r.refusal}`) : t('none'),
        })
      : t(`directory.test.outcomes.${r.outcome}`);
  const yesNo = (v: boolean) => t(v ? 'directory.yes' : 'directory.no');

  return (
    <section aria-labelledby="directory-result-title" data-testid="directory-result" data-outcome={r.outcome}>
      <h3 id="directory-result-title" style={{ fontSize: 15, margin: '8px 0 12px', overflowWrap: 'anywhere' }}>
        {t('directory.test.result_title', { login })}
      </h3>
      <Alert
        type={OUTCOME_ALERT[r.outcome]}
        showIcon
        title={outcome}
        style={{ marginBottom: 16 }}
        action={
          r.outcome === 'update' && r.user_id ? (
            <Link to={`/users/${encodeURIComponent(r.user_id)}`} data-testid="directory-result-account">
              {t('directory.test.see_account')}
            </Link>
          ) : undefined
        }
        data-testid="directory-result-outcome"
      />
      {r.outcome === 'not_found' ? null : (
        <Descriptions
          size="small"
          bordered
          layout={phone ? 'vertical' : 'horizontal'}
          column={1}
          items={[
            { key: 'dn', label: t('directory.test.dn'), children: <SettingValue value={r.dn} /> },
            {
              key: 'primary',
              label: t('directory.test.primary'),
              children: <SettingValue value={r.primary} code={false} />,
            },
            {
              key: 'addresses',
              label: t('directory.test.addresses'),
              children: <TestAddresses addresses={r.addresses} />,
            },
            {
              key: 'groups',
              label: t('directory.test.groups'),
              children: r.groups.length ? (
                <ul style={LIST} data-testid="directory-result-groups">
                  {r.groups.map((g) => (
                    <li key={g}>
                      <SettingValue value={g} />
                    </li>
                  ))}
                </ul>
              ) : (
                <Typography.Text type="secondary">{t('directory.test.no_groups')}</Typography.Text>
              ),
            },
            {
              key: 'role',
              label: t('directory.test.role'),
              children: r.role ? t(`roles.${r.role}`, { ns: 'common' }) : <SettingValue value={null} />,
            },
            {
              key: 'domain',
              label: t('directory.test.domain'),
              children: <SettingValue value={r.domain} code={false} />,
            },
            {
              key: 'disabled',
              label: t('directory.test.disabled'),
              children: r.disabled ? <Tag color="error">{yesNo(true)}</Tag> : yesNo(false),
            },
          ]}
          data-testid="directory-result-details"
        />
      )}
    </section>
  );
}

/** Each address the directory has for the person: kept, or not and why (outside the domains, owned by…). */
function TestAddresses({ addresses }: { addresses: DirectoryTestAddress[] }) {
  const { t } = useTranslation('admin');
  if (!addresses.length) return <Typography.Text type="secondary">{t('directory.test.no_addresses')}</Typography.Text>;
  const reason = (a: DirectoryTestAddress) => {
    if (a.kept || !a.reason) return null;
    if (a.reason === 'taken')
      return a.owner
        ? t('directory.test.reasons.taken', { owner: a.owner })
        : t('directory.test.reasons.taken_unknown');
    return t(`directory.test.reasons.${a.reason}`);
  };
  return (
    <ul style={LIST} aria-label={t('directory.test.addresses_label')} data-testid="directory-result-addresses">
      {addresses.map((a) => (
        <li key={a.address} data-testid="directory-result-address" data-kept={a.kept ? 'true' : 'false'}>
          <Flex gap={8} align="center" wrap>
            <Typography.Text style={{ overflowWrap: 'anywhere' }}>{a.address}</Typography.Text>
            <Tag color={a.kept ? 'success' : 'warning'}>
              {t(a.kept ? 'directory.test.kept' : 'directory.test.not_kept')}
            </Tag>
            {reason(a) ? <Typography.Text type="secondary">{reason(a)}</Typography.Text> : null}
          </Flex>
        </li>
      ))}
    </ul>
  );
}
