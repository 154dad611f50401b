import type { DigestKind, DigestLanguage } from './digest.repository';

/**
 * The digest e-mail's words, French (the default) and English. Kept beside its composer as the
 * invitation and security notices keep theirs; `{…}` parts are functions of the facts.
 */
export interface DigestStrings {
  locale: string;
  subject(count: number, kind: DigestKind, domain: string | null): string;
  testPrefix: string;
  heading(kind: DigestKind, domain: string | null): string;
  intro(count: number, kind: DigestKind, target: string, test: boolean): string;
  newestShown(shown: number, count: number): string;
  nothingPending: string;
  timesIn(timeZone: string): string;
  noSubject: string;
  /** The label separator (French typography: a no-break space before the colon). */
  colon: string;
  from: string;
  score: string;
  why: string;
  actions: { release: string; allow_sender: string; delete: string };
  linksNote(expires: string): string;
  domainNote: string;
  openConsole: string;
  unsubscribe: string;
  footer(kind: DigestKind): string;
}

const fr: DigestStrings = {
  locale: 'fr-FR',
  subject: (n, kind, domain) => {
    const what = n === 0 ? 'aucun message en attente' : n === 1 ? '1 message en attente' : `${n} messages en attente`;
    return kind === 'domain' ? `Quarantaine de ${domain}\u00a0: ${what}` : `Quarantaine\u00a0: ${what}`;
  },
  testPrefix: '[Test] ',
  heading: (kind, domain) => (kind === 'domain' ? `Quarantaine du domaine ${domain}` : 'Votre quarantaine'),
  intro: (n, kind, target, test) => {
    const held =
      n === 1
        ? `1 message ${kind === 'domain' ? 'pour le domaine' : 'adressé à'} ${target} est retenu en quarantaine`
        : `${n} messages ${kind === 'domain' ? 'pour le domaine' : 'adressés à'} ${target} sont retenus en quarantaine`;
    return test ? `${held} en ce moment (résumé de test).` : `${held} depuis le dernier résumé.`;
  },
  newestShown: (shown, n) => `Les ${shown} plus récents sont listés ci-dessous, sur ${n}.`,
  nothingPending:
    'Aucun message n’est retenu pour vous en ce moment. Ceci est un résumé de test\u00a0: les prochains ' +
    'listeront ici les messages retenus, avec des liens pour les libérer, autoriser leur expéditeur ou les supprimer.',
  timesIn: (tz) => `Heures du fuseau ${tz}.`,
  noSubject: '(sans objet)',
  colon: '\u00a0: ',
  from: 'De',
  score: 'Score',
  why: 'Raisons',
  actions: { release: 'Libérer', allow_sender: 'Autoriser l’expéditeur', delete: 'Supprimer' },
  linksNote: (expires) =>
    'Chaque lien ouvre une page de confirmation de la console\u00a0: rien n’est fait avant que vous confirmiez. ' +
    `Un lien ne sert qu’une fois et expire au plus tard le ${expires}.`,
  domainNote: 'Les actions de ces liens sont faites avec vos droits d’administrateur du domaine.',
  openConsole: 'Ouvrir la quarantaine dans la console',
  unsubscribe: 'Ne plus recevoir ces résumés',
  footer: (kind) =>
    kind === 'domain'
      ? 'Vous recevez ce résumé car le résumé du domaine est activé dans vos paramètres de notification.'
      : 'Vous recevez ce résumé car les notifications de quarantaine sont activées pour votre compte. ' +
        'Vous pouvez changer leur fréquence dans les paramètres de la console.',
};

const en: DigestStrings = {
  locale: 'en-GB',
  subject: (n, kind, domain) => {
    const what = n === 0 ? 'no message held' : n === 1 ? '1 message held' : `${n} messages held`;
    return kind === 'domain' ? `Quarantine of ${domain}: ${what}` : `Quarantine: ${what}`;
  },
  testPrefix: '[Test] ',
  heading: (kind, domain) => (kind === 'domain' ? `Quarantine of the domain ${domain}` : 'Your quarantine'),
  intro: (n, kind, target, test) => {
    const held = `${n === 1 ? '1 message' : `${n} messages`} ${kind === 'domain' ? 'for the domain' : 'to'} ${target} ${
      n === 1 ? 'is' : 'are'
    } held in quarantine`;
    return test ? `${held} right now (test digest).` : `${held} since the last digest.`;
  },
  newestShown: (shown, n) => `The newest ${shown} of ${n} are listed below.`,
  nothingPending:
    'Nothing is held for you right now. This is a test digest: the next ones will list held messages here, ' +
    'with links to release them, allow their sender or delete them.',
  timesIn: (tz) => `Times in ${tz}.`,
  noSubject: '(no subject)',
  colon: ': ',
  from: 'From',
  score: 'Score',
  why: 'Reasons',
  actions: { release: 'Release', allow_sender: 'Allow sender', delete: 'Delete' },
  linksNote: (expires) =>
    'Each link opens a confirmation page of the console: nothing is done until you confirm. ' +
    `A link works once and expires on ${expires} at the latest.`,
  domainNote: 'These links act with your rights as the domain’s administrator.',
  openConsole: 'Open the quarantine in the console',
  unsubscribe: 'Stop these digests',
  footer: (kind) =>
    kind === 'domain'
      ? 'You receive this digest because the domain digest is on in your notification settings.'
      : 'You receive this digest because quarantine notifications are on for your account. ' +
        'You can change how often in the console’s settings.',
};

export const DIGEST_STRINGS: Record<DigestLanguage, DigestStrings> = { fr, en };
