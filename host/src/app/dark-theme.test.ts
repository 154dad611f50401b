import theme from 'antd/es/theme';
import {
  contrastRatio,
  DARK_TAG_TEXT,
  LIGHT_TAG_TEXT,
  PRIMARY_COLORS,
  toThemeConfig,
  type ResolvedTheme,
} from '@qc/ui-state';

/**
 * Issue 23: one dark palette, and its tags and score colours at WCAG AA (4.5:1), computed from the
 * very tokens antd derives from @qc/ui-state's theme (axe in e2e checks the pages as drawn).
 */
type Tokens = Record<string, string>;

function tokens(resolved: ResolvedTheme) {
  const config = toThemeConfig(theme, { resolved, primary: PRIMARY_COLORS[resolved] });
  const global = theme.getDesignToken(config as Parameters<typeof theme.getDesignToken>[0]) as unknown as Tokens;
  // A component token set in toThemeConfig wins over the global one for that component.
  const tag = { ...global, ...(config.components.Tag as Tokens) };
  const menu = (config.components as { Menu?: Tokens }).Menu ?? {};
  return { global, tag, menu };
}

/** Every preset the console's tags use: the score bands (green, gold, orange, red) and the actions. */
const PRESETS = ['green', 'gold', 'orange', 'red', 'volcano', 'blue', 'cyan', 'purple', 'magenta', 'lime'];
const STATUSES = ['Success', 'Warning', 'Error', 'Info'];

describe.each(['dark', 'light'] as const)('%s theme contrast (WCAG AA)', (resolved) => {
  const { global, tag, menu } = tokens(resolved);
  const page = global.colorBgContainer!;

  it.each(PRESETS)('a %s tag: its text (shade 7) on its tint (shade 1) ≥ 4.5:1', (color) => {
    expect(contrastRatio(tag[`${color}7`]!, tag[`${color}1`]!, page)).toBeGreaterThanOrEqual(4.5);
  });

  it.each(STATUSES)('a %s tag: its colour on its own background ≥ 4.5:1', (status) => {
    expect(contrastRatio(tag[`color${status}`]!, global[`color${status}Bg`]!, page)).toBeGreaterThanOrEqual(4.5);
  });

  it('text, secondary text on the page and on the cards, links ≥ 4.5:1', () => {
    for (const bg of [global.colorBgContainer!, global.colorBgLayout!]) {
      expect(contrastRatio(global.colorText!, bg, page)).toBeGreaterThanOrEqual(4.5);
      expect(contrastRatio(global.colorTextSecondary!, bg, page)).toBeGreaterThanOrEqual(4.5);
      expect(contrastRatio(global.colorTextTertiary!, bg, page)).toBeGreaterThanOrEqual(4.5);
      expect(contrastRatio(global.colorLink!, bg, page)).toBeGreaterThanOrEqual(4.5);
    }
  });

  it('the drawer’s selected entry (its colour on its tint) ≥ 4.5:1', () => {
    const color = menu.itemSelectedColor ?? global.colorPrimary!;
    const bg = menu.itemSelectedBg ?? global.controlItemBgActive!;
    expect(contrastRatio(color, bg, page)).toBeGreaterThanOrEqual(4.5);
  });
});

describe('the overrides are needed (the check can fail)', () => {
  it('antd’s own dark purple tag and selected menu entry are below 4.5:1', () => {
    const { global } = tokens('dark');
    expect(contrastRatio(global.purple7!, global.purple1!, global.colorBgContainer!)).toBeLessThan(4.5);
    expect(DARK_TAG_TEXT.purple7).not.toBe(global.purple7);
    expect(contrastRatio(global.colorPrimary!, global.controlItemBgActive!, global.colorBgContainer!)).toBeLessThan(
      4.5,
    );
    expect(LIGHT_TAG_TEXT.gold7).toBe('#874d00');
  });
});
