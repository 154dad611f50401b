import { ThemeRoot } from '@qc/ui';
import type { ComponentType } from 'react';

/**
 * Wraps a lazily loaded component in antd's theme (ThemeRoot). Imported only by dynamic import():
 * antd's ConfigProvider and cssinjs stay off /login's first load (issue 22) and come with the first
 * chunk that uses antd (the shell, the two-factor steps, the notices, the public pages).
 */
export function themed<P extends object>(Inner: ComponentType<P>): ComponentType<P> {
  function Themed(props: P) {
    return (
      <ThemeRoot>
        <Inner {...props} />
      </ThemeRoot>
    );
  }
  Themed.displayName = `Themed(${Inner.displayName ?? Inner.name})`;
  return Themed;
}

/** `import('./X')` → the same module with its default export themed. */
export async function withTheme<P extends object>(
  load: Promise<{ default: ComponentType<P> }>,
): Promise<{ default: ComponentType<P> }> {
  return { default: themed((await load).default) };
}
