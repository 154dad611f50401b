import { useThemeToken } from '@qc/ui';
import { useState, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * The first Tab stop of every page: "Skip to content", drawn only while focused. Without it, the
 * keyboard crossed the logo, the whole drawer and the top bar (14 stops) before each page.
 */
export function SkipLink({ target }: { target: RefObject<HTMLElement | null> }) {
  const { t } = useTranslation('host');
  const token = useThemeToken();
  const [focused, setFocused] = useState(false);
  return (
    <a
      href="#content"
      onClick={(e) => {
        e.preventDefault(); // a #hash would be a navigation for the router
        target.current?.focus();
      }}
      onFocus={() => setFocused(true)}
      onBlur={() => setFocused(false)}
      data-testid="skip-link"
      style={{
        position: 'fixed',
        insetInlineStart: 8,
        top: focused ? 8 : -100,
        zIndex: 2000,
        padding: '8px 16px',
        borderRadius: token.borderRadius,
        background: token.colorBgElevated,
        color: token.colorPrimary,
        boxShadow: token.boxShadow,
      }}
    >
      {t('layout.skip_to_content')}
    </a>
  );
}
