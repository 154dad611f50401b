import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from '@playwright/test';

// Accessibility checks shared by the specs. axe is evaluated through the DevTools protocol, as the
// test's own code, not injected as a <script> (which the console's CSP, script-src 'self', rightly
// refuses): a spec using it needs no bypassCSP, so its other checks run under the real policy.

const AXE = readFileSync(createRequire(__filename).resolve('axe-core/axe.min.js'), 'utf8');

interface Finding {
  id: string;
  help: string;
  nodes: { target: string[]; html: string; failureSummary?: string }[];
}

/** axe's findings on the page, or only within `scope` (a dialog, a hovered control: the rest was checked on its own). */
export async function axeFindings(page: Page, scope?: string): Promise<string[]> {
  // Transitions finished: a colour caught mid-fade is not the page's. Taken off again afterwards:
  // antd closes its dialogs on the end of their animation.
  const still = await page.addStyleTag({
    content: '*, *::before, *::after { transition: none !important; animation: none !important; }',
  });
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE);
  const violations = await page.evaluate(async (scope) => {
    const axe = (
      window as unknown as { axe: { run(context: unknown, options: unknown): Promise<{ violations: Finding[] }> } }
    ).axe;
    // antd's table keeps a hidden row for measuring column widths (aria-hidden, not for anyone).
    const result = await axe.run(
      { ...(scope ? { include: [[scope]] } : {}), exclude: [['.ant-table-measure-row']] },
      { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } },
    );
    return result.violations;
  }, scope);
  await still.evaluate((el) => (el as Element).remove());
  return violations.flatMap((v) =>
    v.nodes.map(
      (n) =>
        `${v.id} (${v.help}) at ${n.target.join(' ')} ${n.html.slice(0, 160)}: ${(n.failureSummary ?? '').replace(/\s+/g, ' ')}`,
    ),
  );
}

/**
 * Controls whose icon would be read out by its English name: antd's icons are role="img" named
 * after the icon ("reload Actualiser", a clear button "close-circle") unless aria-hidden or named
 * on purpose. axe does not flag this.
 */
export async function iconNamedControls(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll('button:not([aria-label]), a:not([aria-label]), [role="menuitem"]')]
      .filter((el) => el.checkVisibility({ visibilityProperty: true }))
      .filter((el) =>
        [...el.querySelectorAll('.anticon[role="img"]:not([aria-hidden="true"])')].some((icon) =>
          /^[a-z]+(-[a-z]+)*$/.test(icon.getAttribute('aria-label') ?? ''),
        ),
      )
      .map((el) => `icon name read out in "${(el.textContent ?? '').trim()}"`),
  );
}
