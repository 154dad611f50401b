import { addShellStrings } from './index';
import invitationEn from './invitation.en';
import invitationFr from './invitation.fr';

/** The invitation page's texts (key `invitation` of the `host` namespace), registered by its lazy chunk. */
export function registerInvitationStrings() {
  return addShellStrings({ fr: { invitation: invitationFr }, en: { invitation: invitationEn } });
}

export { invitationEn, invitationFr };
