import { screen, waitFor, within } from '@testing-library/react';
import { emailDetail, jsonResponse, listItem, mockApi, onPhoneScreen, renderQuarantine } from '../../test-utils';

// Senders come from the api as A-label (issue 21); URLs as written in the message.
const SPOOF = 'billing@xn--pypal-4ve.com'; // p + Cyrillic а + ypal.com
const UNICODE = 'p\u0430ypal.com';

function serve() {
  mockApi((call) =>
    call.path === '/api/quarantine/m1/'
      ? jsonResponse(
          200,
          emailDetail({
            sender: SPOOF,
            envelope_from: 'bounce@xn--bcher-kva.example',
            urls: [`https://${UNICODE}/login`, 'https://example.com/ok'],
          }),
        )
      : jsonResponse(200, { results: [listItem({ sender: SPOOF }), listItem({ id: 'm2' })], next_cursor: null }),
  );
}

beforeEach(() => jest.restoreAllMocks());

describe('homograph domains (issue 29 item 8)', () => {
  it('the detail shows the other form and a warning beside the sender and a mixed-script URL only', async () => {
    serve();
    renderQuarantine('/mail/m1');
    const sender = await screen.findByTestId('email-field-sender');
    const note = within(sender).getByTestId('homograph-note');
    expect(within(note).getByTestId('homograph-other-form')).toHaveTextContent(UNICODE);
    const tag = within(note).getByTestId('homograph-tag');
    expect(tag).toHaveTextContent('Écritures mélangées');
    expect(tag).toHaveClass('ant-tag-warning');
    expect(tag).toHaveAttribute('title', expect.stringContaining('peut imiter un autre domaine'));
    expect(tag).toHaveAttribute('title', expect.stringContaining('xn--pypal-4ve.com'));
    // The page header's sender line too; a legitimate IDN (bücher) gets nothing.
    expect(within(screen.getByTestId('email-sender-line')).getByTestId('homograph-tag')).toBeInTheDocument();
    expect(within(screen.getByTestId('email-field-envelope_from')).queryByTestId('homograph-note')).toBeNull();

    // A URL written in Unicode: its A-label beside it.
    const urls = screen.getAllByTestId('email-url').map((u) => u.closest('li')!);
    expect(within(urls[0]!).getByTestId('homograph-other-form')).toHaveTextContent('xn--pypal-4ve.com');
    expect(within(urls[0]!).getByTestId('homograph-tag')).toHaveTextContent('Écritures mélangées');
    expect(within(urls[1]!).queryByTestId('homograph-note')).toBeNull();
  });

  it('the quarantine list marks the sender cell, on a wide screen and on a phone', async () => {
    serve();
    renderQuarantine('/mail');
    await waitFor(() => expect(screen.getAllByTestId('quarantine-row')).toHaveLength(2));
    const [spoofed, plain] = screen.getAllByTestId('quarantine-row') as [HTMLElement, HTMLElement];
    expect(within(spoofed).getByTestId('homograph-tag')).toHaveTextContent('Écritures mélangées');
    expect(within(spoofed).getByTestId('homograph-other-form')).toHaveTextContent(UNICODE);
    expect(within(plain).queryByTestId('homograph-note')).toBeNull();
  });

  it('on a phone the stacked cell carries it too', async () => {
    const restore = onPhoneScreen();
    try {
      serve();
      renderQuarantine('/mail');
      const cells = await screen.findAllByTestId('quarantine-summary');
      expect(within(cells[0]!).getByTestId('homograph-tag')).toBeInTheDocument();
      expect(within(cells[1]!).queryByTestId('homograph-tag')).toBeNull();
    } finally {
      restore();
    }
  });
});
