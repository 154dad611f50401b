import { resetSessionForTests, useSession } from '@qc/auth';
import type { CurrentUser } from '@qc/contracts';
import { useNotices } from '@qc/ui-state';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  emailDetail,
  jsonResponse,
  listItem,
  mockApi,
  noticeTitles,
  onPhoneScreen,
  renderQuarantine,
  type ApiCall,
} from '../../test-utils';
import type { QuarantineDetail } from '../quarantine/quarantine.types';
import { attachmentFilename } from './email.api';
import { tokenParts } from './tokens';

/** Issue 23: the detail's review tools (display name, tabs, tokens, phone, headers, attachments, release to). */

const user = () => userEvent.setup({ delay: null });
const ME: CurrentUser = {
  id: 'u1',
  username: 'jane',
  email: 'jane@example.com',
  first_name: 'Jane',
  last_name: 'Doe',
  role: 'user',
  domain: null,
  is_external: false,
  source: 'local',
  addresses: ['jane@example.com'],
  mfa_enabled: false,
  date_joined: '2026-01-01T00:00:00Z',
  pending_email: null,
};
const SHA = 'a'.repeat(16) + 'b'.repeat(16) + 'c'.repeat(16) + 'd'.repeat(16);

function serve(detail: QuarantineDetail, actions: Record<string, (call: ApiCall) => Response> = {}) {
  return mockApi((call) => {
    const custom = actions[`${call.method} ${call.path}`];
    if (custom) return custom(call);
    if (call.method === 'GET' && call.path === '/api/quarantine/m1/') return jsonResponse(200, detail);
    if (call.method === 'GET' && call.path === '/api/quarantine/')
      return jsonResponse(200, { results: [listItem()], next_cursor: null });
    return jsonResponse(404, { detail: 'Not found', code: 'not_found' });
  });
}

async function openAs(
  role: CurrentUser['role'],
  detail: QuarantineDetail,
  actions = {},
  domain?: string,
  addresses: string[] = ME.addresses,
) {
  resetSessionForTests();
  useSession.setState({
    user: { ...ME, role, domain: domain ? { id: 'd1', name: domain } : null, addresses },
    isAuthenticated: true,
    isLoading: false,
  });
  const served = serve(detail, actions);
  renderQuarantine('/mail/m1');
  await screen.findByTestId('email-detail');
  return served;
}

beforeEach(() => {
  localStorage.clear();
  jest.restoreAllMocks();
  useNotices.getState().clear();
});

describe('sender display name (item 7)', () => {
  it('shows the name beside the address, isolated and with direction tricks revealed', async () => {
    await openAs('user', emailDetail({ sender_name: 'Service\u202E clients', sender: 'billing@bank.example' }));
    const line = screen.getByTestId('email-sender-line');
    expect(line).toHaveTextContent('De Service[U+202E] clients <billing@bank.example>');
    expect(screen.getByTestId('email-sender-name').tagName).toBe('BDI');
    expect(screen.getByTestId('email-sender-display-name')).toHaveTextContent('Service[U+202E] clients');
    expect(screen.getByTestId('email-field-sender')).toHaveTextContent('billing@bank.example');
    expect(screen.queryByTestId('email-sender-spoofed')).toBeNull();
  });

  it('warns when the name shows another address', async () => {
    await openAs('user', emailDetail({ sender_name: 'support@paypal.com', sender: 'x@evil.example' }));
    expect(screen.getByTestId('email-sender-spoofed')).toHaveTextContent('Le nom affiché montre une autre adresse');
  });

  it('without a name: the address alone', async () => {
    await openAs('user', emailDetail({ sender_name: null }));
    expect(screen.getByTestId('email-sender-line')).toHaveTextContent('De promo@spam.example');
    expect(screen.queryByTestId('email-sender-name')).toBeNull();
  });
});

describe('tabs (items 8, 11)', () => {
  it('an HTML mail opens on its preview', async () => {
    await openAs('user', emailDetail());
    expect(screen.getByTestId('email-preview')).toBeInTheDocument();
    expect(screen.queryByTestId('email-text')).toBeNull();
  });

  it('a plain-text mail opens on its text', async () => {
    await openAs('user', emailDetail({ html_body: null, text_body: 'Just text' }));
    expect(screen.getByTestId('email-text')).toHaveTextContent('Just text');
    expect(screen.getByRole('tab', { selected: true })).toHaveTextContent('Texte');
  });

  it('on a phone: the images notice puts its button under the text, and every tab is in the bar', async () => {
    const wide = onPhoneScreen();
    try {
      await openAs('user', emailDetail());
      const load = screen.getByTestId('email-load-images');
      expect(load.closest('.ant-alert-description')).not.toBeNull();
      expect(load.closest('.ant-alert-actions')).toBeNull();
      // The small bar with narrow gaps: four tabs fit 390 px, none behind a "more" menu.
      const tabs = screen.getByRole('tablist').closest('.ant-tabs')!;
      expect(tabs).toHaveClass('ant-tabs-small');
      expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual([
        'Aperçu',
        'Texte',
        'En-têtes',
        'Source brute',
      ]);
      await user().click(load);
      expect(screen.getByTestId('email-images-loaded')).toBeInTheDocument();
    } finally {
      wide();
    }
  });
});

describe('information grid tokens (item 10)', () => {
  it('breaks only at separators: each part ends with one (or starts with "<")', () => {
    expect(tokenParts('<CAK1x=ab+c@mail.gmail.com>')).toEqual(['<CAK1x=', 'ab+', 'c@', 'mail.', 'gmail.', 'com>']);
    expect(tokenParts('averyveryverylongword')).toEqual(['averyveryverylongword']);
  });

  it('addresses and the Message-ID keep their tokens whole (no break-anywhere), full text in the title', async () => {
    const mid = '<CAKx7yQ1234567890abcdef@mail.example-company.com>';
    await openAs('user', emailDetail({ message_id: mid, envelope_from: 'bounce-123@lists.example.org' }));
    for (const key of ['message_id', 'envelope_from', 'sender', 'helo']) {
      const tokens = screen.getByTestId(`email-field-${key}`).querySelectorAll<HTMLElement>('[data-token]');
      expect(tokens.length).toBeGreaterThan(0);
      for (const token of tokens) {
        expect(token.style.overflowWrap).toBe('normal');
        expect(token.style.wordBreak).toBe('normal');
        expect(token.style.textOverflow).toBe('ellipsis');
        expect(token.title).toBe(token.textContent);
        // Every text run between two break points ends at a separator.
        const runs = [...token.childNodes].filter((n) => n.nodeType === Node.TEXT_NODE).map((n) => n.textContent!);
        for (const run of runs.slice(0, -1)) expect(run).toMatch(/[@.\-_+=/>]$/);
      }
    }
    expect(screen.getByTestId('email-field-message_id').querySelector<HTMLElement>('[data-token]')!.title).toBe(mid);
    // The Message-ID can be copied whole.
    expect(within(screen.getByTestId('email-field-message_id')).getByRole('button')).toBeInTheDocument();
  });
});

describe('headers as carried (item 9)', () => {
  it('shows the names, order and raw Date the api gives, and where the undecoded ones are', async () => {
    await openAs(
      'user',
      emailDetail({
        headers: [
          { name: 'Received', value: 'from mx by local' },
          { name: 'Date', value: 'Tue, 01 Dec 2026 10:00:00 +0100' },
          { name: 'Subject', value: 'Facture été' },
          { name: 'X-Custom', value: 'one' },
        ],
      }),
    );
    await user().click(screen.getByTestId('email-tab-headers'));
    const rows = within(screen.getByTestId('email-headers')).getAllByRole('row').slice(1);
    expect(rows.map((r) => r.textContent)).toEqual([
      'Receivedfrom mx by local',
      'DateTue, 01 Dec 2026 10:00:00 +0100',
      'SubjectFacture été',
      'X-Customone',
    ]);
    expect(screen.getByTestId('email-headers-help')).toHaveTextContent('RFC 2047');
  });
});

describe('attachments (item 12)', () => {
  const attachments = [
    { index: 0, name: 'facture.pdf', type: 'image/png', size: 2048, detected_type: 'application/pdf', sha256: SHA },
    { index: 1, name: 'notes.txt', type: 'text/plain', size: 10, detected_type: null, sha256: SHA },
  ];

  it('shows declared and detected types (a mismatch flagged), size and SHA-256', async () => {
    await openAs('user', emailDetail({ attachments }));
    const types = screen.getAllByTestId('email-attachment-types');
    expect(types[0]).toHaveTextContent('Déclaré : image/png');
    expect(types[0]).toHaveTextContent('Détecté : application/pdf');
    expect(types[0]).toHaveTextContent('Ne correspond pas');
    expect(types[1]).toHaveTextContent('Détecté : inconnu');
    expect(types[1]).not.toHaveTextContent('Ne correspond pas');
    expect(screen.getAllByTestId('email-attachment-sha256')[0]).toHaveTextContent(SHA);
    expect(screen.getByTestId('email-attachments')).toHaveTextContent('2 ko');
  });

  it('downloads one attachment through the api (Authorization header), saved under a safe name', async () => {
    const { calls } = await openAs('user', emailDetail({ attachments }), {
      'GET /api/quarantine/m1/attachments/0/': () =>
        new Response('%PDF', {
          status: 200,
          headers: {
            'Content-Type': 'application/octet-stream',
            'Content-Disposition': `attachment; filename="facture.pdf"; filename*=UTF-8''facture.pdf`,
          },
        }),
    });
    localStorage.setItem('accessToken', 'header.payload.sig');
    const urlApi = URL as unknown as { createObjectURL: (b: Blob) => string; revokeObjectURL: (u: string) => void };
    urlApi.createObjectURL = jest.fn(() => 'blob:http://localhost/2');
    urlApi.revokeObjectURL = jest.fn();
    const clicked: HTMLAnchorElement[] = [];
    jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this);
    });
    const buttons = screen.getAllByTestId('email-attachment-download');
    expect(buttons[0]).toHaveAccessibleName('Télécharger facture.pdf');
    await user().click(buttons[0]!);
    await waitFor(() => expect(clicked).toHaveLength(1));
    expect(clicked[0]!.download).toBe('facture.pdf');
    const call = calls.find((c) => c.path === '/api/quarantine/m1/attachments/0/')!;
    expect(call.authorization).toBe('Bearer header.payload.sig');
  });

  it('no download once the raw is gone', async () => {
    await openAs('user', emailDetail({ attachments, raw_available: false }));
    for (const b of screen.getAllByTestId('email-attachment-download')) expect(b).toBeDisabled();
  });

  it('a safe file name: path and controls dropped, extension kept', () => {
    expect(attachmentFilename('../../etc/pass\u202Ewd.exe', 0)).toBe('etc_pass_wd.exe');
    expect(attachmentFilename('', 2)).toBe('attachment-3');
  });
});

describe('release to another address (item 13)', () => {
  it('is not offered to a user with one address', async () => {
    await openAs('user', emailDetail());
    expect(screen.queryByTestId('email-release-to')).toBeNull();
  });

  it('a user with several addresses chooses one of their own (issue 31)', async () => {
    const { calls } = await openAs(
      'user',
      emailDetail(),
      {
        'POST /api/quarantine/m1/release-to/': () =>
          jsonResponse(200, {
            status: 'released',
            delivery: { response: '250 ok', accepted: ['me@example.com'], rejected: [] },
          }),
      },
      undefined,
      ['me@example.com', 'sales@example.com'],
    );
    const u = user();
    await u.click(screen.getByTestId('email-release-to'));
    const dialog = await screen.findByTestId('email-release-to-dialog');
    expect(within(dialog).queryByTestId('email-release-to-address')).toBeNull();
    const choices = within(dialog).getByRole('radiogroup', { name: 'Vos adresses' });
    expect(within(choices).getByRole('radio', { name: 'me@example.com' })).toBeChecked();
    await u.click(within(choices).getByRole('radio', { name: 'sales@example.com' }));
    await u.click(screen.getByTestId('email-release-to-confirm'));
    await waitFor(() => expect(noticeTitles()).toContain('success: Copie envoyée'));
    const sent = calls.filter((c) => c.path === '/api/quarantine/m1/release-to/');
    expect(sent.map((c) => c.body)).toEqual([{ address: 'sales@example.com' }]);
  });

  it('a domain_admin: an address outside the domain is refused before sending; one inside is sent', async () => {
    const { calls } = await openAs(
      'domain_admin',
      emailDetail(),
      {
        'POST /api/quarantine/m1/release-to/': () =>
          jsonResponse(200, {
            status: 'released',
            delivery: { response: '250 ok', accepted: ['help@example.com'], rejected: [] },
          }),
      },
      'example.com',
    );
    const u = user();
    await u.click(screen.getByTestId('email-release-to'));
    const dialog = await screen.findByTestId('email-release-to-dialog');
    expect(dialog).toHaveTextContent('Une adresse de votre domaine (example.com).');
    const input = within(document.body).getByTestId('email-release-to-address');
    await u.type(input, 'someone@other.example');
    await u.click(screen.getByTestId('email-release-to-confirm'));
    expect(screen.getByTestId('email-release-to-error')).toHaveTextContent(
      'L’adresse doit appartenir à votre domaine (example.com).',
    );
    expect(calls.filter((c) => c.path.endsWith('/release-to/'))).toHaveLength(0);
    await u.clear(input);
    await u.type(input, 'help@example.com{Enter}');
    await waitFor(() => expect(noticeTitles()).toContain('success: Copie envoyée'));
    const sent = calls.filter((c) => c.path === '/api/quarantine/m1/release-to/');
    expect(sent).toHaveLength(1);
    expect(sent[0]!.body).toEqual({ address: 'help@example.com' });
  });

  it('an admin: the server’s 400 shows in the field; a relay refusal is a notice with its reply', async () => {
    let answer = jsonResponse(400, {
      detail: 'The request is not valid.',
      code: 'validation_error',
      errors: { address: 'Not a valid e-mail address.' },
    });
    await openAs('admin', emailDetail(), { 'POST /api/quarantine/m1/release-to/': () => answer });
    const u = user();
    await u.click(screen.getByTestId('email-release-to'));
    const input = await screen.findByTestId('email-release-to-address');
    await u.type(input, 'a@b.example{Enter}');
    expect(await screen.findByTestId('email-release-to-error')).toHaveTextContent('Not a valid e-mail address.');
    answer = jsonResponse(502, {
      detail: 'refused',
      code: 'relay_refused',
      delivery: { response: '550 5.1.1 no such user', accepted: [], rejected: ['a@b.example'] },
    });
    await u.click(screen.getByTestId('email-release-to-confirm'));
    await waitFor(() => expect(noticeTitles()).toContain('error: Échec de l’envoi de la copie'));
    const notice = useNotices.getState().notices.find((n) => n.title === 'Échec de l’envoi de la copie')!;
    expect(String(notice.description)).toContain('550 5.1.1 no such user');
  });
});
