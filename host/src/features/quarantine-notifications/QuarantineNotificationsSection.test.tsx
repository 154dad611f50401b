import { resetSessionForTests } from '@qc/auth';
import type { CurrentUser, NotificationSettings } from '@qc/contracts';
import { useNotices } from '@qc/ui-state';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { jsonResponse, mockApi, renderPage, routesOf, signIn, USER, type ApiCall } from '../../test-utils';
import SettingsPage, { SETTINGS_SECTIONS } from '../settings/Page';

const ONLY = SETTINGS_SECTIONS.filter((s) => s.id === 'notifications');
const SETTINGS_PATH = '/api/users/me/notifications/';
const DEFAULTS_PATH = '/api/notifications/defaults/';

const SAVED: NotificationSettings = {
  enabled: true,
  frequency: 'daily',
  send_time: '08:00',
  time_zone: 'Europe/Paris',
  language: 'fr',
  domain_digest: false,
  is_default: false,
  last_sent: null,
  last_attempt_failed: false,
  last_error: null,
};

/** type:title — description, with French non-breaking spaces read as spaces. */
const notices = () =>
  useNotices
    .getState()
    .notices.map((n) =>
      `${n.type}:${n.title}${n.description ? ` — ${String(n.description)}` : ''}`.replace(/\u00a0/g, ' '),
    );
const as = (role: CurrentUser['role']) =>
  signIn({ ...USER, role, domain: role === 'domain_admin' ? { id: 'd1', name: 'example.com' } : null });

/** The api: GET answers `settings`, PUT echoes (or `put`), the rest as given. */
function api(settings: NotificationSettings, more: (c: ApiCall) => Response | undefined = () => undefined) {
  return mockApi((c) => {
    const other = more(c);
    if (other) return other;
    if (c.path === SETTINGS_PATH && c.method === 'GET') return jsonResponse(200, settings);
    if (c.path === SETTINGS_PATH && c.method === 'PUT')
      return jsonResponse(200, { ...settings, ...(c.body as object), is_default: false });
    if (c.path === DEFAULTS_PATH && c.method === 'GET')
      return jsonResponse(200, {
        enabled: true,
        frequency: 'daily',
        send_time: '08:00',
        time_zone: 'Europe/Paris',
        language: 'fr',
      });
    if (c.path === DEFAULTS_PATH && c.method === 'PUT') return jsonResponse(200, c.body);
    return jsonResponse(500);
  });
}

const region = () => screen.getByRole('region', { name: 'Notifications de quarantaine' });
const ownForm = () => screen.getByTestId('notifications-form');
const choose = (user: ReturnType<typeof userEvent.setup>, scope: HTMLElement, name: string) =>
  user.click(within(scope).getByRole('radio', { name }).closest('label')!);

beforeEach(() => {
  localStorage.clear();
  resetSessionForTests();
  useNotices.getState().clear();
  jest.restoreAllMocks();
});

describe('/settings: quarantine notifications (spec §3, issue 20)', () => {
  it('loads the saved settings: switch, frequency, time, zone, "jamais" for last sent', async () => {
    as('user');
    const { calls } = api(SAVED);
    renderPage(<SettingsPage sections={ONLY} />);
    expect(await within(region()).findByRole('switch', { name: 'Recevoir les notifications' })).toBeChecked();
    expect(within(ownForm()).getByRole('radio', { name: 'Quotidienne' })).toBeChecked();
    expect(screen.getByLabelText('Heure d’envoi')).toHaveValue('08:00');
    expect(screen.getByTestId('notifications-time-zone')).toHaveTextContent('Europe/Paris');
    expect(screen.getByTestId('notifications-last-sent')).toHaveTextContent('jamais');
    expect(screen.queryByTestId('notifications-last-failed')).not.toBeInTheDocument();
    // Not a domain_admin, not an admin: neither the domain switch nor the defaults.
    expect(screen.queryByRole('switch', { name: /récapitulatif de mon domaine/ })).not.toBeInTheDocument();
    expect(screen.queryByTestId('notification-defaults')).not.toBeInTheDocument();
    expect(routesOf(calls)).toEqual([`GET ${SETTINGS_PATH}`]);
  });

  it('still the defaults: the browser’s time zone is proposed (and saved only on Save)', async () => {
    as('user');
    const real = Intl.DateTimeFormat.prototype.resolvedOptions;
    jest.spyOn(Intl.DateTimeFormat.prototype, 'resolvedOptions').mockImplementation(function (
      this: Intl.DateTimeFormat,
    ) {
      return { ...real.call(this), timeZone: 'America/New_York' };
    });
    const { calls } = api({ ...SAVED, is_default: true });
    renderPage(<SettingsPage sections={ONLY} />);
    expect(await screen.findByTestId('notifications-time-zone')).toHaveTextContent('America/New York');
    expect(screen.getByText(/Proposé d’après votre navigateur/)).toBeInTheDocument();
    expect(calls.filter((c) => c.method !== 'GET')).toEqual([]);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Enregistrer' }));
    await waitFor(() =>
      expect(calls.find((c) => c.method === 'PUT')?.body).toMatchObject({ time_zone: 'America/New_York' }),
    );
  });

  it('a failed last attempt is shown with the relay’s answer; last sent in the user’s language', async () => {
    as('user');
    api({
      ...SAVED,
      last_sent: '2026-11-20T07:00:00.000Z',
      last_attempt_failed: true,
      last_error: '550 5.7.1 Relaying denied',
    });
    renderPage(<SettingsPage sections={ONLY} />);
    const warning = await screen.findByTestId('notifications-last-failed');
    expect(warning).toHaveTextContent('La dernière tentative d’envoi a échoué');
    expect(warning).toHaveTextContent('Réponse du relais : 550 5.7.1 Relaying denied');
    expect(screen.getByTestId('notifications-last-sent')).toHaveTextContent(/20\/11\/2026/);
  });

  it('Save: PUT every field (no domain_digest for a user), notice "Paramètres enregistrés"', async () => {
    as('user');
    const { calls } = api(SAVED);
    renderPage(<SettingsPage sections={ONLY} />);
    const user = userEvent.setup();
    await choose(user, await screen.findByTestId('notifications-form'), 'Hebdomadaire');
    expect(screen.getByText('Chaque lundi à l’heure choisie.')).toBeInTheDocument();
    await user.clear(screen.getByLabelText('Heure d’envoi'));
    await user.type(screen.getByLabelText('Heure d’envoi'), '07:30');
    await user.click(screen.getByRole('switch', { name: 'Recevoir les notifications' }));
    expect(screen.getByText(/Les notifications sont désactivées/)).toBeInTheDocument();
    await choose(user, ownForm(), 'English');
    await user.click(screen.getByRole('button', { name: 'Enregistrer' }));
    await waitFor(() => expect(notices()).toEqual(['success:Paramètres enregistrés']));
    expect(calls.find((c) => c.method === 'PUT')).toMatchObject({
      path: SETTINGS_PATH,
      body: { enabled: false, frequency: 'weekly', send_time: '07:30', time_zone: 'Europe/Paris', language: 'en' },
    });
  });

  it('a wrong time is refused in the form: nothing is sent', async () => {
    as('user');
    const { calls } = api(SAVED);
    renderPage(<SettingsPage sections={ONLY} />);
    const user = userEvent.setup();
    const time = await screen.findByLabelText('Heure d’envoi');
    await user.clear(time);
    await user.type(time, '25:00');
    await user.click(screen.getByRole('button', { name: 'Enregistrer' }));
    expect(await screen.findByText('Heure invalide (HH:MM, de 00:00 à 23:59)')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'PUT')).toEqual([]);
  });

  it('the API’s 400 field errors show on their fields, in French; an error notice', async () => {
    as('user');
    api(SAVED, (c) =>
      c.method === 'PUT'
        ? jsonResponse(400, {
            detail: 'Validation failed',
            code: 'validation_error',
            errors: { time_zone: 'Unknown time zone', frequency: 'Invalid enum value' },
          })
        : undefined,
    );
    renderPage(<SettingsPage sections={ONLY} />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Enregistrer' }));
    expect(await screen.findByText('Fuseau horaire inconnu')).toBeInTheDocument();
    expect(screen.getByText('Fréquence inconnue')).toBeInTheDocument();
    expect(screen.queryByText('Unknown time zone')).not.toBeInTheDocument();
    expect(notices()).toEqual(['error:Erreur lors de l’enregistrement des paramètres']);
  });

  it('a domain_admin has "also send me my domain’s digest", and it is sent', async () => {
    as('domain_admin');
    const { calls } = api(SAVED);
    renderPage(<SettingsPage sections={ONLY} />);
    const user = userEvent.setup();
    const domain = await screen.findByRole('switch', { name: 'M’envoyer aussi le récapitulatif de mon domaine' });
    expect(domain).not.toBeChecked();
    await user.click(domain);
    await user.click(screen.getByRole('button', { name: 'Enregistrer' }));
    await waitFor(() => expect(notices()).toEqual(['success:Paramètres enregistrés']));
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({
      enabled: true,
      frequency: 'daily',
      send_time: '08:00',
      time_zone: 'Europe/Paris',
      language: 'fr',
      domain_digest: true,
    });
    expect(screen.queryByTestId('notification-defaults')).not.toBeInTheDocument();
    expect(routesOf(calls)).not.toContain(`GET ${DEFAULTS_PATH}`);
  });

  it('an admin also edits the defaults for all users (their own Save), not the domain switch', async () => {
    as('admin');
    const { calls } = api(SAVED);
    renderPage(<SettingsPage sections={ONLY} />);
    const user = userEvent.setup();
    const defaults = await screen.findByRole('region', { name: 'Réglages par défaut pour tous les utilisateurs' });
    const form = await within(defaults).findByTestId('notification-defaults-form');
    expect(screen.queryByRole('switch', { name: /récapitulatif de mon domaine/ })).not.toBeInTheDocument();
    await choose(user, form, 'Mensuelle');
    const time = within(form).getByLabelText('Heure d’envoi');
    await user.clear(time);
    await user.type(time, '06:15');
    await user.click(within(defaults).getByRole('button', { name: 'Enregistrer les réglages par défaut' }));
    await waitFor(() => expect(notices()).toEqual(['success:Réglages par défaut enregistrés']));
    const put = calls.find((c) => c.method === 'PUT')!;
    expect(put.path).toBe(DEFAULTS_PATH);
    expect(put.body).toEqual({
      enabled: true,
      frequency: 'monthly',
      send_time: '06:15',
      time_zone: 'Europe/Paris',
      language: 'fr',
    });
    // One's own settings were not sent.
    expect(calls.filter((c) => c.method === 'PUT' && c.path === SETTINGS_PATH)).toEqual([]);
  });

  it.each([
    [
      200,
      { sent: true, count: 3, relay_response: '250 2.0.0 Ok' },
      'success:Récapitulatif de test envoyé : 3 messages en attente',
    ],
    [
      200,
      { sent: false, count: 0, relay_response: null },
      'info:Aucun message en attente : aucun récapitulatif n’a été envoyé.',
    ],
    [
      429,
      { detail: 'slow down', code: 'rate_limited' },
      'error:Le récapitulatif de test n’a pas pu être envoyé — Trop de récapitulatifs de test demandés. Réessayez dans 60 s.',
    ],
    [
      502,
      { detail: 'x', code: 'relay_refused', relay_response: '554 5.7.1 Rejected' },
      'error:Le récapitulatif de test n’a pas pu être envoyé — Le relais de messagerie a refusé le récapitulatif. Réponse du relais : 554 5.7.1 Rejected',
    ],
    [
      503,
      { detail: 'x', code: 'relay_not_configured' },
      'error:Le récapitulatif de test n’a pas pu être envoyé — Aucun relais de messagerie n’est configuré : la console ne peut pas envoyer d’e-mails.',
    ],
  ])('"Send me a test digest": %i %j', async (status, body, notice) => {
    as('user');
    const { calls } = api(SAVED, (c) =>
      c.method === 'POST' ? jsonResponse(status, body, status === 429 ? { 'Retry-After': '60' } : {}) : undefined,
    );
    renderPage(<SettingsPage sections={ONLY} />);
    await userEvent.setup().click(await screen.findByRole('button', { name: 'M’envoyer un récapitulatif de test' }));
    await waitFor(() => expect(notices()).toEqual([notice]));
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.path)).toEqual([`${SETTINGS_PATH}test/`]);
    // Its result may change "last sent": the settings are read again.
    await waitFor(() => expect(calls.filter((c) => c.method === 'GET')).toHaveLength(2));
  });

  it('cannot be loaded: said, with Retry that reads them again', async () => {
    as('user');
    let fail = true;
    const { calls } = api(SAVED, (c) =>
      c.method === 'GET' && fail ? jsonResponse(503, { detail: 'x', code: 'database_unavailable' }) : undefined,
    );
    renderPage(<SettingsPage sections={ONLY} />);
    const error = await screen.findByTestId('page-error');
    expect(error).toHaveTextContent('Erreur lors du chargement des paramètres de notification');
    fail = false;
    await userEvent.setup().click(within(error).getByRole('button', { name: 'Réessayer' }));
    expect(await screen.findByRole('switch', { name: 'Recevoir les notifications' })).toBeChecked();
    expect(calls).toHaveLength(2);
  });
});
