import type { MailMessage } from '../../lib/mailer';

/**
 * The e-mails that tell an account's owner of a security change they may not have made (issue 16):
 * two-factor turned off or reset, password changed, a refresh token used twice; and of second-factor
 * codes refused after the right password (issue 29): a code used again, wrong codes again and again.
 * Plain text in both languages of the console, French first, like the e-mail-change notices
 * (DESIGN §10). Never a code, a token or any other secret.
 */
export type SecurityNoticeKind =
  'password_changed' | 'mfa_disabled' | 'mfa_reset' | 'refresh_reuse' | 'totp_replay' | 'mfa_failures';

export interface SecurityNoticeFacts {
  username: string;
  at: Date;
  /** The client address the change came from; left out when unknown (the CLI). */
  ip: string | null;
  /** The password was set by an administrator, not by the owner. */
  byAdministrator?: boolean;
  /** mfa_failures: how many wrong codes. */
  failures?: number;
}

export const SECURITY_NOTICE_SUBJECTS: Record<SecurityNoticeKind, string> = {
  password_changed: 'Quarantine Console\u00a0: votre mot de passe a été changé / Your password was changed',
  mfa_disabled:
    'Quarantine Console\u00a0: authentification à deux facteurs désactivée / Two-factor authentication turned off',
  mfa_reset:
    'Quarantine Console\u00a0: authentification à deux facteurs réinitialisée / Two-factor authentication reset',
  refresh_reuse: 'Quarantine Console\u00a0: session fermée par sécurité / A session was ended for your security',
  totp_replay: 'Quarantine Console\u00a0: code de connexion déjà utilisé / A sign-in code was used again',
  mfa_failures: 'Quarantine Console\u00a0: codes de connexion erronés à répétition / Repeated wrong sign-in codes',
};

/** What the second-factor notices say to do: the step comes after the password, so someone has it. */
function passwordKnown(sawACode: boolean): { fr: string; en: string } {
  return {
    fr:
      `Le code à deux facteurs n’est demandé qu’après le bon mot de passe. Si ce n’était pas vous, quelqu’un connaît votre ` +
      `mot de passe${sawACode ? ' et a pu voir l’un de vos codes' : ''}\u00a0: changez-le sans attendre ` +
      `et prévenez votre administrateur.`,
    en:
      `The two-factor code is asked for only after the right password. If it was not you, someone knows your ` +
      `password${sawACode ? ' and may have seen one of your codes' : ''}: change it at once and tell your ` +
      `administrator.`,
  };
}

/** "22 novembre 2026 à 22:46 UTC" / "22 November 2026 at 22:46 UTC": the server knows no reader's time zone. */
export function noticeTime(at: Date): { fr: string; en: string } {
  const format = (locale: string) =>
    new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' }).format(at);
  return { fr: `${format('fr-FR')} UTC`, en: `${format('en-GB')} UTC` };
}

function bodies(kind: SecurityNoticeKind, facts: SecurityNoticeFacts): { fr: string; en: string } {
  const { username } = facts;
  const when = noticeTime(facts.at);
  const from = facts.ip
    ? { fr: ` depuis l’adresse ${facts.ip}`, en: ` from the address ${facts.ip}` }
    : { fr: '', en: '' };
  switch (kind) {
    case 'password_changed':
      return facts.byAdministrator
        ? {
            fr:
              `Un administrateur a changé le mot de passe du compte Quarantine Console de ${username} ` +
              `le ${when.fr}. Vos sessions ont été fermées\u00a0: connectez-vous avec le nouveau mot de passe ` +
              `qu’il vous a communiqué.\n\n` +
              `Si vous n’attendiez pas ce changement, prévenez votre administrateur.`,
            en:
              `An administrator changed the password of the Quarantine Console account of ${username} ` +
              `on ${when.en}. Your sessions were ended: sign in with the new password they gave you.\n\n` +
              `If you did not expect this change, tell your administrator.`,
          }
        : {
            fr:
              `Le mot de passe du compte Quarantine Console de ${username} a été changé le ${when.fr}${from.fr}.\n\n` +
              `Si vous n’êtes pas à l’origine de ce changement, prévenez votre administrateur sans attendre.`,
            en:
              `The password of the Quarantine Console account of ${username} was changed on ${when.en}${from.en}.\n\n` +
              `If you did not make this change, tell your administrator at once.`,
          };
    case 'mfa_disabled':
      return {
        fr:
          `L’authentification à deux facteurs du compte Quarantine Console de ${username} a été désactivée ` +
          `le ${when.fr}${from.fr}. La connexion ne demande plus que le mot de passe, et les codes de secours ` +
          `ne fonctionnent plus.\n\n` +
          `Si vous n’êtes pas à l’origine de ce changement, changez votre mot de passe sans attendre, ` +
          `réactivez l’authentification à deux facteurs depuis votre profil et prévenez votre administrateur.`,
        en:
          `Two-factor authentication was turned off for the Quarantine Console account of ${username} ` +
          `on ${when.en}${from.en}. Signing in now asks only for the password, and the backup codes no longer work.\n\n` +
          `If you did not do this, change your password at once, turn two-factor authentication back on ` +
          `in your profile and tell your administrator.`,
      };
    case 'mfa_reset':
      return {
        fr:
          `Un administrateur a réinitialisé l’authentification à deux facteurs du compte Quarantine Console ` +
          `de ${username} le ${when.fr}. Votre application d’authentification et vos codes de secours ne ` +
          `fonctionnent plus pour ce compte, et vos sessions ont été fermées. Configurez-la à nouveau depuis ` +
          `votre profil, ou à la prochaine connexion si elle vous est demandée.\n\n` +
          `Si vous n’avez pas demandé cette réinitialisation, prévenez votre administrateur.`,
        en:
          `An administrator reset two-factor authentication for the Quarantine Console account of ${username} ` +
          `on ${when.en}. Your authenticator app and backup codes no longer work for this account, and your ` +
          `sessions were ended. Set it up again from your profile, or at your next sign-in if you are asked to.\n\n` +
          `If you did not ask for this reset, tell your administrator.`,
      };
    case 'refresh_reuse':
      return {
        fr:
          `Une session du compte Quarantine Console de ${username} a été présentée avec un jeton déjà remplacé ` +
          `le ${when.fr}${from.fr}\u00a0: cela arrive quand une session a été copiée vers un autre appareil. ` +
          `Par sécurité, cette session a été fermée\u00a0; reconnectez-vous.\n\n` +
          `Si vous ne vous l’expliquez pas (par exemple par la restauration d’une sauvegarde de votre ` +
          `navigateur), changez votre mot de passe sans attendre et prévenez votre administrateur.`,
        en:
          `A session of the Quarantine Console account of ${username} was presented with a token that had ` +
          `already been replaced, on ${when.en}${from.en}: this happens when a session was copied to another ` +
          `device. For your security this session was ended; sign in again.\n\n` +
          `If you cannot explain it (by a browser backup being restored, for example), change your password ` +
          `at once and tell your administrator.`,
      };
    case 'totp_replay': {
      const advice = passwordKnown(true);
      return {
        fr:
          `Le compte Quarantine Console de ${username} a reçu le ${when.fr}${from.fr} un code ` +
          `d’authentification à deux facteurs qui avait déjà servi (une seconde connexion avec le même ` +
          `code, peut-être). Il a été refusé.\n\n${advice.fr}`,
        en:
          `The Quarantine Console account of ${username} was sent, on ${when.en}${from.en}, a two-factor ` +
          `code that had already been used (a second sign-in with the same code, perhaps). It was ` +
          `refused.\n\n${advice.en}`,
      };
    }
    case 'mfa_failures': {
      const advice = passwordKnown(false);
      const times = facts.failures ? { fr: ` (${facts.failures} fois)`, en: ` (${facts.failures} times)` } : null;
      return {
        fr:
          `Des codes d’authentification à deux facteurs erronés ont été saisis à répétition${times?.fr ?? ''} ` +
          `pour le compte Quarantine Console de ${username}, le dernier le ${when.fr}${from.fr}. Ils ont ` +
          `été refusés.\n\n${advice.fr}`,
        en:
          `Wrong two-factor codes were entered repeatedly${times?.en ?? ''} for the Quarantine Console ` +
          `account of ${username}, the last on ${when.en}${from.en}. They were refused.\n\n${advice.en}`,
      };
    }
  }
}

/** The notice for `kind`, addressed to the account's e-mail. */
export function securityNotice(kind: SecurityNoticeKind, to: string, facts: SecurityNoticeFacts): MailMessage {
  const text = bodies(kind, facts);
  return { to, subject: SECURITY_NOTICE_SUBJECTS[kind], text: `${text.fr}\n\n-----\n\n${text.en}\n` };
}
