/** Helpers for this remote's component tests (not bundled: only *.test.tsx import it). */
import * as auth from '@qc/auth';
import { adminAccount, renderExposed, signInWith } from '@qc/ui/testing';
import { screen } from '@testing-library/react';
import ExposedApanelFilters from './exposed/ApanelFilters';
import ExposedFilters from './exposed/Filters';
import ExposedSystemRules from './exposed/SystemRules';
import type {
  ApanelFilter,
  RspamdFilter,
  RspamdListStatus,
  RspamdStatus,
  SystemRule,
} from './features/rules/rules.types';

// The generic helpers (fetch faked with real Responses, router + query client, phone screen,
// notices, antd Select, clock) are every app's: this file holds only this remote's own.
export * from '@qc/ui/testing';

const ADMIN = { id: 'a1', email: 'admin@example.com' };

/** A filter as GET /api/rspamd/filters/{type}/ lists it (typed from @qc/contracts). */
export function filter(overrides: Partial<RspamdFilter> = {}): RspamdFilter {
  return {
    id: 'f1',
    type: 'domains',
    value: 'spam.example',
    pattern_type: 'exact',
    action: 'reject',
    description: 'Known spammer',
    enabled: true,
    created_at: '2026-11-02T09:30:00+01:00',
    updated_at: '2026-11-02T09:30:00+01:00',
    created_by: ADMIN,
    ...overrides,
  };
}

export function apanelFilter(overrides: Partial<ApanelFilter> = {}): ApanelFilter {
  return {
    id: 'p1',
    enabled: true,
    owner: null,
    from: '*@bulk.example',
    to: '*',
    action: 'quarantine',
    description: 'Bulk mail',
    created_at: '2026-11-02T09:30:00+01:00',
    updated_at: '2026-11-03T10:00:00+01:00',
    created_by: ADMIN,
    ...overrides,
  };
}

export function systemRule(overrides: Partial<SystemRule> = {}): SystemRule {
  return {
    id: 's1',
    name: 'Invoices from abroad',
    from: '*@bad.example',
    subject: '*invoice*',
    to: null,
    ip: '192.0.2.0/24',
    action: 'greylist',
    enabled: true,
    created_at: '2026-11-02T09:30:00+01:00',
    updated_at: '2026-11-03T10:00:00+01:00',
    created_by: ADMIN,
    ...overrides,
  };
}

/** GET /api/rspamd/status/ with every list live, fetched `secondsAgo` ago, unless `lists` says otherwise. */
export function rspamdStatus(secondsAgo = 12, lists: Partial<RspamdListStatus>[] = []): RspamdStatus {
  const names = [
    'filters-domains',
    'filters-ips',
    'filters-users',
    'filters-special',
    'apanel-filters',
    'system-rules',
  ] as const;
  const at = new Date(Date.now() - secondsAgo * 1000).toISOString();
  return {
    lists: names.map((list) => ({
      list,
      entries: 3,
      changed_at: at,
      fetched_at: at,
      live: true,
      ...lists.find((l) => l.list === list),
    })),
  };
}

export const page = <T,>(results: T[], next_cursor: string | null = null) => ({ results, next_cursor });

/** Signs the test in as an admin (the only role these pages are for). */
export const signInAdmin = () => signInWith(auth, adminAccount());

/** The Filters page group as the host mounts it (`rspamd/*`). */
export const renderFilters = (path = '/rspamd') => renderExposed('rspamd', <ExposedFilters />, path);
/** The control-panel filters as the host mounts them (`rspamd/apanel-filters/*`). */
export const renderApanel = (path = '/rspamd/apanel-filters') =>
  renderExposed('rspamd/apanel-filters', <ExposedApanelFilters />, path);
/** The system rules as the host mounts them (`rspamd/system-rules/*`). */
export const renderSystemRules = (path = '/rspamd/system-rules') =>
  renderExposed('rspamd/system-rules', <ExposedSystemRules />, path);

/** The error text under the form field labelled `label` ('' when it has none). */
export function explainOf(label: string): string {
  const item = screen.getByText(label, { selector: 'label' }).closest('.ant-form-item');
  return item?.querySelector('.ant-form-item-explain')?.textContent ?? '';
}

/** The help text (`extra`) under the form field labelled `label`. */
export function extraOf(label: string): string {
  const item = screen.getByText(label, { selector: 'label' }).closest('.ant-form-item');
  return item?.querySelector('.ant-form-item-extra')?.textContent ?? '';
}

/** Picks a radio by its name (button-style radios take the click on their label). */
export async function pickRadio(user: { click: (el: Element) => Promise<void> }, name: string | RegExp) {
  const radio = screen.getByRole('radio', { name });
  await user.click(radio.closest('label') ?? radio);
}

/** Types `text` into a field in one input event (a form re-renders on each key: slow under load). */
export async function fill(
  user: { click: (el: Element) => Promise<void>; paste: (text: string) => Promise<void> },
  field: Element,
  text: string,
) {
  await user.click(field);
  await user.paste(text);
}
