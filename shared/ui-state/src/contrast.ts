/**
 * WCAG 2 contrast ratio of two CSS colours (#rgb, #rrggbb, rgb()/rgba()). A translucent colour is
 * first laid over `base` (what the eye sees: antd's text tokens are white or black with an alpha).
 * Used by the tests that keep the theme's text, tags and scores at AA (4.5:1).
 */
type Rgba = [number, number, number, number];

export function parseColor(css: string): Rgba {
  const c = css.trim().toLowerCase();
  const hex = /^#([0-9a-f]{3}|[0-9a-f]{6}|[0-9a-f]{8})$/.exec(c);
  if (hex) {
    let h = hex[1]!;
    if (h.length === 3) h = [...h].map((x) => x + x).join('');
    const n = (i: number) => parseInt(h.slice(i, i + 2), 16);
    return [n(0), n(2), n(4), h.length === 8 ? n(6) / 255 : 1];
  }
  const fn = /^rgba?\(([^)]+)\)$/.exec(c);
  if (fn) {
    const parts = fn[1]!
      .split(/[\s,/]+/)
      .filter(Boolean)
      .map(Number);
    if (parts.length >= 3 && parts.every((x) => Number.isFinite(x)))
      return [parts[0]!, parts[1]!, parts[2]!, parts[3] ?? 1];
  }
  throw new Error(`not a colour: ${css}`);
}

/** `top` laid over the opaque `base`. */
export function flatten(top: string, base: string): [number, number, number] {
  const [r, g, b, a] = parseColor(top);
  const [br, bg, bb] = parseColor(base);
  return [r * a + br * (1 - a), g * a + bg * (1 - a), b * a + bb * (1 - a)];
}

function luminance([r, g, b]: [number, number, number]): number {
  const lin = (v: number) => {
    const s = v / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

/** Text `fg` on `bg` (itself possibly translucent over `page`): 1 to 21. */
export function contrastRatio(fg: string, bg: string, page = '#000000'): number {
  const back = flatten(bg, page);
  const backCss = `rgb(${back.join(',')})`;
  const a = luminance(flatten(fg, backCss));
  const b = luminance(back);
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
}
