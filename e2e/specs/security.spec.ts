import { expect, test } from '../lib/test';

// DESIGN §7: strict CSP (no inline script, object-src 'none', base-uri 'none', frame-ancestors 'none').

function directives(csp: string): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const part of csp.split(';')) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name) map.set(name.toLowerCase(), values);
  }
  return map;
}

for (const path of ['/', '/login', '/dashboard']) {
  test(`${path} is served with a strict CSP and no inline script`, async ({ page }) => {
    const res = await page.goto(path);
    expect(res?.status()).toBe(200);
    const headers = res!.headers();
    const csp = headers['content-security-policy'];
    expect(csp, 'Content-Security-Policy header').toBeTruthy();
    const d = directives(csp!);
    const scriptSrc = d.get('script-src') ?? d.get('default-src');
    expect(scriptSrc, 'script-src (or default-src)').toBeDefined();
    expect(scriptSrc).toContain("'self'");
    expect(scriptSrc).not.toContain("'unsafe-inline'");
    expect(scriptSrc).not.toContain("'unsafe-eval'");
    expect(scriptSrc).not.toContain('*');
    expect(d.get('object-src')).toEqual(["'none'"]);
    expect(d.get('base-uri')).toEqual(["'none'"]);
    expect(d.get('frame-ancestors')).toEqual(["'none'"]);
    expect(headers['x-content-type-options']).toBe('nosniff');

    // The shell's HTML carries no inline script at all.
    const html = await res!.text();
    const inline = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)].filter(
      ([, attrs]) => !/\bsrc=/.test(attrs!),
    );
    expect(inline.map(([tag]) => tag)).toEqual([]);
  });
}

test('an injected inline script or handler does not execute', async ({ page }) => {
  await page.goto('/login');
  await expect(page.getByRole('button', { name: 'Se connecter', exact: true })).toBeVisible();
  const outcome = await page.evaluate(
    () =>
      new Promise<{ violations: string[]; inlineRan: boolean; handlerRan: boolean }>((resolve) => {
        const w = window as unknown as { __inlineRan?: boolean; __handlerRan?: boolean };
        const violations: string[] = [];
        document.addEventListener('securitypolicyviolation', (e) => violations.push(e.effectiveDirective));
        const s = document.createElement('script');
        s.textContent = 'window.__inlineRan = true;';
        document.body.appendChild(s);
        const img = document.createElement('img');
        img.setAttribute('onerror', 'window.__handlerRan = true');
        img.src = 'data:,not-an-image';
        document.body.appendChild(img);
        setTimeout(() => resolve({ violations, inlineRan: !!w.__inlineRan, handlerRan: !!w.__handlerRan }), 1_000);
      }),
  );
  expect(outcome.inlineRan).toBe(false);
  expect(outcome.handlerRan).toBe(false);
  expect(outcome.violations.some((v) => v.startsWith('script-src'))).toBe(true);
});
