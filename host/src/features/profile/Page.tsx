import Card from 'antd/es/card';
import Descriptions from 'antd/es/descriptions';
import Flex from 'antd/es/flex';
import Tag from 'antd/es/tag';
import Typography from 'antd/es/typography';
import { errorMessageKey } from '@qc/api-client';
import type { CurrentUser } from '@qc/contracts';
import { PageError, PageHeader, PageLoading } from '@qc/ui';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { MfaSection } from './MfaSection';
import { PasswordForm } from './PasswordForm';
import { ProfileForm } from './ProfileForm';
import { useMe } from './profile.queries';

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <Card
      role="region"
      aria-labelledby={`profile-${id}-title`}
      data-testid={`profile-section-${id}`}
      title={
        <h2 id={`profile-${id}-title`} style={{ margin: 0, fontSize: 16 }}>
          {title}
        </h2>
      }
    >
      {children}
    </Card>
  );
}

/** Every address whose mail is the user's, the primary (their e-mail) first; read-only here (issue 31). */
function Addresses({ user }: { user: CurrentUser }) {
  const { t } = useTranslation('host');
  const list = user.addresses.length ? user.addresses : [user.email];
  const ordered = list.includes(user.email) ? [user.email, ...list.filter((a) => a !== user.email)] : list;
  return (
    <Flex vertical gap={4}>
      <ul
        aria-label={t('profile.info.addresses')}
        style={{ listStyle: 'none', margin: 0, padding: 0, display: 'flex', flexDirection: 'column', gap: 4 }}
        data-testid="profile-addresses"
      >
        {ordered.map((a) => (
          <li key={a}>
            <Flex gap={8} align="center" wrap>
              <span style={{ overflowWrap: 'anywhere' }}>{a}</span>
              {a === user.email ? <Tag color="blue">{t('profile.info.primary')}</Tag> : null}
            </Flex>
          </li>
        ))}
      </ul>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {t('profile.info.addresses_help')}
      </Typography.Text>
    </Flex>
  );
}

/**
 * /profile (spec §2, §5): personal information, password, two-step verification. A directory or
 * SSO account (issue 31) has no console password: no password change (its identity is managed there).
 */
export default function ProfilePage() {
  const { t } = useTranslation('host');
  const me = useMe();
  const user = me.data;

  let body: ReactNode;
  if (user) {
    body = (
      <Flex vertical gap={24} style={{ maxWidth: 760 }}>
        <Section id="info" title={t('profile.info.title')}>
          <Descriptions
            size="small"
            column={{ xs: 1, sm: 2 }}
            style={{ marginBottom: 16 }}
            items={[
              { key: 'role', label: t('profile.info.role'), children: t(`common:roles.${user.role}`) },
              { key: 'domain', label: t('profile.info.domain'), children: user.domain?.name ?? '—' },
              {
                key: 'addresses',
                label: t('profile.info.addresses'),
                span: 'filled',
                children: <Addresses user={user} />,
              },
            ]}
          />
          <ProfileForm user={user} />
        </Section>
        {user.source === 'local' ? (
          <Section id="password" title={t('profile.password.title')}>
            <PasswordForm />
          </Section>
        ) : null}
        <Section id="mfa" title={t('mfa.title')}>
          <MfaSection user={user} />
        </Section>
      </Flex>
    );
  } else if (me.isError) {
    body = <PageError description={t(`common:${errorMessageKey(me.error)}`)} onRetry={() => void me.refetch()} />;
  } else {
    body = <PageLoading />;
  }

  return (
    <section aria-labelledby="profile-title" data-testid="profile-page">
      <PageHeader
        title={<span id="profile-title">{t('pages.profile')}</span>}
        // No password section for a directory or SSO account: the description does not promise one.
        description={user && user.source !== 'local' ? t('profile.description_managed') : t('profile.description')}
      />
      {body}
    </section>
  );
}
