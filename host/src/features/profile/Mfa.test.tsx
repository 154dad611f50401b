import { resetSessionForTests, useSession } from '@qc/auth';
import { changeLanguage } from '@qc/i18n';
import { useNotices } from '@qc/ui-state';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { jsonResponse, mockApi, renderPage, routesOf, signIn, USER } from '../../test-utils';
import ProfilePage from './Page';

const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
const OTPAUTH = `otpauth://totp/Quarantine%20Console:jane%40example.com?secret=${SECRET}&issuer=Quarantine%20Console`;
const CODES = [
  '2345ABCDEF',
  '3456BCDEFG',
  '4567CDEFGH',
  '5678DEFGHJ',
  '6789EFGHJK',
  '789AFGHJKL',
  '89ABGHJKLM',
  '9ABCHJKLMN',
  'ABCDJKLMNP',
  'BCDEKLMNPQ',
];

const noticeTitles = () => useNotices.getState().notices.map((n) => `${n.type}:${n.title}`);
const mfaSection = () => within(screen.getByTestId('profile-section-mfa'));

let downloads: { name: string; blob: Blob }[];

beforeEach(() => {
  localStorage.clear();
  resetSessionForTests();
  useNotices.getState().clear();
  jest.restoreAllMocks();
  // jsdom has no object URLs and does not download: record what would be saved.
  downloads = [];
  let lastBlob: Blob | null = null;
  Object.assign(URL, {
    createObjectURL: jest.fn((blob: Blob) => {
      lastBlob = blob;
      return 'blob:http://localhost/codes';
    }),
    revokeObjectURL: jest.fn(),
  });
  jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    downloads.push({ name: this.download, blob: lastBlob! });
  });
});
afterEach(async () => {
  await act(() => changeLanguage('fr'));
});

describe('MFA: turning it on (spec §4): QR → 6-digit code → backup codes shown once', () => {
  it('shows the QR code of the otpauth URL and the secret, checks the code, then shows the backup codes', async () => {
    signIn();
    const { calls } = mockApi((c) => {
      if (c.path === '/api/users/me/mfa/setup/') return jsonResponse(200, { secret: SECRET, otpauth_url: OTPAUTH });
      if (c.path === '/api/users/me/mfa/enable/') return jsonResponse(200, { backup_codes: CODES });
      return jsonResponse(200, { ...USER, mfa_enabled: calls.some((x) => x.path.endsWith('/enable/')) });
    });
    renderPage(<ProfilePage />);
    const user = userEvent.setup();
    expect(mfaSection().getByTestId('mfa-status')).toHaveTextContent('Désactivée');
    await user.click(mfaSection().getByRole('button', { name: 'Activer' }));

    const dialog = await screen.findByRole('dialog', { name: 'Activer l’authentification à deux facteurs' });
    const qr = await within(dialog).findByRole('img', {
      name: 'QR code à scanner avec l’application d’authentification',
    });
    expect(qr.tagName.toLowerCase()).toBe('svg');
    expect(qr.querySelectorAll('path').length).toBeGreaterThan(0);
    expect(within(dialog).getByTestId('mfa-secret')).toHaveTextContent('JBSW Y3DP EHPK 3PXP');
    expect(routesOf(calls)).toContain('POST /api/users/me/mfa/setup/');

    await user.click(within(dialog).getByRole('button', { name: 'Suivant' }));
    const code = within(dialog).getByLabelText('Code à 6 chiffres');
    await user.type(code, '12');
    await user.click(within(dialog).getByRole('button', { name: 'Activer' }));
    expect(await within(dialog).findByText('Le code doit contenir exactement 6 chiffres')).toBeInTheDocument();
    expect(routesOf(calls)).not.toContain('POST /api/users/me/mfa/enable/');
    await user.type(code, '3456');
    await user.click(within(dialog).getByRole('button', { name: 'Activer' }));

    const list = await within(dialog).findByRole('list', { name: 'Codes de secours' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(CODES);
    expect(calls.find((c) => c.path === '/api/users/me/mfa/enable/')!.body).toEqual({ totp_code: '123456' });
    expect(noticeTitles()).toContain('success:Authentification à deux facteurs activée avec succès');
    expect(useSession.getState().user?.mfa_enabled).toBe(true);
    // The dialog cannot be dismissed while the codes are shown.
    expect(within(dialog).queryByRole('button', { name: /close|fermer/i })).not.toBeInTheDocument();

    const writeText = jest.spyOn(navigator.clipboard, 'writeText');
    await user.click(within(dialog).getByRole('button', { name: /Copier/ }));
    expect(writeText).toHaveBeenCalledWith(CODES.join('\n'));
    await waitFor(() => expect(noticeTitles()).toContain('success:Codes copiés dans le presse-papiers'));
    await user.click(within(dialog).getByRole('button', { name: /Télécharger/ }));
    expect(downloads).toHaveLength(1);
    expect(downloads[0]!.name).toBe('quarantine-console-backup-codes.txt');
    const file = await downloads[0]!.blob.text();
    for (const c of CODES) expect(file).toContain(c);
    expect(file).toContain('jane@example.com');

    const done = within(dialog).getByRole('button', { name: 'Terminer' });
    expect(done).toBeDisabled();
    await user.click(within(dialog).getByRole('checkbox', { name: 'J’ai enregistré ces codes' }));
    await user.click(done);
    await waitFor(() => expect(screen.queryByTestId('mfa-enable-modal')).not.toBeInTheDocument());
    await waitFor(() => expect(mfaSection().getByTestId('mfa-status')).toHaveTextContent('Activée'));
  });

  /** Turns MFA on with `code`, the enable call answered by `enabled`; gives the dialog. */
  async function submitCode(code: string, enabled: () => Response) {
    signIn();
    mockApi((c) => {
      if (c.path === '/api/users/me/mfa/setup/') return jsonResponse(200, { secret: SECRET, otpauth_url: OTPAUTH });
      if (c.path === '/api/users/me/mfa/enable/') return enabled();
      return jsonResponse(200, USER);
    });
    renderPage(<ProfilePage />);
    const user = userEvent.setup();
    await user.click(mfaSection().getByRole('button', { name: 'Activer' }));
    const dialog = await screen.findByRole('dialog');
    await within(dialog).findByTestId('mfa-qr');
    await user.click(within(dialog).getByRole('button', { name: 'Suivant' }));
    await user.type(within(dialog).getByLabelText('Code à 6 chiffres'), code);
    await user.click(within(dialog).getByRole('button', { name: 'Activer' }));
    return dialog;
  }

  it('a wrong code (400 errors.totp_code) stays on the code step with one error: the field’s, no notice', async () => {
    const dialog = await submitCode('000000', () =>
      jsonResponse(400, { detail: 'The code is not valid.', code: 'invalid_code', errors: { totp_code: 'x' } }),
    );
    expect(await within(dialog).findByText(/Code TOTP invalide/)).toBeInTheDocument();
    // Issue 23: one error, not a field error and a notice saying it again.
    expect(screen.getAllByText(/Code TOTP invalide/)).toHaveLength(1);
    expect(noticeTitles()).toEqual([]);
    expect(screen.getByTestId('mfa-enable-modal')).toHaveAttribute('data-step', 'verify');
    expect(useSession.getState().user?.mfa_enabled).toBe(false);
  });

  it('a server error while verifying the code: the notice "Erreur lors de la vérification du code TOTP", still on the code step', async () => {
    await submitCode('123456', () => jsonResponse(500, { detail: 'unexpected', code: 'internal_error' }));
    await waitFor(() => expect(noticeTitles()).toEqual(['error:Erreur lors de la vérification du code TOTP']));
    expect(screen.getByTestId('mfa-enable-modal')).toHaveAttribute('data-step', 'verify');
  });
});

describe('MFA: turning it off and new backup codes need the password (spec §4)', () => {
  it('off: a wrong password is a field error; the right one turns MFA off', async () => {
    signIn({ ...USER, mfa_enabled: true });
    let wrong = true;
    const { calls } = mockApi((c) => {
      if (c.path === '/api/users/me/mfa/disable/')
        return wrong
          ? jsonResponse(400, {
              detail: 'no',
              code: 'invalid_password',
              errors: { password: 'The password is not correct.' },
            })
          : new Response(null, { status: 204 });
      return jsonResponse(200, { ...USER, mfa_enabled: wrong });
    });
    renderPage(<ProfilePage />);
    const user = userEvent.setup();
    expect(mfaSection().getByTestId('mfa-status')).toHaveTextContent('Activée');
    await user.click(mfaSection().getByRole('button', { name: 'Désactiver' }));
    const dialog = await screen.findByRole('dialog', { name: 'Désactiver l’authentification à deux facteurs' });
    await user.click(within(dialog).getByRole('button', { name: 'Désactiver' }));
    expect(await within(dialog).findByText('Veuillez saisir votre mot de passe')).toBeInTheDocument();
    await user.type(within(dialog).getByLabelText('Mot de passe'), 'nope');
    await user.click(within(dialog).getByRole('button', { name: 'Désactiver' }));
    expect(await within(dialog).findByText('Mot de passe incorrect')).toBeInTheDocument();
    expect(noticeTitles()).toEqual([]);
    expect(useSession.getState().isAuthenticated).toBe(true);

    wrong = false;
    await user.type(within(dialog).getByLabelText('Mot de passe'), '-right');
    await user.click(within(dialog).getByRole('button', { name: 'Désactiver' }));
    await waitFor(() => expect(mfaSection().getByTestId('mfa-status')).toHaveTextContent('Désactivée'));
    expect(calls.filter((c) => c.path === '/api/users/me/mfa/disable/').map((c) => c.body)).toEqual([
      { password: 'nope' },
      { password: 'nope-right' },
    ]);
    expect(noticeTitles()).toContain('success:Authentification à deux facteurs désactivée');
  });

  it('off, when two-factor is mandatory for the account (409 mfa_required): says so, it stays on', async () => {
    signIn({ ...USER, mfa_enabled: true });
    mockApi((c) =>
      c.path === '/api/users/me/mfa/disable/'
        ? jsonResponse(409, { detail: 'mandatory', code: 'mfa_required' })
        : jsonResponse(200, { ...USER, mfa_enabled: true }),
    );
    renderPage(<ProfilePage />);
    const user = userEvent.setup();
    await user.click(mfaSection().getByRole('button', { name: 'Désactiver' }));
    const dialog = await screen.findByRole('dialog', { name: 'Désactiver l’authentification à deux facteurs' });
    await user.type(within(dialog).getByLabelText('Mot de passe'), 'the password');
    await user.click(within(dialog).getByRole('button', { name: 'Désactiver' }));
    await waitFor(() =>
      expect(useNotices.getState().notices.map((n) => n.description)).toContain(
        'L’authentification à deux facteurs est obligatoire pour votre compte\u00a0: elle ne peut pas être désactivée.',
      ),
    );
    expect(mfaSection().getByTestId('mfa-status')).toHaveTextContent('Activée');
  });

  it('new backup codes: the password, then the new codes shown once', async () => {
    signIn({ ...USER, mfa_enabled: true });
    const { calls } = mockApi((c) =>
      c.path === '/api/users/me/mfa/backup-codes/'
        ? jsonResponse(200, { backup_codes: CODES.slice(0, 3) })
        : jsonResponse(200, { ...USER, mfa_enabled: true }),
    );
    renderPage(<ProfilePage />);
    const user = userEvent.setup();
    await user.click(mfaSection().getByRole('button', { name: 'Nouveaux codes de secours' }));
    const dialog = await screen.findByRole('dialog', { name: 'Générer de nouveaux codes de secours' });
    await user.type(within(dialog).getByLabelText('Mot de passe'), 'secret-pass');
    await user.click(within(dialog).getByRole('button', { name: 'Générer' }));
    const list = await within(dialog).findByRole('list', { name: 'Codes de secours' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(CODES.slice(0, 3));
    expect(calls.find((c) => c.path === '/api/users/me/mfa/backup-codes/')!.body).toEqual({ password: 'secret-pass' });
    expect(noticeTitles()).toEqual(['success:Nouveaux codes de secours générés']);
  });
});

describe('MFA: a single sign-on account (no console password) confirms with a code of its authenticator app', () => {
  const SSO_USER = { ...USER, source: 'oidc' as const, mfa_enabled: true };
  const CODE_LABEL = 'Code de l’application d’authentification';

  it('off: a 6-digit code instead of a password; a wrong or used code (invalid_code) is said under the field', async () => {
    signIn(SSO_USER);
    let wrong = true;
    const { calls } = mockApi((c) => {
      if (c.path === '/api/users/me/mfa/disable/')
        return wrong
          ? jsonResponse(400, {
              detail: 'The code is not valid.',
              code: 'invalid_code',
              errors: { totp_code: 'The code is not valid.' },
            })
          : new Response(null, { status: 204 });
      return jsonResponse(200, { ...SSO_USER, mfa_enabled: wrong });
    });
    renderPage(<ProfilePage />);
    const user = userEvent.setup();
    await user.click(mfaSection().getByRole('button', { name: 'Désactiver' }));
    const dialog = await screen.findByRole('dialog', { name: 'Désactiver l’authentification à deux facteurs' });
    // No password asked, anywhere in the dialog.
    expect(within(dialog).queryByLabelText('Mot de passe')).toBeNull();
    expect(dialog.querySelector('input[type="password"]')).toBeNull();
    expect(within(dialog).getByText(/Saisissez le code affiché par votre application/)).toBeInTheDocument();
    const code = within(dialog).getByLabelText(CODE_LABEL);
    expect(code).toHaveAttribute('inputmode', 'numeric');
    expect(code).toHaveAttribute('autocomplete', 'one-time-code');
    expect(code).toHaveAttribute('maxlength', '6');
    expect(code).toHaveAccessibleDescription(
      expect.stringContaining('authentification unique (SSO) de votre organisation') as string,
    );
    expect(code).toHaveAccessibleDescription(expect.stringContaining('demande donc un code') as string);

    // Exactly 6 digits, checked before anything is sent; other characters are dropped as typed.
    await user.click(within(dialog).getByRole('button', { name: 'Désactiver' }));
    expect(await within(dialog).findByText('Le code doit contenir exactement 6 chiffres')).toBeInTheDocument();
    await user.type(code, '12 3');
    await user.click(within(dialog).getByRole('button', { name: 'Désactiver' }));
    expect(await within(dialog).findByText('Le code doit contenir exactement 6 chiffres')).toBeInTheDocument();
    expect(routesOf(calls)).not.toContain('POST /api/users/me/mfa/disable/');
    await user.type(code, 'a456');
    expect(code).toHaveValue('123456');
    await user.click(within(dialog).getByRole('button', { name: 'Désactiver' }));

    const message =
      'Ce code n’est pas valide ou a déjà servi. Attendez le code suivant de votre application puis réessayez.';
    expect(await within(dialog).findByText(message)).toBeInTheDocument();
    await waitFor(() => expect(code).toHaveAccessibleDescription(expect.stringContaining(message) as string));
    expect(code).toHaveAttribute('aria-invalid', 'true');
    // One error, by the field: no notice; still signed in, MFA still on.
    expect(noticeTitles()).toEqual([]);
    expect(useSession.getState().isAuthenticated).toBe(true);
    expect(mfaSection().getByTestId('mfa-status')).toHaveTextContent('Activée');

    wrong = false;
    await user.clear(code);
    await user.type(code, '654321');
    await user.click(within(dialog).getByRole('button', { name: 'Désactiver' }));
    await waitFor(() => expect(mfaSection().getByTestId('mfa-status')).toHaveTextContent('Désactivée'));
    expect(calls.filter((c) => c.path === '/api/users/me/mfa/disable/').map((c) => c.body)).toEqual([
      { totp_code: '123456' },
      { totp_code: '654321' },
    ]);
    expect(noticeTitles()).toContain('success:Authentification à deux facteurs désactivée');
  });

  it('off: a code the API finds malformed (validation_error errors.totp_code) is said under the field too', async () => {
    signIn(SSO_USER);
    mockApi((c) =>
      c.path === '/api/users/me/mfa/disable/'
        ? jsonResponse(400, {
            detail: 'Enter the 6-digit code',
            code: 'validation_error',
            errors: { totp_code: 'Enter the 6-digit code' },
          })
        : jsonResponse(200, SSO_USER),
    );
    renderPage(<ProfilePage />);
    const user = userEvent.setup();
    await user.click(mfaSection().getByRole('button', { name: 'Désactiver' }));
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText(CODE_LABEL), '123456');
    await user.click(within(dialog).getByRole('button', { name: 'Désactiver' }));
    expect(await within(dialog).findByText('Le code doit contenir exactement 6 chiffres')).toBeInTheDocument();
    expect(noticeTitles()).toEqual([]);
  });

  it('new backup codes: the code is sent as totp_code, then the new codes are shown once (in English too)', async () => {
    await act(() => changeLanguage('en'));
    signIn(SSO_USER);
    const { calls } = mockApi((c) =>
      c.path === '/api/users/me/mfa/backup-codes/'
        ? jsonResponse(200, { backup_codes: CODES.slice(0, 3) })
        : jsonResponse(200, SSO_USER),
    );
    renderPage(<ProfilePage />);
    const user = userEvent.setup();
    await user.click(mfaSection().getByRole('button', { name: 'New backup codes' }));
    const dialog = await screen.findByRole('dialog', { name: 'Generate new backup codes' });
    expect(within(dialog).queryByLabelText('Password')).toBeNull();
    expect(dialog.querySelector('input[type="password"]')).toBeNull();
    expect(within(dialog).getByText(/Enter the code shown by your authenticator app to confirm/)).toBeInTheDocument();
    const code = within(dialog).getByLabelText('Authenticator app code');
    expect(code).toHaveAccessibleDescription(
      expect.stringContaining('You sign in with your organisation’s single sign-on (SSO)') as string,
    );
    await user.type(code, '246810');
    await user.click(within(dialog).getByRole('button', { name: 'Generate' }));
    const list = await within(dialog).findByRole('list', { name: 'Backup codes' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(CODES.slice(0, 3));
    expect(calls.filter((c) => c.path === '/api/users/me/mfa/backup-codes/').map((c) => c.body)).toEqual([
      { totp_code: '246810' },
    ]);
    expect(noticeTitles()).toEqual(['success:New backup codes generated']);
  });
});

describe('MFA: a local or directory account still confirms with its password', () => {
  it('local: the password field, no code field, sends { password }', async () => {
    signIn({ ...USER, mfa_enabled: true });
    const { calls } = mockApi((c) =>
      c.path === '/api/users/me/mfa/disable/'
        ? new Response(null, { status: 204 })
        : jsonResponse(200, { ...USER, mfa_enabled: !calls.some((x) => x.path === '/api/users/me/mfa/disable/') }),
    );
    renderPage(<ProfilePage />);
    const user = userEvent.setup();
    await user.click(mfaSection().getByRole('button', { name: 'Désactiver' }));
    const dialog = await screen.findByRole('dialog', { name: 'Désactiver l’authentification à deux facteurs' });
    expect(within(dialog).queryByLabelText('Code de l’application d’authentification')).toBeNull();
    expect(within(dialog).getByText(/^Saisissez votre mot de passe pour confirmer/)).toBeInTheDocument();
    const password = within(dialog).getByLabelText('Mot de passe');
    expect(password).not.toHaveAccessibleDescription(expect.stringContaining('annuaire') as string);
    await user.type(password, 'local-secret');
    await user.click(within(dialog).getByRole('button', { name: 'Désactiver' }));
    await waitFor(() => expect(mfaSection().getByTestId('mfa-status')).toHaveTextContent('Désactivée'));
    expect(calls.filter((c) => c.path === '/api/users/me/mfa/disable/').map((c) => c.body)).toEqual([
      { password: 'local-secret' },
    ]);
  });

  it('directory: the directory’s password, as the field’s help says; sends { password }', async () => {
    const LDAP_USER = { ...USER, source: 'ldap' as const, mfa_enabled: true };
    signIn(LDAP_USER);
    const { calls } = mockApi((c) =>
      c.path === '/api/users/me/mfa/backup-codes/'
        ? jsonResponse(200, { backup_codes: CODES.slice(0, 2) })
        : jsonResponse(200, LDAP_USER),
    );
    renderPage(<ProfilePage />);
    const user = userEvent.setup();
    await user.click(mfaSection().getByRole('button', { name: 'Nouveaux codes de secours' }));
    const dialog = await screen.findByRole('dialog', { name: 'Générer de nouveaux codes de secours' });
    expect(within(dialog).queryByLabelText('Code de l’application d’authentification')).toBeNull();
    const password = within(dialog).getByLabelText('Mot de passe');
    expect(password).toHaveAccessibleDescription(
      'Le mot de passe de l’annuaire de votre organisation, celui avec lequel vous vous connectez.',
    );
    await user.type(password, 'directory-secret');
    await user.click(within(dialog).getByRole('button', { name: 'Générer' }));
    await within(dialog).findByRole('list', { name: 'Codes de secours' });
    expect(calls.filter((c) => c.path === '/api/users/me/mfa/backup-codes/').map((c) => c.body)).toEqual([
      { password: 'directory-secret' },
    ]);
  });
});
