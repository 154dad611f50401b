import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { frenchTypographyIssue, frenchTypographyIssues } from './typography';

// Issue 23: every French string of every app (each `*.fr.ts` namespace, found here, not listed) has
// a non-breaking space before ":" ";" "!" "?" and between a number and its unit.
const root = path.resolve(__dirname, '../../..');
const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '*.fr.ts'], { cwd: root })
  .toString()
  .split('\n')
  .filter((f) => f.endsWith('.fr.ts') && !f.includes('node_modules'));

/** Data shown as typed, not prose: an exact subject to match (a typographer's space would not). */
const DATA_SAMPLES = ['Vous avez gagné !'];

function withoutSamples(o: unknown): unknown {
  if (typeof o === 'string') return DATA_SAMPLES.reduce((s, d) => s.split(d).join('…'), o);
  if (o && typeof o === 'object') return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, withoutSamples(v)]));
  return o;
}

describe('French typography', () => {
  it('finds the namespaces of every app', () => {
    for (const app of ['host/', 'remote-mail/', 'remote-admin/', 'remote-rspamd/', 'remote-haraka/', 'shared/i18n/'])
      expect(files.some((f) => f.startsWith(app))).toBe(true);
  });

  it.each(files)('%s: a non-breaking space before : ; ! ? and between a number and its unit', (file) => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the file list is found at run time
    const resources = (require(path.join(root, file)) as { default: Record<string, unknown> }).default;
    expect(Object.keys(resources).length).toBeGreaterThan(0);
    expect(frenchTypographyIssues(withoutSamples(resources) as Record<string, unknown>)).toEqual([]);
  });

  it('the check itself: what it refuses and what it lets through', () => {
    for (const bad of [
      'Taille : 5 Mo',
      'au plus {{size}} Mo',
      'toutes les {{seconds}} s.',
      '25 ms',
      '3 j',
      '12,5 %',
      'Supprimer ?',
      'Libérer ; puis',
      'Vraiment ! Oui',
      '({{email}}) : suite',
    ])
      expect([bad, frenchTypographyIssue(bad)]).not.toEqual([bad, '']);
    for (const good of [
      'Taille\u00a0: 5\u00a0Mo',
      'au plus {{size}}\u00a0Mo',
      'Supprimer\u202f?',
      'Libérer\u202f; puis',
      '2 jours',
      '5 ou 6 e-mails',
      '2001:db8::1',
      'https://exemple.fr',
      '* et ? sont des jokers',
      '« * » et « ? » un seul caractère',
      '10:30',
    ])
      expect([good, frenchTypographyIssue(good)]).toEqual([good, '']);
  });
});
