import { useTheme } from '@qc/ui-state';
import { useLayoutEffect } from 'react';
import { ensurePublicStyles } from './public-styles';

ensurePublicStyles();

/**
 * Marks <html> with the resolved theme: public-styles paints <body> from it (dark mode reaches the
 * page behind every app) without antd's tokens, which are not on /login's first load (issue 22).
 */
export function PageBackground() {
  const resolved = useTheme((s) => s.resolved);
  useLayoutEffect(() => {
    document.documentElement.style.colorScheme = resolved;
    document.documentElement.dataset.theme = resolved;
  }, [resolved]);
  return null;
}
