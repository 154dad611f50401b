/** Helpers for the host's component tests (not bundled: only *.test.tsx import it). */
import { ThemeRoot } from '@qc/ui';
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { registerHostNamespace } from './i18n';

export function renderWithTheme(ui: ReactElement) {
  registerHostNamespace();
  return render(<ThemeRoot>{ui}</ThemeRoot>);
}

export function jsonResponse(status: number, body?: unknown): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}

export function makeJwt(expInSeconds: number): string {
  const enc = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
  return `${enc({ alg: 'HS256' })}.${enc({ exp: Math.floor(Date.now() / 1000) + expInSeconds })}.s`;
}

export const USER = {
  id: 'u1',
  username: 'jane.doe',
  email: 'jane@example.com',
  first_name: 'Jane',
  last_name: 'Doe',
  role: 'user' as const,
  domain: null,
  is_external: false,
  mfa_enabled: false,
  date_joined: '2026-01-01T00:00:00Z',
};
