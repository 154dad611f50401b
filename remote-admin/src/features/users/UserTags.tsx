import Button from 'antd/es/button';
import Tag from 'antd/es/tag';
import Tooltip from 'antd/es/tooltip';
import { VisuallyHidden } from '@qc/ui';
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

const SOURCE_COLORS = { ldap: 'geekblue', oidc: 'purple' } as const;

/** "Directory" or "SSO" for an account the directory or the SSO provider manages; nothing for a local one. */
export function SourceTag({ source }: { source: AdminUser['source'] }) {
  const { t } = useTranslation('admin');
  if (source === 'local') return null;
  return (
    <Tag color={SOURCE_COLORS[source]} data-testid="user-source">
      {t(`users.tags.source_${source}`)}
    </Tag>
  );
}

/**
 * The addresses besides the primary one, as a small "+N" button: the list in a tooltip (hover or
 * keyboard focus) and, for screen readers, in the button's name.
 */
export function OtherAddresses({ user }: { user: Pick<AdminUser, 'email' | 'addresses'> }) {
  const { t } = useTranslation('admin');
  const others = user.addresses.filter((a) => a !== user.email);
  if (!others.length) return null;
  return (
    <Tooltip
      trigger={['hover', 'focus', 'click']}
      title={
        <ul style={{ margin: 0, paddingInlineStart: 16 }}>
          {others.map((a) => (
            <li key={a} style={{ overflowWrap: 'anywhere' }}>
              {a}
            </li>
          ))}
        </ul>
      }
    >
      <Button size="small" type="dashed" style={{ fontSize: 12, paddingInline: 6 }} data-testid="user-more-addresses">
        {t('users.more_addresses', { count: others.length })}
        <VisuallyHidden>
          {` (${t('users.more_addresses_label', { count: others.length, addresses: others.join(', ') })})`}
        </VisuallyHidden>
      </Button>
    </Tooltip>
  );
}
