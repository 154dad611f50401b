import { changeLanguage, currentLanguage, isLanguage, LANGUAGES } from '@qc/i18n';
import { useThemeToken } from '@qc/ui';
import { useTranslation } from 'react-i18next';

/** A light language selector (native <select>: no antd Select on /login). */
export function LanguageSelect() {
  const { t, i18n } = useTranslation('common');
  const token = useThemeToken();
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
      style={{
        height: 32,
        padding: '0 8px',
        borderRadius: token.borderRadius,
        border: `1px solid ${token.colorBorder}`,
        background: token.colorBgContainer,
        color: token.colorText,
        font: 'inherit',
        fontSize: token.fontSize,
        cursor: 'pointer',
      }}
    >
      {LANGUAGES.map((lng) => (
        <option key={lng} value={lng} lang={lng}>
          {t(`language.${lng}`)}
        </option>
      ))}
    </select>
  );
}
