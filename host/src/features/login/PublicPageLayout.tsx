import { useThemeToken } from '@qc/ui';
import type { CSSProperties, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { LanguageSelect } from '../controls/LanguageSelect';
import { ThemeToggle } from '../controls/ThemeToggle';

/**
 * The frame of the pages shown without a session (/login, /invitation): top bar with the theme
 * toggle and language selector, one card with its title, © line. Light on purpose: no antd
 * Typography/Select/Card (a /login JS budget).
 */
export function PublicPageLayout({
  title,
  year = new Date().getFullYear(),
  testId,
  width = 400,
  children,
}: {
  title: string;
  /** The card's greatest width (px). */
  width?: number;
  /** Injected for tests. */
  year?: number;
  testId: string;
  children: ReactNode;
}) {
  const { t } = useTranslation('host');
  const token = useThemeToken();
  const page: CSSProperties = { minHeight: '100vh', display: 'flex', flexDirection: 'column', color: token.colorText };
  const bar: CSSProperties = {
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'space-between',
    gap: 12,
    padding: '12px 24px',
    background: token.colorBgContainer,
    borderBottom: `1px solid ${token.colorBorderSecondary}`,
  };
  const card: CSSProperties = {
    width: '100%',
    maxWidth: width,
    padding: 32,
    background: token.colorBgContainer,
    borderRadius: token.borderRadiusLG,
    boxShadow: token.boxShadowTertiary,
    border: `1px solid ${token.colorBorderSecondary}`,
  };

  return (
    <div style={page} data-testid={testId}>
      <header style={bar} aria-label={t('login.top_bar')}>
        <span style={{ fontWeight: 600, fontSize: token.fontSizeLG }}>{t('common:app.name')}</span>
        <div style={{ display: 'flex', alignItems: 'center', gap: 8 }}>
          <ThemeToggle />
          <LanguageSelect />
        </div>
      </header>
      <main style={{ flex: 1, display: 'flex', alignItems: 'center', justifyContent: 'center', padding: 24 }}>
        <section style={card} aria-labelledby="public-page-title">
          <h1
            id="public-page-title"
            style={{
              margin: '0 0 8px',
              fontSize: token.fontSizeHeading3,
              fontWeight: 600,
              color: token.colorTextHeading,
            }}
          >
            {title}
          </h1>
          {children}
        </section>
      </main>
      <footer style={{ textAlign: 'center', padding: 16, color: token.colorTextTertiary, fontSize: token.fontSizeSM }}>
        {t('login.copyright', { year })}
      </footer>
    </div>
  );
}
