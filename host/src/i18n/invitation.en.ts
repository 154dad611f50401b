import type invitation from './invitation.fr';

/** The invitation page's texts, English (see invitation.fr.ts). */
const en: typeof invitation = {
  title: 'Choose your password',
  description: 'You have been invited to Quarantine Console. Choose the password of your account to finish.',
  password: 'New password',
  confirm: 'Confirm password',
  password_required: 'Please enter a password',
  too_short: 'Password must be at least {{min}} characters long',
  too_long: 'Password must be at most {{max}} characters long',
  confirm_required: 'Please confirm the password',
  mismatch: 'Passwords do not match',
  submit: 'Set password',
  success: 'Password set. You can now sign in.',
  error: 'The password could not be set.',
  link_title: 'This invitation link cannot be used',
  invalid: 'This invitation link was already used or is not valid. Ask your administrator for a new invitation.',
  expired: 'This invitation link has expired. Ask your administrator for a new invitation.',
  missing_token: 'This link is incomplete: open the whole link from the e-mail.',
  to_login: 'Go to the sign-in page',
};
export default en;
