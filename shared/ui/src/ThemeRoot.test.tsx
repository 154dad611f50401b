import Button from 'antd/es/button';
import Descriptions from 'antd/es/descriptions';
import { initI18n } from '@qc/i18n';
import theme from 'antd/es/theme';
import { PRIMARY_COLORS, toThemeConfig } from '@qc/ui-state';
import { render, screen } from '@testing-library/react';
import { FRENCH_COLON_GAP, ThemeRoot } from './ThemeRoot';

describe('theme root', () => {
  it('a busy button is named by its own text only (antd names its spinner "loading" in English)', () => {
    render(
      <ThemeRoot>
        <Button loading>Libérer</Button>
      </ThemeRoot>,
    );
    expect(screen.getByRole('button')).toHaveAccessibleName('Libérer');
    expect(document.querySelector('.anticon-loading')).not.toBeNull();
  });

  it.each([
    ['fr', `${FRENCH_COLON_GAP}px`],
    ['en', '2px'],
  ])('%s: the gap before a description label’s colon (a word space in French)', async (lng, gap) => {
    await initI18n().changeLanguage(lng);
    try {
      render(
        <ThemeRoot>
          <Descriptions items={[{ key: 'created', label: 'Création', children: '28/11/2026' }]} />
        </ThemeRoot>,
      );
      const css = Array.from(document.querySelectorAll('style'), (s) => s.textContent).join('\n');
      // antd writes the gap as a CSS variable of the Descriptions component.
      expect(css.replace(/\s/g, '')).toContain(`--ant-descriptions-colon-margin-left:${gap}`);
    } finally {
      await initI18n().changeLanguage('fr');
    }
  });
});

/** WCAG relative luminance and contrast of two #rrggbb colours. */
function contrast(a: string, b: string): number {
  const lum = (hex: string) => {
    const [r, g, b] = [1, 3, 5].map((i) => {
      const c = parseInt(hex.slice(i, i + 2), 16) / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
  };
  const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}

it.each(['light', 'dark'] as const)('a solid danger button reads at ≥ 4.5:1 in the %s theme', (resolved) => {
  const config = toThemeConfig(theme, { resolved, primary: PRIMARY_COLORS[resolved] });
  const token = theme.getDesignToken(config);
  const text = (config.components as { Button?: { dangerColor?: string } }).Button?.dangerColor ?? '#ffffff';
  expect(contrast(text, token.colorError)).toBeGreaterThanOrEqual(4.5);
});
