import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ensurePublicStyles } from '../../app/public-styles';
import { LanguageSelect } from '../controls/LanguageSelect';
import { ThemeToggle } from '../controls/ThemeToggle';

ensurePublicStyles();

/**
 * The frame of the pages shown without a session (/login, /invitation): top bar with the theme
 * toggle and language selector, one card with its title, © line. No antd at all (its theme and
 * cssinjs are not on /login, issue 22): plain markup styled by public-styles.
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
  return (
    <div className="qc-public" data-testid={testId}>
      <header className="qc-bar" aria-label={t('login.top_bar')}>
        <span className="qc-brand">{t('common:app.name')}</span>
        <div className="qc-row">
          <ThemeToggle />
          <LanguageSelect />
        </div>
      </header>
      <main className="qc-center">
        <section className="qc-card" style={{ maxWidth: width }} aria-labelledby="public-page-title">
          <h1 id="public-page-title" className="qc-h1">
            {title}
          </h1>
          {children}
        </section>
      </main>
      <footer className="qc-footer">{t('login.copyright', { year })}</footer>
    </div>
  );
}
