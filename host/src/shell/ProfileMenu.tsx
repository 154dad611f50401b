import { LogoutOutlined, UserOutlined } from '@ant-design/icons';
import Avatar from 'antd/es/avatar';
import Button from 'antd/es/button';
import Dropdown from 'antd/es/dropdown';
import { useSession } from '@qc/auth';
import { usePhoneLayout, useThemeToken, VisuallyHidden } from '@qc/ui';
import { notify } from '@qc/ui-state';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { signOut } from './sign-out';

/** Spec §3: initials of the username in the avatar, 'U' by default. */
export function initials(username: string | null | undefined): string {
  const parts = (username ?? '')
    .trim()
    .split(/[\s._@-]+/)
    .filter(Boolean);
  if (parts.length === 0) return 'U';
  const letters = parts.length === 1 ? parts[0]!.slice(0, 1) : `${parts[0]!.slice(0, 1)}${parts[1]!.slice(0, 1)}`;
  return letters.toUpperCase() || 'U';
}

const USERNAME_STYLE = {
  marginInlineStart: 8,
  display: 'inline-block',
  maxWidth: 240,
  overflow: 'hidden',
  textOverflow: 'ellipsis',
  whiteSpace: 'nowrap',
  verticalAlign: 'middle',
} as const;

export function ProfileMenu() {
  const { t } = useTranslation('host');
  const user = useSession((s) => s.user);
  const token = useThemeToken();
  const phone = usePhoneLayout();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  // Closed with Escape, the menu keeps the focus, now hidden: give it back to the button. Not when
  // the focus went somewhere on its own (a click elsewhere, a page, or the button itself).
  const onOpenChange = (next: boolean) => {
    setOpen(next);
    if (next) return;
    requestAnimationFrame(() => {
      if (document.activeElement?.closest('.ant-dropdown')) button.current?.focus();
    });
  };

  const onLogout = async () => {
    // The query cache empties with the session (clearOnSessionChange). Leaving for the provider's
    // sign-out page, nothing to say here.
    if (!(await signOut())) notify({ type: 'info', title: t('logout.success') });
  };

  return (
    <Dropdown
      trigger={['click']}
      placement="bottomRight"
      // Opened from the keyboard, the focus goes into the menu (its arrow keys then move in it).
      autoFocus
      open={open}
      onOpenChange={onOpenChange}
      menu={{
        items: [
          { key: 'profile', icon: <UserOutlined aria-hidden />, label: t('nav.profile') },
          { type: 'divider' },
          { key: 'logout', icon: <LogoutOutlined aria-hidden />, label: t('layout.logout'), danger: true },
        ],
        onClick: ({ key }) => {
          if (key === 'profile') navigate('/profile');
          else if (key === 'logout') void onLogout();
        },
      }}
    >
      <Button
        ref={button}
        type="text"
        aria-haspopup="menu"
        aria-expanded={open}
        data-testid="profile-menu"
        style={{ height: 40, paddingInline: 8 }}
      >
        {/* Named by what it shows, the initials left out (they repeat the name), then what it is:
            an aria-label instead would hide the visible name from speech input (WCAG 2.5.3). */}
        <span aria-hidden="true">
          <Avatar
            size="small"
            // antd's grey (the placeholder colour) is under 4.5:1 behind white initials in dark mode.
            style={{ verticalAlign: 'middle', backgroundColor: token.colorPrimary }}
            data-testid="avatar"
          >
            {initials(user?.username)}
          </Avatar>
        </span>
        {/* On a phone the avatar alone: a long name would push the top bar past the screen's edge.
            Elsewhere the name is cut at 240 px, whole in the tooltip. */}
        {phone ? (
          <VisuallyHidden>{user?.username ?? ''}</VisuallyHidden>
        ) : (
          <span style={USERNAME_STYLE} title={user?.username ?? undefined} data-testid="profile-username">
            {user?.username ?? ''}
          </span>
        )}
        <VisuallyHidden>{` ${t('layout.profile_menu')}`}</VisuallyHidden>
      </Button>
    </Dropdown>
  );
}
