import { changeLanguage } from '@qc/i18n';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { jsonResponse, mockApi, onPhoneScreen, renderDirectory, signInAs, type ApiCall } from '../../test-utils';
import type { DirectorySettings, DirectoryTestResult } from './directory.types';

const SETTINGS: DirectorySettings = {
  enabled: true,
  url: 'ldaps://ldap.a.example:636',
  starttls: false,
  ca_file: '/etc/ssl/ldap-ca.pem',
  bind_dn: 'cn=qc,ou=services,dc=a,dc=example',
  bind_password_set: true,
  user_base: 'ou=people,dc=a,dc=example',
  user_filter: '(&(objectClass=inetOrgPerson)(mail={login}))',
  alias_attrs: ['mailAlternateAddress', 'proxyAddresses'],
  group_base: null,
  admin_group: 'cn=qc-admins,ou=groups,dc=a,dc=example',
  domain_admin_group: 'cn=qc-domain-admins,ou=groups,dc=a,dc=example',
  timeout_ms: 3000,
  pool_size: 4,
};

const RESULT: DirectoryTestResult = {
  outcome: 'create',
  refusal: null,
  dn: 'uid=jdoe,ou=people,dc=a,dc=example',
  primary: 'jane@a.example',
  addresses: [
    { address: 'jane@a.example', kept: true, reason: null, owner: null },
    { address: 'j.doe@a.example', kept: true, reason: null, owner: null },
    { address: 'jane@elsewhere.example', kept: false, reason: 'outside_domains', owner: null },
    { address: 'sales@a.example', kept: false, reason: 'taken', owner: 'bob@a.example' },
  ],
  groups: ['cn=qc-domain-admins,ou=groups,dc=a,dc=example', 'cn=staff,ou=groups,dc=a,dc=example'],
  role: 'domain_admin',
  domain: 'a.example',
  disabled: false,
  user_id: null,
};

const TEST_PATH = '/api/admin/directory/test/';
const tests = (calls: ApiCall[]) => calls.filter((c) => c.method === 'POST' && c.path === TEST_PATH);

/** GET answers `settings` (a secret the API must never send is slipped in: it must not show); POST `test`. */
function api(
  settings: DirectorySettings | { status: number; body: unknown } = SETTINGS,
  test: (call: ApiCall) => Response = () => jsonResponse(200, RESULT),
) {
  return mockApi((call) => {
    if (call.path === '/api/admin/directory/' && call.method === 'GET')
      return 'status' in settings
        ? jsonResponse(settings.status, settings.body)
        : jsonResponse(200, { ...settings, bind_password: 'hunter2-secret' });
    if (call.path === TEST_PATH && call.method === 'POST') return test(call);
    return jsonResponse(404, { detail: 'Not found.', code: 'not_found' });
  });
}

async function runTest(login: string) {
  const user = userEvent.setup({ delay: null });
  const field = await screen.findByLabelText('Identifiant de connexion (e-mail)');
  await user.clear(field);
  await user.type(field, login);
  await user.click(screen.getByRole('button', { name: 'Tester' }));
  return user;
}

const valueOf = (label: string) => {
  const th = within(screen.getByTestId('directory-settings')).getByText(label).closest('th')!;
  return th.nextElementSibling!.textContent;
};

beforeEach(() => {
  jest.restoreAllMocks();
  signInAs('admin');
});
afterEach(() => changeLanguage('fr'));

describe('Admin → Directory: the settings in force', () => {
  it('shows each setting, the bind password only as set / not set, never its value', async () => {
    api();
    renderDirectory();
    expect(await screen.findByRole('heading', { level: 1, name: 'Annuaire' })).toBeInTheDocument();
    await screen.findByTestId('directory-settings');
    expect(valueOf('Adresse du serveur')).toBe('ldaps://ldap.a.example:636');
    expect(valueOf('StartTLS')).toBe('Non');
    expect(valueOf('Fichier d’autorité (CA)')).toBe('/etc/ssl/ldap-ca.pem');
    expect(valueOf('Compte de service (bind DN)')).toBe('cn=qc,ou=services,dc=a,dc=example');
    expect(valueOf('Mot de passe du compte de service')).toBe('Défini');
    expect(valueOf('Filtre des personnes')).toBe('(&(objectClass=inetOrgPerson)(mail={login}))');
    expect(valueOf('Attributs des alias')).toBe('mailAlternateAddressproxyAddresses');
    expect(valueOf('Base de recherche des groupes')).toBe('—');
    expect(valueOf('Groupe des administrateurs')).toBe('cn=qc-admins,ou=groups,dc=a,dc=example');
    expect(valueOf('Délai d’attente')).toBe('3000\u00a0ms');
    expect(valueOf('Connexions simultanées')).toBe('4');
    expect(document.body).not.toHaveTextContent('hunter2-secret');
    expect(screen.getByText(/Les secrets ne sont jamais affichés/)).toBeInTheDocument();
  });

  it('no bind password: "Non défini"', async () => {
    api({ ...SETTINGS, bind_password_set: false, bind_dn: null });
    renderDirectory();
    await screen.findByTestId('directory-settings');
    expect(valueOf('Mot de passe du compte de service')).toBe('Non défini');
    expect(valueOf('Compte de service (bind DN)')).toBe('—');
  });

  it('not configured: an empty state naming the QC_LDAP_* variables and the README section, no test', async () => {
    api({
      ...SETTINGS,
      enabled: false,
      url: null,
      bind_dn: null,
      bind_password_set: false,
      user_base: null,
      user_filter: null,
      alias_attrs: [],
      admin_group: null,
      domain_admin_group: null,
    });
    renderDirectory();
    const empty = await screen.findByTestId('directory-disabled');
    expect(within(empty).getByRole('heading', { level: 2 })).toHaveTextContent(
      'Connexion par l’annuaire non configurée',
    );
    expect(empty).toHaveTextContent('Seuls les comptes locaux peuvent se connecter');
    expect(empty).toHaveTextContent('QC_LDAP_URL, QC_LDAP_BIND_DN, QC_LDAP_BIND_PASSWORD');
    expect(empty).toHaveTextContent('« Directory sign-in » du README');
    expect(screen.queryByTestId('directory-settings')).toBeNull();
    expect(screen.queryByTestId('directory-test')).toBeNull();
  });

  it('an error loading them: said, with Retry, which loads them', async () => {
    let fail = true;
    mockApi((call) =>
      call.path === '/api/admin/directory/' && fail
        ? jsonResponse(500, { detail: 'boom', code: 'internal_error' })
        : jsonResponse(200, SETTINGS),
    );
    renderDirectory();
    expect(await screen.findByText('Erreur lors du chargement des réglages de l’annuaire')).toBeInTheDocument();
    expect(screen.getByText('Erreur du serveur. Réessayez plus tard.')).toBeInTheDocument();
    fail = false;
    await userEvent.setup({ delay: null }).click(screen.getByRole('button', { name: 'Réessayer' }));
    expect(await screen.findByTestId('directory-settings')).toBeInTheDocument();
  });

  it('loading: a spinner until the settings come', async () => {
    let answer: (r: Response) => void = () => undefined;
    mockApi(() => new Promise<Response>((resolve) => (answer = resolve)));
    renderDirectory();
    expect(await screen.findByTestId('page-loading')).toBeInTheDocument();
    answer(jsonResponse(200, SETTINGS));
    expect(await screen.findByTestId('directory-settings')).toBeInTheDocument();
    expect(screen.queryByTestId('page-loading')).toBeNull();
  });
});

describe('Admin → Directory: the test of one login', () => {
  it('would create: DN, primary, each address kept or not and why, groups, role, domain', async () => {
    const { calls } = api();
    renderDirectory();
    await runTest(' jane@a.example ');
    const result = await screen.findByTestId('directory-result');
    expect(tests(calls).map((c) => c.body)).toEqual([{ login: 'jane@a.example' }]);
    expect(within(result).getByRole('heading', { level: 3 })).toHaveTextContent('Résultat pour jane@a.example');
    expect(within(result).getByTestId('directory-result-outcome')).toHaveTextContent(
      'Le compte serait créé à sa première connexion.',
    );
    const details = within(result).getByTestId('directory-result-details');
    expect(details).toHaveTextContent('uid=jdoe,ou=people,dc=a,dc=example');
    expect(details).toHaveTextContent('Administrateur de domaine');
    const addresses = within(result).getAllByTestId('directory-result-address');
    expect(addresses.map((a) => a.textContent)).toEqual([
      'jane@a.exampleConservée',
      'j.doe@a.exampleConservée',
      'jane@elsewhere.exampleÉcartéehors des domaines de la console',
      'sales@a.exampleÉcartéeappartient à bob@a.example',
    ]);
    expect(within(result).getByTestId('directory-result-groups')).toHaveTextContent(
      'cn=qc-domain-admins,ou=groups,dc=a,dc=examplecn=staff,ou=groups,dc=a,dc=example',
    );
    expect(within(result).queryByTestId('directory-result-account')).toBeNull();
  });

  it('would update: a link to the account; refused: the refusal in words; not found: said, no details', async () => {
    let answer: DirectoryTestResult = { ...RESULT, outcome: 'update', user_id: 'u7', role: 'user' };
    api(SETTINGS, () => jsonResponse(200, answer));
    renderDirectory();
    await runTest('jane@a.example');
    expect(await screen.findByTestId('directory-result-outcome')).toHaveTextContent(
      'Le compte existant serait mis à jour à sa prochaine connexion.',
    );
    expect(screen.getByRole('link', { name: 'Voir le compte' })).toHaveAttribute('href', '/users/u7');

    answer = {
      ...RESULT,
      outcome: 'refused',
      refusal: 'directory_no_domain',
      addresses: [{ address: 'x@elsewhere.example', kept: false, reason: 'outside_domains', owner: null }],
      role: null,
      domain: null,
    };
    await runTest('x@elsewhere.example');
    await waitFor(() =>
      expect(screen.getByTestId('directory-result-outcome')).toHaveTextContent(
        'La connexion serait refusée : aucune de ses adresses n’appartient à un domaine de la console.',
      ),
    );
    expect(screen.getByTestId('directory-result')).toHaveAttribute('data-outcome', 'refused');

    answer = { ...RESULT, outcome: 'refused', refusal: 'account_disabled', disabled: true };
    await runTest('gone@a.example');
    await waitFor(() =>
      expect(screen.getByTestId('directory-result-outcome')).toHaveTextContent(
        'son compte est désactivé dans l’annuaire',
      ),
    );

    answer = {
      outcome: 'not_found',
      refusal: null,
      dn: null,
      primary: null,
      addresses: [],
      groups: [],
      role: null,
      domain: null,
      disabled: false,
      user_id: null,
    };
    await runTest('nobody@a.example');
    await waitFor(() =>
      expect(screen.getByTestId('directory-result-outcome')).toHaveTextContent(
        'Personne dans l’annuaire ne correspond à cet identifiant.',
      ),
    );
    expect(screen.queryByTestId('directory-result-details')).toBeNull();
  });

  it('checks the login before sending: required, an e-mail', async () => {
    const { calls } = api();
    renderDirectory();
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByRole('button', { name: 'Tester' }));
    expect(await screen.findByText('Saisissez l’identifiant à tester')).toBeInTheDocument();
    await runTest('not-an-address');
    expect(await screen.findByText('Format d’e-mail invalide')).toBeInTheDocument();
    expect(tests(calls)).toEqual([]);
  });

  it.each([
    [
      503,
      'directory_unavailable',
      'L’annuaire est injoignable\u00a0; réessayez dans quelques instants. Les comptes locaux fonctionnent toujours.',
    ],
    [
      409,
      'directory_not_configured',
      'La connexion par l’annuaire n’est pas configurée (QC_LDAP_URL n’est pas défini).',
    ],
    [500, 'internal_error', 'Erreur du serveur. Réessayez plus tard.'],
  ])('the API’s refusal %i %s is said above the result (no result shown)', async (status, code, text) => {
    text = text.replace(/\u00a0/g, ' '); // toHaveTextContent reads every space as a plain one
    api(SETTINGS, () => jsonResponse(status, { detail: 'English detail', code }));
    renderDirectory();
    await runTest('jane@a.example');
    expect(await screen.findByTestId('form-error')).toHaveTextContent(text);
    expect(screen.queryByTestId('directory-result')).toBeNull();
    expect(document.body).not.toHaveTextContent('English detail');
  });

  it('a login the API refuses (400 validation_error): on the field', async () => {
    api(SETTINGS, () =>
      jsonResponse(400, {
        detail: 'The request is not valid.',
        code: 'validation_error',
        errors: { login: 'Invalid' },
      }),
    );
    renderDirectory();
    await runTest('jane@a.example');
    expect(await screen.findByText('Format d’e-mail invalide')).toBeInTheDocument();
    expect(screen.queryByTestId('form-error')).toBeNull();
  });

  it('in English, and on a phone (settings stacked label over value)', async () => {
    await changeLanguage('en');
    const restore = onPhoneScreen();
    try {
      api();
      renderDirectory();
      expect(await screen.findByRole('heading', { level: 1, name: 'Directory' })).toBeInTheDocument();
      const list = await screen.findByTestId('directory-settings-list');
      expect(list.querySelector('.ant-descriptions-item-label')?.closest('tr')?.nextElementSibling).toBeTruthy();
      expect(within(screen.getByTestId('directory-settings')).getByText('Set')).toBeInTheDocument();
      await userEvent.setup({ delay: null }).type(screen.getByLabelText('Sign-in login (e-mail)'), 'jane@a.example');
      await userEvent.setup({ delay: null }).click(screen.getByRole('button', { name: 'Test' }));
      expect(await screen.findByTestId('directory-result-outcome')).toHaveTextContent(
        'The account would be created at their first sign-in.',
      );
      expect(screen.getAllByTestId('directory-result-address')[3]).toHaveTextContent('owned by bob@a.example');
    } finally {
      restore();
    }
  });
});
