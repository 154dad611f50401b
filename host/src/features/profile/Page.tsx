import Card from 'antd/es/card';
import Descriptions from 'antd/es/descriptions';
import Flex from 'antd/es/flex';
import { errorMessageKey } from '@qc/api-client';
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

/** /profile (spec §2, §5): personal information, password, two-step verification. */
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
            ]}
          />
          <ProfileForm user={user} />
        </Section>
        <Section id="password" title={t('profile.password.title')}>
          <PasswordForm />
        </Section>
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
      <PageHeader title={<span id="profile-title">{t('pages.profile')}</span>} description={t('profile.description')} />
      {body}
    </section>
  );
}
