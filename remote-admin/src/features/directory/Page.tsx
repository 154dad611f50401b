import Card from 'antd/es/card';
import Descriptions from 'antd/es/descriptions';
import Flex from 'antd/es/flex';
import Result from 'antd/es/result';
import Tag from 'antd/es/tag';
import Typography from 'antd/es/typography';
import { errorMessageKey } from '@qc/api-client';
import { PageError, PageHeader, PageLoading, ReloadButton, usePhoneLayout } from '@qc/ui';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { DirectoryTest } from './DirectoryTest';
import { SettingValue } from './SettingValue';
import { useDirectorySettings } from './directory.queries';
import { DIRECTORY_VARIABLES, type DirectorySettings } from './directory.types';

const cardTitle = (text: string) => <h2 style={{ fontSize: 16, margin: 0 }}>{text}</h2>;

/**
 * Admin → Directory (issue 31, admin only): the directory (LDAP / Active Directory) settings in
 * force, secrets never shown, and a test of one login that creates nothing. With no directory
 * configured, an empty state says how to configure one.
 */
export function DirectoryPage() {
  const { t } = useTranslation('admin');
  const settings = useDirectorySettings();

  let body: ReactNode;
  if (settings.isPending) body = <PageLoading />;
  else if (settings.isError)
    body = (
      <PageError
        title={t('directory.error_title')}
        description={t(errorMessageKey(settings.error), { ns: 'common' })}
        onRetry={() => void settings.refetch()}
      />
    );
  else if (!settings.data.enabled) body = <DirectoryDisabled />;
  else
    body = (
      <>
        <SettingsCard settings={settings.data} />
        <DirectoryTest />
      </>
    );

  return (
    <section aria-labelledby="directory-title" data-testid="directory-page" style={{ maxWidth: 960 }}>
      <PageHeader
        title={<span id="directory-title">{t('directory.title')}</span>}
        description={t('directory.description')}
        extra={<ReloadButton query={settings} label={t('directory.reload')} testId="directory-reload" />}
      />
      {body}
    </section>
  );
}

/** No QC_LDAP_URL: only local accounts sign in; what to set, and where the README explains it. */
function DirectoryDisabled() {
  const { t } = useTranslation('admin');
  return (
    <Card data-testid="directory-disabled">
      <Result
        status="info"
        title={<h2 style={{ fontSize: 20, margin: 0 }}>{t('directory.disabled_title')}</h2>}
        subTitle={
          <Flex vertical gap={8} component="span">
            <span>{t('directory.disabled_description', { variables: DIRECTORY_VARIABLES.join(', ') })}</span>
            <span>{t('directory.disabled_readme')}</span>
          </Flex>
        }
      />
    </Card>
  );
}

function SettingsCard({ settings: s }: { settings: DirectorySettings }) {
  const { t } = useTranslation('admin');
  const phone = usePhoneLayout();
  const yesNo = (v: boolean) => t(v ? 'directory.yes' : 'directory.no');
  const item = (key: string, children: ReactNode) => ({ key, label: t(`directory.fields.${key}`), children });
  return (
    <Card
      title={cardTitle(t('directory.settings_title'))}
      style={{ marginBottom: 24 }}
      data-testid="directory-settings"
    >
      <Typography.Paragraph type="secondary">{t('directory.settings_help')}</Typography.Paragraph>
      <Descriptions
        size="small"
        bordered
        layout={phone ? 'vertical' : 'horizontal'}
        column={1}
        items={[
          {
            key: 'status',
            label: t('directory.status'),
            children: <Tag color="success">{t('directory.enabled')}</Tag>,
          },
          item('url', <SettingValue value={s.url} />),
          item('starttls', yesNo(s.starttls)),
          item('ca_file', <SettingValue value={s.ca_file} />),
          item('bind_dn', <SettingValue value={s.bind_dn} />),
          // The secret itself never reaches the page: only whether it is set.
          item(
            'bind_password',
            <Tag color={s.bind_password_set ? 'success' : 'default'} data-testid="directory-bind-password">
              {t(s.bind_password_set ? 'directory.secret_set' : 'directory.secret_not_set')}
            </Tag>,
          ),
          item('user_base', <SettingValue value={s.user_base} />),
          item('user_filter', <SettingValue value={s.user_filter} />),
          item(
            'alias_attrs',
            s.alias_attrs.length ? (
              <Flex gap={4} wrap>
                {s.alias_attrs.map((a) => (
                  <Typography.Text key={a} code>
                    {a}
                  </Typography.Text>
                ))}
              </Flex>
            ) : (
              <SettingValue value={null} />
            ),
          ),
          item('group_base', <SettingValue value={s.group_base} />),
          item('admin_group', <SettingValue value={s.admin_group} />),
          item('domain_admin_group', <SettingValue value={s.domain_admin_group} />),
          item('timeout', t('directory.timeout_value', { ms: s.timeout_ms })),
          item('pool_size', String(s.pool_size)),
        ]}
        data-testid="directory-settings-list"
      />
    </Card>
  );
}
