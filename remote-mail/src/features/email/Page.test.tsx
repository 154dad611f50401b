import { useNotices } from '@qc/ui-state';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  currentLocation,
  emailDetail,
  jsonResponse,
  listItem,
  mockApi,
  noticeOf,
  noticeTitles,
  onPhoneScreen,
  renderQuarantine,
  type ApiCall,
} from '../../test-utils';
import type { QuarantineDetail } from '../quarantine/quarantine.types';

const user = () => userEvent.setup({ delay: null });
const DETAIL = '/api/quarantine/m1/';
const RAW = '/api/quarantine/m1/raw/';
const RELEASE = '/api/quarantine/m1/release/';
const of = (calls: ApiCall[], method: string, path: string) =>
  calls.filter((c) => c.method === method && c.path === path);

/** The detail of m1 (mutable per test), a list, and per-test answers for the actions. */
function serve(detail: QuarantineDetail, actions: Partial<Record<string, (call: ApiCall) => Response>> = {}) {
  return mockApi((call) => {
    const custom = actions[`${call.method} ${call.path}`];
    if (custom) return custom(call);
    if (call.method === 'GET' && call.path === DETAIL) return jsonResponse(200, detail);
    if (call.method === 'GET' && call.path === '/api/quarantine/')
      return jsonResponse(200, { results: [listItem()], next_cursor: null });
    return jsonResponse(404, { detail: 'Not found', code: 'not_found' });
  });
}

async function openDetail(path = '/mail/m1') {
  const rendered = renderQuarantine(path);
  await screen.findByTestId('email-detail');
  return rendered;
}

const frame = () => screen.getByTestId('email-preview-frame') as HTMLIFrameElement;

beforeEach(() => {
  localStorage.clear();
  jest.restoreAllMocks();
  useNotices.getState().clear();
});

describe('e-mail detail (mail/{id})', () => {
  it('shows every field as text, the symbols by score, defanged URLs and attachment names as text', async () => {
    serve(emailDetail());
    await openDetail();
    expect(screen.getByRole('heading', { level: 1, name: 'You won a prize' })).toBeInTheDocument();
    expect(document.title).toBe('You won a prize · Quarantine Console'); // tabs of several e-mails differ
    const field = (key: string) => screen.getByTestId(`email-field-${key}`);
    expect(field('sender')).toHaveTextContent('promo@spam.example');
    expect(field('message_id')).toHaveTextContent('<abc.123@spam.example>');
    expect(field('ip_address')).toHaveTextContent('203.0.113.7');
    expect(field('helo')).toHaveTextContent('mx.spam.example');
    expect(field('country')).toHaveTextContent('FR');
    expect(field('dkim')).toHaveTextContent('fail');
    expect(field('spf')).toHaveTextContent('softfail');
    expect(field('sender_domain')).toHaveTextContent('spam.example');
    expect(field('mime_user')).toHaveTextContent('promo');
    expect(field('size')).toHaveTextContent('12,5 ko');
    expect(field('required_score')).toHaveTextContent('15,0');
    expect(within(field('score')).getByLabelText('Score 12,5 (risque élevé)')).toBeInTheDocument();
    expect(field('action')).toHaveTextContent('Quarantaine');
    expect(field('last_delivery')).toHaveTextContent('—');
    const recipients = screen.getByTestId('email-recipients');
    expect(recipients).toHaveTextContent('jane@example.com En attente');
    expect(recipients).toHaveTextContent('bob@example.com Libéré');

    // Symbols: highest score first; the score header sorts.
    const scores = () => screen.getAllByTestId('email-symbol-score').map((s) => s.textContent);
    expect(scores()).toEqual(['7,5', '5,1', '1,0', '-0,5']);
    const symbols = screen.getByTestId('email-symbols');
    expect(symbols).toHaveTextContent('URIBL_BLACK');
    expect(symbols).toHaveTextContent('Listed in URIBL black');
    expect(symbols).toHaveTextContent('evil.example.com');
    expect(symbols).toHaveTextContent('statistics');
    expect(symbols).toHaveTextContent('dkim, policies'); // every group of a symbol (spec §3)
    await user().click(within(symbols).getAllByText('Score')[0]!);
    await waitFor(() => expect(scores()).toEqual(['-0,5', '1,0', '5,1', '7,5']));

    // Detected URLs: readable, never links.
    const urls = screen.getByTestId('email-urls');
    expect(urls).toHaveTextContent('hxxps://evil[.]example[.]com/login.php');
    expect(within(urls).queryByRole('link')).toBeNull();
    expect(urls.querySelector('a')).toBeNull();
    // An RLO trick in a file name is made visible.
    expect(screen.getByTestId('email-attachment-name')).toHaveTextContent('invoice[U+202E]fdp.exe');
    expect(screen.getByTestId('email-attachments')).toHaveTextContent('2 ko');
  });

  it('direction tricks are made visible in the page header’s sender and in the symbols’ details', async () => {
    serve(
      emailDetail({
        sender: 'ceo@bank.example\u202Elive.evil@x',
        symbols: [
          {
            symbol: 'FROM_NEQ_ENVFROM',
            score: 1,
            description: 'From \u202Etxt.exe',
            options: ['pay\u202Elap@x.example'],
            group: 'headers',
            groups: ['headers'],
          },
        ],
      }),
    );
    await openDetail();
    expect(screen.getByText(/^De ceo@bank.example\[U\+202E\]live.evil@x/)).toBeInTheDocument();
    const symbols = screen.getByTestId('email-symbols');
    expect(symbols).toHaveTextContent('From [U+202E]txt.exe');
    expect(symbols).toHaveTextContent('pay[U+202E]lap@x.example');
    expect(symbols.textContent).not.toContain('\u202E');
  });

  it('on a phone, labels sit above values and the tables stack their cells instead of scrolling sideways', async () => {
    const wide = onPhoneScreen();
    try {
      serve(
        emailDetail({
          sender: 'bounces+campaign.2026@mailer.example-company.com',
          status: 'release_failed',
          recipients: [
            { address: 'jane@example.com', status: 'release_failed', updated_at: '2026-11-20T10:00:01+01:00' },
          ],
        }),
      );
      await openDetail();
      // The failed release's Retry sits under its text: beside it, the text was one word wide.
      const retry = screen.getByTestId('email-release-retry');
      expect(retry.closest('.ant-alert-description')).not.toBeNull();
      expect(retry.closest('.ant-alert-actions')).toBeNull();
      const fields = screen.getByTestId('email-fields');
      // antd's vertical layout: each label has a row of its own, above its value's.
      const sender = screen.getByTestId('email-field-sender');
      expect(sender.closest('tr')!.querySelector('th')).toBeNull();
      expect(within(fields).getByText('Expéditeur').closest('tr')).not.toBe(sender.closest('tr'));
      // The address wraps after its '+', '@', dots and '-', not in the middle of a word.
      expect(sender).toHaveTextContent('bounces+campaign.2026@mailer.example-company.com');
      expect(sender.querySelectorAll('wbr')).toHaveLength(6);

      const headerNames = (testId: string) =>
        within(screen.getByTestId(testId))
          .getAllByRole('columnheader')
          .map((h) => h.textContent);
      expect(headerNames('email-symbols')).toEqual(['Symbole', 'Score']);
      const uribl = screen.getAllByTestId('email-symbol-summary')[0]!;
      expect(uribl).toHaveTextContent('URIBL_BLACK');
      expect(uribl).toHaveTextContent('Listed in URIBL black');
      expect(uribl).toHaveTextContent('evil.example.com');
      expect(uribl).toHaveTextContent('Groupe : rbl');
      expect(screen.getAllByTestId('email-symbol-summary')[2]).toHaveTextContent('Groupes : dkim, policies');
      expect(headerNames('email-attachments')).toEqual(['Pièce jointe']);
      expect(screen.getByTestId('email-attachments')).toHaveTextContent('invoice[U+202E]fdp.exe');
      expect(screen.getByTestId('email-attachments')).toHaveTextContent('Déclaré : application/octet-stream');
      expect(screen.getByTestId('email-attachments')).toHaveTextContent('2 ko');

      await user().click(screen.getByTestId('email-tab-headers'));
      expect(headerNames('email-headers')).toEqual(['En-tête']);
      expect(screen.getAllByTestId('email-header-summary')[1]).toHaveTextContent('SubjectYou won a prize');
    } finally {
      wide();
    }
  });

  it('previews the HTML sanitised in a sandboxed frame; remote images only after "Load remote images"', async () => {
    serve(emailDetail());
    await openDetail();
    expect(frame().getAttribute('sandbox')).toBe('');
    const srcdoc = frame().getAttribute('srcdoc')!;
    expect(srcdoc).toMatch(
      /^<!DOCTYPE html><html><head><meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:;/,
    );
    expect(srcdoc).toContain('<b>winner</b>');
    expect(srcdoc).not.toMatch(/<script|alert\(|onerror|cdn\.example|<a /);
    expect(screen.getByTestId('email-images-blocked')).toHaveTextContent('Images distantes bloquées : 1.');

    await user().click(screen.getByTestId('email-load-images'));
    await waitFor(() =>
      expect(frame().getAttribute('srcdoc')).toContain('<img src="https://cdn.example/logo.png" alt="Logo">'),
    );
    expect(frame().getAttribute('srcdoc')).toContain('img-src https: data:;');
    expect(frame().getAttribute('srcdoc')).not.toMatch(/<script|onerror/);
    expect(screen.getByTestId('email-images-loaded')).toBeInTheDocument();
    expect(screen.queryByTestId('email-load-images')).toBeNull();
  });

  it('lists the links outside the frame; opening one needs a confirmation showing the real target', async () => {
    serve(emailDetail());
    await openDetail();
    const links = screen.getByTestId('email-links');
    const link = within(links).getByTestId('email-link');
    expect(link).toHaveTextContent('hxxps://evil[.]example[.]com/claim');
    expect(links).toHaveTextContent('https://bank.example/claim'); // the text the message showed…
    expect(within(links).getByTestId('email-link-misleading')).toHaveTextContent('Trompeur'); // …is flagged
    expect(links.querySelector('a[href]')).toBeNull();

    await user().click(link);
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Ouvrir ce lien ?')).toBeInTheDocument();
    expect(within(dialog).getByTestId('email-link-target')).toHaveTextContent('https://evil.example.com/claim');
    const open = within(dialog).getByTestId('email-link-open');
    expect(open.tagName).toBe('A');
    expect(open).toHaveAttribute('href', 'https://evil.example.com/claim');
    expect(open).toHaveAttribute('target', '_blank');
    expect(open).toHaveAttribute('rel', 'noopener noreferrer');
    await user().click(within(dialog).getByRole('button', { name: 'Annuler' }));
    await waitFor(() => expect(screen.queryByTestId('email-link-confirm')).toBeNull());
  });

  it('Text and Headers tabs; the Raw tab fetches the source only when opened, as text', async () => {
    const { calls } = serve(emailDetail(), {
      [`GET ${RAW}`]: () =>
        new Response('From: promo@spam.example\r\nSubject: You won\r\n\r\n<script>alert(1)</script>', {
          status: 200,
          headers: { 'Content-Type': 'message/rfc822' },
        }),
    });
    localStorage.setItem('accessToken', 'header.payload.sig');
    await openDetail();
    await user().click(screen.getByTestId('email-tab-text'));
    expect(await screen.findByTestId('email-text')).toHaveTextContent('Hello, you won!');
    await user().click(screen.getByTestId('email-tab-headers'));
    expect(await screen.findByTestId('email-headers')).toHaveTextContent('SubjectYou won a prize');

    expect(of(calls, 'GET', RAW)).toHaveLength(0);
    await user().click(screen.getByTestId('email-tab-raw'));
    const raw = await screen.findByTestId('email-raw');
    expect(raw.tagName).toBe('PRE');
    expect(raw).toHaveTextContent('<script>alert(1)</script>'); // as text
    expect(raw.querySelector('script')).toBeNull();
    expect(of(calls, 'GET', RAW)).toHaveLength(1);
    expect(of(calls, 'GET', RAW)[0]!.authorization).toBe('Bearer header.payload.sig');
  });

  it('Download fetches the .eml with the Authorization header and saves it through an object URL', async () => {
    const { calls } = serve(emailDetail(), {
      [`GET ${RAW}`]: () => new Response('raw bytes', { status: 200, headers: { 'Content-Type': 'message/rfc822' } }),
    });
    localStorage.setItem('accessToken', 'header.payload.sig');
    const created: Blob[] = [];
    const urlApi = URL as unknown as { createObjectURL: (b: Blob) => string; revokeObjectURL: (u: string) => void };
    urlApi.createObjectURL = jest.fn((b: Blob) => {
      created.push(b);
      return 'blob:http://localhost/1';
    });
    urlApi.revokeObjectURL = jest.fn();
    const clicked: HTMLAnchorElement[] = [];
    jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this);
    });
    await openDetail();
    await user().click(screen.getByTestId('email-download'));
    await waitFor(() => expect(clicked).toHaveLength(1));
    expect(clicked[0]!.download).toBe('m1.eml');
    expect(clicked[0]!.href).toBe('blob:http://localhost/1');
    expect(await created[0]!.text()).toBe('raw bytes');
    const download = of(calls, 'GET', RAW);
    expect(download).toHaveLength(1);
    expect(download[0]!.authorization).toBe('Bearer header.payload.sig');
    expect(download[0]!.url).not.toContain('header.payload.sig'); // never a token in a URL
  });

  it('Release asks for confirmation, posts, and says "Email successfully released"', async () => {
    const detail = emailDetail();
    const { calls } = serve(detail, {
      [`POST ${RELEASE}`]: () => {
        detail.status = 'released';
        detail.recipients = detail.recipients.map((r) => ({ ...r, status: 'released' }));
        return jsonResponse(200, {
          status: 'released',
          delivery: { response: '250 2.0.0 Ok: queued', accepted: ['jane@example.com'], rejected: [] },
        });
      },
    });
    await openDetail();
    const u = user();

    // Cancel sends nothing.
    await u.click(screen.getByTestId('email-release'));
    expect((await screen.findAllByText('Libérer cet e-mail ?')).length).toBeGreaterThan(0);
    expect(
      screen.getByText(/Il sera remis aux destinataires dont vous avez la charge : jane@example.com\./),
    ).toBeInTheDocument();
    await u.click(screen.getByTestId('email-confirm-cancel'));
    await waitFor(() => expect(screen.queryAllByText('Libérer cet e-mail ?')).toHaveLength(0));
    expect(of(calls, 'POST', RELEASE)).toHaveLength(0);

    await u.click(screen.getByTestId('email-release'));
    await u.click(await screen.findByTestId('email-release-confirm'));
    await waitFor(() => expect(noticeTitles()).toEqual(['success: E-mail libéré avec succès']));
    expect(noticeOf('E-mail libéré avec succès')!.description).toBe('Réponse du relais\u00a0: 250 2.0.0 Ok: queued');
    expect(of(calls, 'POST', RELEASE)).toHaveLength(1);
    expect(of(calls, 'POST', RELEASE)[0]!.body).toBe('');
    // The detail is refetched: the new status shows and Release is no longer offered.
    await waitFor(() => expect(screen.getByTestId('email-field-status')).toHaveTextContent('Libéré'));
    expect(screen.getByTestId('email-release')).toBeDisabled();
  });

  it('a relay refusal (502) shows "Error during release" with the relay answer and a Retry', async () => {
    let attempts = 0;
    const { calls } = serve(emailDetail(), {
      [`POST ${RELEASE}`]: () =>
        ++attempts === 1
          ? jsonResponse(502, {
              detail: 'Relay refused',
              code: 'relay_refused',
              delivery: {
                response: '554 5.7.1 Message rejected by policy',
                accepted: [],
                rejected: ['jane@example.com'],
              },
            })
          : jsonResponse(200, {
              status: 'released',
              delivery: { response: '250 Ok', accepted: ['jane@example.com'], rejected: [] },
            }),
    });
    await openDetail();
    const u = user();
    await u.click(screen.getByTestId('email-release'));
    await u.click(await screen.findByTestId('email-release-confirm'));
    await waitFor(() => expect(noticeTitles()).toEqual(['error: Erreur lors de la libération']));
    expect(noticeOf('Erreur lors de la libération')!.description).toBe(
      'Le relais a refusé le message. L’e-mail reste en quarantaine. Réponse du relais\u00a0: 554 5.7.1 Message rejected by policy',
    );
    const alert = await screen.findByTestId('email-release-error');
    expect(alert).toHaveTextContent('Le relais a refusé le message.');
    expect(within(alert).getByTestId('email-release-response')).toHaveTextContent(
      '554 5.7.1 Message rejected by policy',
    );

    await u.click(within(alert).getByTestId('email-release-retry'));
    await waitFor(() => expect(noticeTitles()).toContain('success: E-mail libéré avec succès'));
    expect(of(calls, 'POST', RELEASE).map((c) => c.body)).toEqual(['', '']);
    await waitFor(() => expect(screen.queryByTestId('email-release-error')).toBeNull());
  });

  it('an unknown outcome (release_unknown) is retried only after an explicit confirmation, with confirm_resend', async () => {
    let attempts = 0;
    const { calls } = serve(emailDetail(), {
      [`POST ${RELEASE}`]: () =>
        ++attempts === 1
          ? jsonResponse(502, {
              detail: 'Unknown',
              code: 'release_unknown',
              delivery: { response: null, accepted: [], rejected: [] },
            })
          : jsonResponse(200, { status: 'released', delivery: { response: '250 Ok', accepted: [], rejected: [] } }),
    });
    await openDetail();
    const u = user();
    await u.click(screen.getByTestId('email-release'));
    await u.click(await screen.findByTestId('email-release-confirm'));
    const alert = await screen.findByTestId('email-release-error');
    expect(alert).toHaveTextContent('le message a peut-être déjà été remis');

    await u.click(within(alert).getByTestId('email-release-retry'));
    expect((await screen.findAllByText('Renvoyer malgré tout ?')).length).toBeGreaterThan(0);
    expect(of(calls, 'POST', RELEASE)).toHaveLength(1); // nothing sent before the confirmation
    await u.click(screen.getByTestId('email-resend-confirm'));
    await waitFor(() => expect(of(calls, 'POST', RELEASE)).toHaveLength(2));
    expect(of(calls, 'POST', RELEASE)[1]!.body).toEqual({ confirm_resend: true });
    await waitFor(() => expect(noticeTitles()).toContain('success: E-mail libéré avec succès'));
  });

  it('409 and 503 answers are explained', async () => {
    let n = 0;
    serve(emailDetail(), {
      [`POST ${RELEASE}`]: () =>
        ++n === 1
          ? jsonResponse(409, { detail: 'Already released', code: 'already_released' })
          : jsonResponse(503, { detail: 'No relay', code: 'relay_not_configured' }),
    });
    await openDetail();
    const u = user();
    await u.click(screen.getByTestId('email-release'));
    await u.click(await screen.findByTestId('email-release-confirm'));
    await waitFor(() =>
      expect(noticeOf('Erreur lors de la libération')?.description).toBe('Cet e-mail a déjà été libéré.'),
    );
    useNotices.getState().clear();
    await u.click(screen.getByTestId('email-release'));
    await u.click(await screen.findByTestId('email-release-confirm'));
    await waitFor(() =>
      expect(noticeOf('Erreur lors de la libération')?.description).toBe(
        'La libération n’est pas configurée sur le serveur (relais SMTP). Contactez votre administrateur.',
      ),
    );
    expect(screen.queryByTestId('email-release-error')).toBeNull();
  });

  it('Delete asks for confirmation, says "Email successfully deleted" and goes back to the list it came from', async () => {
    const { calls } = serve(emailDetail(), { 'DELETE /api/quarantine/m1/': () => new Response(null, { status: 204 }) });
    renderQuarantine('/mail?status=pending&q=prize');
    const u = user();
    await u.click(await screen.findByText('You won a prize'));
    await screen.findByTestId('email-detail');
    expect(currentLocation()).toBe('/mail/m1');

    await u.click(screen.getByTestId('email-delete'));
    expect((await screen.findAllByText('Supprimer cet e-mail ?')).length).toBeGreaterThan(0);
    // It cannot be undone: the dialog opens on Cancel, so Enter does not delete.
    await waitFor(() => expect(screen.getByTestId('email-confirm-cancel')).toHaveFocus());
    await u.click(screen.getByTestId('email-delete-confirm'));
    await waitFor(() => expect(noticeTitles()).toEqual(['success: E-mail supprimé avec succès']));
    expect(of(calls, 'DELETE', '/api/quarantine/m1/')).toHaveLength(1);
    await waitFor(() => expect(currentLocation()).toBe('/mail?status=pending&q=prize'));
    expect(await screen.findByTestId('quarantine-page')).toBeInTheDocument();
  });

  it('a failed deletion says "Error during deletion" and stays on the e-mail', async () => {
    serve(emailDetail(), {
      'DELETE /api/quarantine/m1/': () => jsonResponse(500, { detail: 'x', code: 'internal_error' }),
    });
    await openDetail();
    const u = user();
    await u.click(screen.getByTestId('email-delete'));
    await u.click(await screen.findByTestId('email-delete-confirm'));
    await waitFor(() => expect(noticeTitles()).toEqual(['error: Erreur lors de la suppression']));
    expect(noticeOf('Erreur lors de la suppression')!.description).toBe('Erreur du serveur. Réessayez plus tard.');
    expect(currentLocation()).toBe('/mail/m1');
  });

  it('a 404 shows "Email not found" with a way back to the list', async () => {
    mockApi((call) =>
      call.path === DETAIL
        ? jsonResponse(404, { detail: 'Email not found', code: 'email_not_found' })
        : jsonResponse(200, { results: [], next_cursor: null }),
    );
    renderQuarantine('/mail/m1');
    const notFound = await screen.findByTestId('email-not-found');
    expect(notFound).toHaveTextContent('E-mail introuvable');
    await user().click(within(notFound).getByRole('button', { name: /Retour à la liste/ }));
    await waitFor(() => expect(currentLocation()).toBe('/mail'));
  });

  it('other load errors show a Retry', async () => {
    let n = 0;
    mockApi(() =>
      ++n === 1 ? jsonResponse(500, { detail: 'x', code: 'internal_error' }) : jsonResponse(200, emailDetail()),
    );
    renderQuarantine('/mail/m1');
    expect(await screen.findByText('Erreur lors du chargement de l’e-mail')).toBeInTheDocument();
    await user().click(screen.getByRole('button', { name: 'Réessayer' }));
    expect(await screen.findByTestId('email-detail')).toBeInTheDocument();
  });

  it('a message without HTML says so; the actions follow the status', async () => {
    serve(
      emailDetail({
        html_body: null,
        status: 'deleted',
        recipients: [{ address: 'jane@example.com', status: 'deleted', updated_at: '2026-11-20T10:00:00+01:00' }],
        raw_available: false,
      }),
    );
    await openDetail();
    // A plain-text mail opens on its text (issue 23, item 8); the Preview tab says why it is empty.
    expect(screen.getByTestId('email-text')).toHaveTextContent('you won!');
    await user().click(screen.getByTestId('email-tab-preview'));
    expect(screen.getByTestId('email-preview-empty')).toHaveTextContent('Ce message n’a pas de version HTML');
    expect(screen.queryByTestId('email-preview-frame')).toBeNull();
    expect(screen.getByTestId('email-release')).toBeDisabled();
    expect(screen.getByTestId('email-delete')).toBeDisabled();
    expect(screen.getByTestId('email-download')).toBeDisabled();
  });

  it('a release that failed earlier is shown from the server state, with its relay answer; its Retry asks first', async () => {
    const { calls } = serve(
      emailDetail({
        status: 'release_failed',
        recipients: [
          { address: 'jane@example.com', status: 'release_failed', updated_at: '2026-11-20T10:00:01+01:00' },
        ],
        delivery: {
          outcome: 'relay_refused',
          response: '451 4.3.0 Try again later',
          accepted: [],
          rejected: ['jane@example.com'],
          started_at: '2026-11-20T10:00:00+01:00',
          finished_at: '2026-11-20T10:00:01+01:00',
          by: 'admin@example.com',
        },
      }),
    );
    await openDetail();
    const alert = screen.getByTestId('email-release-error');
    expect(alert).toHaveTextContent('Le relais a refusé le message.');
    expect(alert).toHaveTextContent('451 4.3.0 Try again later');
    const last = screen.getByTestId('email-field-last_delivery');
    expect(last).toHaveTextContent('Refusé par le relais');
    expect(last).toHaveTextContent('par admin@example.com');
    expect(last).toHaveTextContent('451 4.3.0 Try again later');
    expect(screen.getByTestId('email-release')).toBeEnabled();

    // Found on opening the page (not a release confirmed here): Retry names the recipients first.
    const u = user();
    await u.click(within(alert).getByTestId('email-release-retry'));
    expect(await screen.findByTestId('email-release-confirm')).toBeInTheDocument();
    expect(of(calls, 'POST', RELEASE)).toHaveLength(0);
    await u.click(screen.getByTestId('email-confirm-cancel'));
    expect(of(calls, 'POST', RELEASE)).toHaveLength(0);
  });

  it('the server gone during a release: the e-mail stays on screen, the notice says what failed', async () => {
    let up = true;
    mockApi((call) => {
      if (!up) throw new TypeError('Failed to fetch');
      if (call.method === 'GET' && call.path === DETAIL) return jsonResponse(200, emailDetail());
      return jsonResponse(404, { detail: 'Not found', code: 'not_found' });
    });
    await openDetail();
    up = false;
    const u = user();
    await u.click(screen.getByTestId('email-release'));
    await u.click(await screen.findByTestId('email-release-confirm'));
    await waitFor(() => expect(noticeTitles()).toContain('error: Erreur lors de la libération'));
    // The detail's refetch after the action failed too: the page still shows the e-mail.
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.getByTestId('email-detail')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'You won a prize' })).toBeInTheDocument();
  });

  it('an e-mail gone meanwhile (404 on the refetch after an action) says so instead of a stale copy', async () => {
    let gets = 0;
    mockApi((call) => {
      if (call.method === 'GET' && call.path === DETAIL)
        return ++gets === 1 ? jsonResponse(200, emailDetail()) : jsonResponse(404, { detail: 'x', code: 'not_found' });
      if (call.method === 'POST' && call.path === RELEASE)
        return jsonResponse(404, { detail: 'Not found', code: 'email_not_found' });
      return jsonResponse(404, { detail: 'Not found', code: 'not_found' });
    });
    await openDetail();
    const u = user();
    await u.click(screen.getByTestId('email-release'));
    await u.click(await screen.findByTestId('email-release-confirm'));
    expect(await screen.findByTestId('email-not-found')).toBeInTheDocument();
    expect(screen.queryByTestId('email-detail')).toBeNull();
  });

  it('a deleted e-mail says since when, beside its disabled actions', async () => {
    serve(
      emailDetail({
        status: 'deleted',
        recipients: [{ address: 'jane@example.com', status: 'deleted', updated_at: '2026-11-21T08:15:00Z' }],
      }),
    );
    await openDetail();
    expect(screen.getByTestId('email-release')).toBeDisabled();
    expect(screen.getByTestId('email-delete')).toBeDisabled();
    expect(screen.getByTestId('email-settled')).toHaveTextContent(
      /^Supprimé le 21 nov\. 2026.*: il ne peut plus être libéré\.$/,
    );
  });

  it('a release refused for some recipients only is shown as partial, naming those still held', async () => {
    serve(
      emailDetail({
        status: 'release_failed',
        recipients: [
          { address: 'jane@example.com', status: 'released', updated_at: '2026-11-20T10:00:01+01:00' },
          { address: 'bob@example.com', status: 'release_failed', updated_at: '2026-11-20T10:00:01+01:00' },
        ],
        delivery: {
          outcome: 'partially_released',
          response: '250 2.0.0 Ok: queued',
          accepted: ['jane@example.com'],
          rejected: ['bob@example.com'],
          started_at: '2026-11-20T10:00:00+01:00',
          finished_at: '2026-11-20T10:00:01+01:00',
          by: 'admin@example.com',
        },
      }),
    );
    await openDetail();
    const alert = screen.getByTestId('email-release-error');
    expect(alert).toHaveTextContent('E-mail libéré en partie');
    expect(alert).toHaveTextContent('Refusé par le relais, toujours en quarantaine : bob@example.com.');
    expect(alert).not.toHaveTextContent('Erreur lors de la libération');
    expect(alert).not.toHaveTextContent('a échoué');
    expect(alert.className).toMatch(/warning/);
  });

  it('an outcome left unknown: Release itself asks to confirm sending again, and sends confirm_resend', async () => {
    const { calls } = serve(
      emailDetail({
        status: 'release_unknown',
        recipients: [
          { address: 'jane@example.com', status: 'release_unknown', updated_at: '2026-11-20T10:00:01+01:00' },
        ],
      }),
      {
        [`POST ${RELEASE}`]: () =>
          jsonResponse(200, { status: 'released', delivery: { response: '250 Ok', accepted: [], rejected: [] } }),
      },
    );
    await openDetail();
    expect(screen.getByTestId('email-release-error')).toHaveTextContent('le message a peut-être déjà été remis');
    const u = user();
    await u.click(screen.getByTestId('email-release'));
    await u.click(await screen.findByTestId('email-resend-confirm'));
    await waitFor(() => expect(of(calls, 'POST', RELEASE)).toHaveLength(1));
    expect(of(calls, 'POST', RELEASE)[0]!.body).toEqual({ confirm_resend: true });
  });

  it('a partial release is a warning naming the refused recipients', async () => {
    serve(emailDetail(), {
      [`POST ${RELEASE}`]: () =>
        jsonResponse(200, {
          status: 'partially_released',
          delivery: { response: '250 Ok', accepted: ['jane@example.com'], rejected: ['bob@example.com'] },
        }),
    });
    await openDetail();
    const u = user();
    await u.click(screen.getByTestId('email-release'));
    await u.click(await screen.findByTestId('email-release-confirm'));
    await waitFor(() => expect(noticeTitles()).toEqual(['warning: E-mail libéré en partie']));
    expect(noticeOf('E-mail libéré en partie')!.description).toBe('Refusé par le relais\u00a0: bob@example.com');
  });
});
