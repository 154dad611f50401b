import { changeLanguage, currentLanguage, isLanguage, LANGUAGES } from '@qc/i18n';
import { useTranslation } from 'react-i18next';
import { ensurePublicStyles } from '../../app/public-styles';

ensurePublicStyles();

/** A light language selector (native <select>: no antd Select on /login). */
export function LanguageSelect() {
  const { t, i18n } = useTranslation('common');
  const value = isLanguage(i18n.resolvedLanguage) ? i18n.resolvedLanguage : currentLanguage();
  return (
    <select
      aria-label={t('language.label')}
      title={t('language.label')}
      data-testid="language-select"
      value={value}
      onChange={(e) => {
        if (isLanguage(e.target.value)) void changeLanguage(e.target.value);
      }}
      className="qc-select"
    >
      {LANGUAGES.map((lng) => (
        <option key={lng} value={lng} lang={lng}>
          {t(`language.${lng}`)}
        </option>
      ))}
    </select>
  );
}
