import { ArrowLeftOutlined } from '@ant-design/icons';
import Button from 'antd/es/button';
import Descriptions from 'antd/es/descriptions';
import Flex from 'antd/es/flex';
import { useSession } from '@qc/auth';
import { formatDateTime, PageHeader, useDocumentTitle } from '@qc/ui';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';
import { DetailStates, NotFound } from '../detail/DetailStates';
import { fullName } from '../users/users.columns';
import { useUser } from '../users/users.queries';
import type { AdminUser } from '../users/users.types';
import { MfaTag, RoleTag, SourceTag, StatusTags } from '../users/UserTags';
import { DeleteUser } from './DeleteUser';
import { UserEditForm } from './UserEditForm';
import { UserAddresses } from './UserAddresses';
import { PendingInvitation, UserSecurity } from './UserSecurity';

/** Spec §8-like "User not found": unknown, or outside what the caller administers (the API answers 404). */
export function UserNotFound() {
  const { t } = useTranslation('admin');
  return (
    <NotFound
      title={t('user.not_found')}
      description={t('user.not_found_description')}
      backLabel={t('user.back')}
      testId="user-not-found"
    />
  );
}

/** Spec §2 `users/{id}`: the user's fields, account state, two-factor and deletion. */
export default function UserPage() {
  const { t } = useTranslation('admin');
  const { id = '' } = useParams();
  const user = useUser(id);
  return (
    <DetailStates query={user} notFound={<UserNotFound />} errorTitle={t('user.error_title')}>
      {(user) => <UserDetail user={user} />}
    </DetailStates>
  );
}

function UserDetail({ user }: { user: AdminUser }) {
  const { t, i18n } = useTranslation('admin');
  const lang = i18n.resolvedLanguage ?? 'fr';
  const navigate = useNavigate();
  const me = useSession((s) => s.user);
  const isAdmin = me?.role === 'admin';
  const isSelf = me?.id === user.id;
  // A domain_admin manages the `user`s of their domain (and their own fields), never another
  // domain_admin nor an admin: those are shown read-only (the API refuses such changes anyway).
  const canManage = isAdmin || user.role === 'user' || isSelf;
  useDocumentTitle(user.email);

  return (
    <section aria-labelledby="user-title" data-testid="user-page" style={{ maxWidth: 960 }}>
      <PageHeader
        title={<span id="user-title">{user.email}</span>}
        description={
          <Flex vertical gap={8} component="span">
            <span>{fullName(user) ? `${fullName(user)} · ${user.username}` : user.username}</span>
            <Flex gap={4} wrap component="span">
              <RoleTag role={user.role} />
              <SourceTag source={user.source} />
              <StatusTags user={user} />
              <MfaTag user={user} />
            </Flex>
          </Flex>
        }
        extra={
          <Button icon={<ArrowLeftOutlined aria-hidden />} onClick={() => navigate('..')} data-testid="user-back">
            {t('user.back')}
          </Button>
        }
      />
      <Descriptions
        size="small"
        column={{ xs: 1, sm: 2 }}
        style={{ marginBottom: 24 }}
        items={[
          { key: 'source', label: t('user.source'), children: t(`user.sources.${user.source}`) },
          {
            key: 'joined',
            label: t('user.joined'),
            children: <time dateTime={user.date_joined}>{formatDateTime(user.date_joined, lang)}</time>,
          },
          {
            key: 'last_login',
            label: t('user.last_login'),
            children: user.last_login ? (
              <time dateTime={user.last_login}>{formatDateTime(user.last_login, lang)}</time>
            ) : (
              t('never')
            ),
          },
        ]}
      />
      <UserEditForm user={user} canManage={canManage} isAdmin={isAdmin} isSelf={isSelf} />
      <UserAddresses
        user={user}
        editable={canManage && user.source === 'local'}
        domainAdminOf={isAdmin ? null : (me?.domain?.name ?? null)}
      />
      {user.invitation_pending && canManage ? <PendingInvitation user={user} /> : null}
      <UserSecurity user={user} canManage={canManage} />
      {canManage ? <DeleteUser user={user} isSelf={isSelf} /> : null}
    </section>
  );
}
