import notification from 'antd/es/notification';
import { useSession } from '@qc/auth';
import { ThemeRoot, usePhoneLayout } from '@qc/ui';
import { NOTIFICATION_CONFIG, useNotices } from '@qc/ui-state';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * The ONE notice renderer (lazy chunk, loaded on the first notify()). The @qc/ui-state bus owns the
 * rules (max 3, 5 s, no duplicates); this mirrors its list into antd notifications, bottom-left.
 */
export default function NotificationHost() {
  const { t } = useTranslation('common');
  // On a phone a notice spans the screen's width: it is lifted above the feedback button (bottom
  // right, 40 px + 24 px margin) instead of covering it for its 5 s. On the pages without a session
  // (/login, its two-factor steps, an invitation) it goes to the top, over the top bar: at the bottom
  // it covered the form's end, the submit button and "Forgot password?", even more with the
  // keyboard open (issue 23).
  const phone = usePhoneLayout();
  const signedIn = useSession((s) => s.isAuthenticated);
  const placement = phone && !signedIn ? 'top' : NOTIFICATION_CONFIG.placement;
  const [api, holder] = notification.useNotification({
    placement: NOTIFICATION_CONFIG.placement,
    top: 8,
    bottom: phone ? 80 : 24,
    maxCount: NOTIFICATION_CONFIG.maxCount,
    stack: false,
    duration: false,
  });
  const notices = useNotices((s) => s.notices);
  const shown = useRef(new Set<string>());
  const closeLabel = t('actions.close');

  useEffect(() => {
    const current = new Set(notices.map((n) => n.key));
    for (const key of [...shown.current]) {
      if (!current.has(key)) {
        shown.current.delete(key);
        api.destroy(key);
      }
    }
    for (const n of notices) {
      if (shown.current.has(n.key)) continue;
      shown.current.add(n.key);
      api[n.type]({
        key: n.key,
        placement,
        title: n.title,
        description: n.description,
        duration: false, // the bus closes it after 5 s
        closable: { 'aria-label': closeLabel },
        role: n.type === 'error' || n.type === 'warning' ? 'alert' : 'status',
        onClose: () => useNotices.getState().dismiss(n.key),
        props: { 'data-testid': 'notice', 'data-notice-type': n.type } as { 'data-testid': string },
      });
    }
  }, [notices, api, closeLabel, placement]);

  // Themed here: the host's root has no antd theme (issue 22: none on /login's first load).
  return <ThemeRoot>{holder}</ThemeRoot>;
}
