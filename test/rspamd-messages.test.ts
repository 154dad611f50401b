// The console translates the api's pattern refusals (English `errors.<field>`, issue 17) by their
// wording (remote-rspamd/src/features/rules/rule-errors.ts): the api's own checks produce them
// here, so a change of wording on either side fails this test instead of showing English in French.
import { normaliseAddressPattern, normaliseFilterValue, systemRulePattern } from '../api/src/modules/rspamd/patterns';
import { ruleConflict } from '../api/src/modules/rspamd/rules-common';
import { conflictMessage, fieldMessage } from '../remote-rspamd/src/features/rules/rule-errors';
import { registerRspamdNamespace } from '../remote-rspamd/src/i18n';

const fr = registerRspamdNamespace().getFixedT('fr', 'rspamd');

/** The api's refusal of a value, or a failure of the test when it accepts it. */
function refusal(check: () => unknown): string {
  try {
    check();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('the api accepted the value');
}

const CASES: [string, () => unknown, string][] = [
  ['ReDoS', () => normaliseFilterValue('special', 'regex', '(a+)+$'), 'peut s’emballer'],
  ['backreference', () => normaliseFilterValue('special', 'regex', '(a)\\1'), 'références arrière (\\1)'],
  ['lookahead', () => normaliseFilterValue('special', 'regex', 'a(?=b)'), 'assertions avant ou arrière comme (?=…)'],
  ['lookbehind', () => normaliseFilterValue('special', 'regex', '(?<!a)b'), 'assertions avant ou arrière comme (?<!…)'],
  ['inline flags', () => normaliseFilterValue('special', 'regex', '(?i)abc'), 'options en ligne'],
  ['regex flag', () => normaliseFilterValue('special', 'regex', '/abc/g'), 'Option « g » inconnue'],
  ['leading zeros', () => normaliseFilterValue('ips', 'exact', '010.1.1.1'), '« 010 » dans 010.1.1.1'],
  ['host bits', () => normaliseFilterValue('ips', 'cidr', '10.0.0.1/24'), 'le réseau est 10.0.0.0/24'],
  ['prefix', () => normaliseFilterValue('ips', 'cidr', '::1/129'), 'IPv6 va de 0 à 128 (/129'],
  ['IPv4 parts', () => normaliseFilterValue('ips', 'exact', '10.1.1'), 'a 4 nombres'],
  ['wildcard chars', () => normaliseFilterValue('domains', 'wildcard', '[a].example'), 'Seuls * et ?'],
  ['wildcard type', () => normaliseFilterValue('domains', 'exact', '*.bad.example'), 'choisissez le type'],
  ['domain labels', () => normaliseFilterValue('domains', 'exact', 'localhost'), 'au moins deux parties'],
  ['domain @', () => normaliseFilterValue('domains', 'wildcard', '*@bad.example'), 'pas de @'],
  ['address form', () => normaliseFilterValue('users', 'exact', 'nobody'), 'nom@domaine'],
  ['required', () => systemRulePattern.subject('  '), 'Le motif est obligatoire'],
  ['catch-all', () => normaliseFilterValue('users', 'wildcard', '*@*'), 'correspond à tout le courrier'],
  ['slash', () => normaliseAddressPattern('/^.*/@x.example'), 'ne peut pas commencer par « / »'],
  ['hash', () => normaliseFilterValue('users', 'exact', 'a#b@x.example'), '« # » est interdit'],
];

describe('the api’s pattern refusals, in French', () => {
  it.each(CASES)('%s', (_name, check, french) => {
    const message = refusal(check);
    const shown = fieldMessage(message, fr).replace(/\u00a0/g, ' ');
    expect(shown).toContain(french);
    expect(shown).not.toContain(message);
  });

  it('an unknown refusal is shown as the api wrote it, after "Motif invalide"', () => {
    expect(fieldMessage('Something new', fr)).toBe('Motif invalide\u00a0: Something new');
  });

  it('a conflict names the other rule, the words around it translated', () => {
    const other = { id: '12', label: 'spam.example', action: 'accept', description: 'Partner. Trusted' };
    const exists = ruleConflict('This value', ['value'], other, 'accept');
    expect(conflictMessage(exists.code, exists.message, fr)).toBe(
      'Cette valeur a déjà un filtre\u00a0: #12 spam.example (accept, "Partner. Trusted").',
    );
    const conflict = ruleConflict('This value', ['value'], other, 'reject');
    expect(conflictMessage(conflict.code, conflict.message, fr)).toBe(
      'Cette valeur a déjà un filtre avec une autre action\u00a0: #12 spam.example (accept, "Partner. Trusted"). ' +
        'Elle ne peut pas être à la fois «\u00a0Accepter\u00a0» et «\u00a0Rejeter\u00a0»\u00a0: modifiez ou supprimez d’abord ce filtre.',
    );
  });
});
