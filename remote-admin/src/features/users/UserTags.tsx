import Tag from 'antd/es/tag';
import { useTranslation } from 'react-i18next';
import { mfaState, type AdminUser, type Role } from './users.types';

/** antd preset colour names (themed by antd in light and dark), never hard-coded colours. */
const ROLE_COLORS: Record<Role, string> = { admin: 'volcano', domain_admin: 'blue', user: 'default' };
const MFA_COLORS = { enabled: 'success', required: 'warning', disabled: 'default' } as const;

export function RoleTag({ role }: { role: Role }) {
  const { t } = useTranslation('common');
  return (
    <Tag color={ROLE_COLORS[role]} data-testid="user-role">
      {t(`roles.${role}`)}
    </Tag>
  );
}

export function MfaTag({ user }: { user: Pick<AdminUser, 'mfa_enabled' | 'mfa_required'> }) {
  const { t } = useTranslation('admin');
  const state = mfaState(user);
  return (
    <Tag color={MFA_COLORS[state]} data-testid="user-mfa">
      {t(`users.tags.mfa_${state}`)}
    </Tag>
  );
}

/** Active or deactivated, and "invitation pending" while an invited user has not chosen a password. */
export function StatusTags({ user }: { user: Pick<AdminUser, 'is_active' | 'invitation_pending'> }) {
  const { t } = useTranslation('admin');
  return (
    <>
      <Tag color={user.is_active ? 'success' : 'default'} data-testid="user-status">
        {t(user.is_active ? 'users.tags.active' : 'users.tags.inactive')}
      </Tag>
      {user.invitation_pending ? (
        <Tag color="processing" data-testid="user-invitation">
          {t('users.tags.invitation_pending')}
        </Tag>
      ) : null}
    </>
  );
}
