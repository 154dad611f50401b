import { roleSatisfies } from '@qc/auth';
import type { Role } from '@qc/contracts';
import { registerHostNamespace } from '../i18n';
import { remoteId, ROUTES, visibleNavEntries } from './route-table';

const t = registerHostNamespace().getFixedT('fr', 'host');
const labels = (
  role: Role,
  remotes: Record<string, string> = { remote_mail: 'x', remote_admin: 'x', remote_rspamd: 'x', remote_haraka: 'x' },
  status: 'ready' | 'failed' | 'loading' = 'ready',
) => visibleNavEntries({ role, remotes, remotesStatus: status, roleSatisfies }).map((e) => t(`nav.${e.id}`));

describe('the one route table (DESIGN §3)', () => {
  it('nav entries by role (spec §2)', () => {
    expect(labels('user')).toEqual(['Tableau de bord', 'Quarantaine', 'Historique', 'Statistiques', 'Paramètres']);
    expect(labels('domain_admin')).toEqual([
      'Tableau de bord',
      'Quarantaine',
      'Historique',
      'Statistiques',
      'Utilisateurs',
      'Paramètres',
    ]);
    expect(labels('admin')).toEqual([
      'Tableau de bord',
      'Quarantaine',
      'Historique',
      'Statistiques',
      'Utilisateurs',
      'Domaines',
      'Annuaire',
      'Filtres standard',
      'Filtres du panneau de contrôle',
      'Règles système',
      'Journaux',
      'Résumé statistique',
      'Journaux par jour',
      'Avis',
      'Paramètres',
    ]);
  });

  it('hides the entries of a remote missing from /remotes.json (once it is known)', () => {
    expect(labels('user', {})).toEqual(['Paramètres']);
    // remote-admin not deployed: no Users, Domains nor Directory entry, the rest stays.
    expect(labels('admin', { remote_mail: 'x' })).not.toContain('Utilisateurs');
    expect(labels('admin', { remote_mail: 'x' })).not.toContain('Domaines');
    expect(labels('admin', { remote_mail: 'x' })).not.toContain('Annuaire');
    // remote-rspamd not deployed: no Filters entries; remote-haraka (issue 19) likewise.
    const withoutRspamd = labels('admin', { remote_mail: 'x', remote_admin: 'x', remote_haraka: 'x' });
    for (const name of ['Filtres standard', 'Filtres du panneau de contrôle', 'Règles système'])
      expect(withoutRspamd).not.toContain(name);
    expect(withoutRspamd).toContain('Journaux');
    const withoutHaraka = labels('admin', { remote_mail: 'x', remote_admin: 'x', remote_rspamd: 'x' });
    for (const name of ['Journaux', 'Résumé statistique', 'Journaux par jour'])
      expect(withoutHaraka).not.toContain(name);
    expect(withoutHaraka).toContain('Règles système');
    expect(labels('domain_admin', { remote_mail: 'x' })).toContain('Quarantaine');
    expect(labels('domain_admin', { remote_mail: 'x' }, 'loading')).toContain('Utilisateurs');
    expect(labels('user', {}, 'failed')).not.toContain('Tableau de bord');
    expect(labels('user', {}, 'loading')).toContain('Tableau de bord');
  });

  it('route → role (DESIGN §3) and MF ids', () => {
    const role = (id: string) => ROUTES.find((r) => r.id === id)!.role;
    expect(['dashboard', 'mail', 'history', 'statistics', 'settings', 'profile', 'confirm_email'].map(role)).toEqual(
      Array(7).fill('user'),
    );
    expect(role('users')).toBe('domain_admin');
    for (const id of [
      'domains',
      'directory',
      'rspamd',
      'apanel_filters',
      'system_rules',
      'haraka_logs',
      'haraka_summary',
      'haraka_logs_per_day',
      'feedback',
    ])
      expect(role(id)).toBe('admin');
    expect(remoteId(ROUTES[0]!)).toBe('remote_mail/Dashboard');
    const entry = (id: string) => ROUTES.find((r) => r.id === id)!;
    expect([entry('users'), entry('domains'), entry('directory')].map((e) => [remoteId(e), e.path, e.ready])).toEqual([
      ['remote_admin/Users', 'users/*', true],
      ['remote_admin/Domains', 'domains/*', true],
      // Issue 31: Admin → Directory.
      ['remote_admin/Directory', 'directory', true],
    ]);
    // Issue 17: remote-rspamd's three page groups (spec §2's eleven rspamd/* routes among them).
    expect(
      [entry('rspamd'), entry('apanel_filters'), entry('system_rules')].map((e) => [remoteId(e), e.path, e.ready]),
    ).toEqual([
      ['remote_rspamd/Filters', 'rspamd/*', true],
      ['remote_rspamd/ApanelFilters', 'rspamd/apanel-filters/*', true],
      ['remote_rspamd/SystemRules', 'rspamd/system-rules/*', true],
    ]);
    // Issue 19: remote-haraka's three pages are built (no more placeholders).
    expect(
      [entry('haraka_logs'), entry('haraka_summary'), entry('haraka_logs_per_day')].map((e) => [
        remoteId(e),
        e.path,
        e.ready,
      ]),
    ).toEqual([
      ['remote_haraka/Logs', 'haraka/logs/*', true],
      ['remote_haraka/StatisticsSummary', 'haraka/statistics/summary', true],
      ['remote_haraka/LogsPerDay', 'haraka/statistics/logs-per-day', true],
    ]);
  });

  it('the host’s own pages: profile (+ e-mail confirmation link), settings, admin feedback', () => {
    const page = (id: string) => ROUTES.find((r) => r.id === id);
    expect(page('profile')).toMatchObject({ path: 'profile', page: 'profile', ready: true });
    expect(page('profile')!.nav).toBeUndefined(); // reached from the profile menu
    expect(page('confirm_email')).toMatchObject({ path: 'profile/confirm-email', page: 'confirm_email' });
    expect(page('settings')).toMatchObject({ path: 'settings', page: 'settings', ready: true });
    expect(page('feedback')).toMatchObject({ path: 'feedback', page: 'feedback', role: 'admin' });
    for (const id of ['profile', 'confirm_email', 'settings', 'feedback']) expect(remoteId(page(id)!)).toBeNull();
  });
});
