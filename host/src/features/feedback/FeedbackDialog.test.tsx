import { resetSessionForTests } from '@qc/auth';
import { useNotices } from '@qc/ui-state';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { jsonResponse, mockApi, renderPage, sendableFile, signIn } from '../../test-utils';
import { FeedbackButton } from './FeedbackButton';

const noticeTitles = () => useNotices.getState().notices.map((n) => `${n.type}:${n.title}`);
type User = ReturnType<typeof userEvent.setup>;

const png = (name: string, size = 1024) => sendableFile(['\x89PNG'], name, { type: 'image/png', size });

/** The floating button (eager) opens the lazy dialog. */
async function openDialog(user: User) {
  await user.click(screen.getByTestId('feedback-button'));
  return screen.findByRole('dialog', { name: 'Envoyer un avis' });
}

async function fillValid(user: User, dialog: HTMLElement, { email = '' }: { email?: string } = {}) {
  await user.click(within(dialog).getByText('Bug'));
  await user.click(within(dialog).getByLabelText('Message'));
  await user.paste('The release button does nothing.');
  if (email) {
    await user.click(within(dialog).getByLabelText(/e-mail de contact/));
    await user.paste(email);
  }
}

const fileInput = (dialog: HTMLElement) => dialog.querySelector<HTMLInputElement>('input[type="file"]')!;
const submit = (user: User, dialog: HTMLElement) => user.click(within(dialog).getByRole('button', { name: 'Envoyer' }));

beforeEach(() => {
  localStorage.clear();
  resetSessionForTests();
  useNotices.getState().clear();
  jest.restoreAllMocks();
  signIn();
});
afterEach(() => jest.useRealTimers());

describe('feedback button and dialog (spec §2–§5, §8, §9)', () => {
  it('the floating button is labelled and opens the dialog', async () => {
    mockApi(() => jsonResponse(500));
    renderPage(<FeedbackButton />);
    const button = screen.getByRole('button', { name: 'Envoyer un avis' });
    expect(button).toHaveAttribute('data-testid', 'feedback-button');
    const dialog = await openDialog(userEvent.setup());
    expect(within(dialog).getByRole('radiogroup', { name: 'Type' })).toBeInTheDocument();
    expect(within(dialog).getByTestId('feedback-dialog')).toHaveAttribute('data-status', 'open');
  });

  it('validates type (required), message (required, ≥ 10) and the optional e-mail; nothing is sent', async () => {
    const { calls } = mockApi(() => jsonResponse(201, { message: 'ok' }));
    renderPage(<FeedbackButton />);
    const user = userEvent.setup();
    const dialog = await openDialog(user);
    await submit(user, dialog);
    expect(await within(dialog).findByText('Veuillez sélectionner un type d’avis')).toBeInTheDocument();
    expect(within(dialog).getByText('Veuillez saisir un message')).toBeInTheDocument();

    await user.click(within(dialog).getByLabelText('Message'));
    await user.paste('   short  ');
    await user.click(within(dialog).getByLabelText(/e-mail de contact/));
    await user.paste('not-an-address');
    await submit(user, dialog);
    expect(await within(dialog).findByText('Le message doit contenir au moins 10 caractères')).toBeInTheDocument();
    expect(await within(dialog).findByText('Adresse e-mail invalide')).toBeInTheDocument();
    expect(calls).toEqual([]);
  });

  it('images: only image files, 5 MB each at most, 3 at most', async () => {
    mockApi(() => jsonResponse(201, { message: 'ok' }));
    renderPage(<FeedbackButton />);
    const user = userEvent.setup({ applyAccept: false });
    const dialog = await openDialog(user);
    const error = () => within(dialog).getByTestId('feedback-images-error');

    await user.upload(fileInput(dialog), sendableFile(['hello'], 'notes.txt', { type: 'text/plain' }));
    await waitFor(() => expect(error()).toHaveTextContent('Veuillez joindre uniquement des images'));

    await user.upload(fileInput(dialog), png('huge.png', 5 * 1024 * 1024 + 1));
    await waitFor(() => expect(error()).toHaveTextContent('Chaque image doit faire au plus 5 Mo'));
    expect(within(dialog).queryByText('huge.png')).not.toBeInTheDocument();

    await user.upload(fileInput(dialog), [png('a.png'), png('b.png'), png('c.png'), png('d.png', 5 * 1024 * 1024)]);
    await waitFor(() => expect(error()).toHaveTextContent('Vous pouvez joindre au plus 3 images'));
    for (const name of ['a.png', 'b.png', 'c.png']) expect(within(dialog).getByText(name)).toBeInTheDocument();
    expect(within(dialog).queryByText('d.png')).not.toBeInTheDocument();
  });

  it('sends a multipart form; success shows "Merci pour votre avis !", the dialog closes after 2 s, the notice lasts 4 s', async () => {
    const { calls } = mockApi(() => jsonResponse(201, { message: 'Thank you for your feedback!' }));
    const notify = jest.spyOn(useNotices.getState(), 'notify');
    renderPage(<FeedbackButton />);
    const user = userEvent.setup({ delay: null }); // no timer between keystrokes: the fake ones below stay still
    const dialog = await openDialog(user);
    await fillValid(user, dialog, { email: 'reporter@example.com' });
    await user.upload(fileInput(dialog), [png('shot.png'), png('second.png')]);
    // Fake timers from the send on: the 2 s and 4 s are checked to the millisecond, without waiting.
    jest.useFakeTimers();
    await submit(user, dialog);

    expect(await within(dialog).findByTestId('feedback-success')).toHaveTextContent('Merci pour votre avis !');
    expect(within(dialog).getByTestId('feedback-dialog')).toHaveAttribute('data-status', 'success');
    expect(noticeTitles()).toEqual(['success:Merci pour votre avis\u202f!']);
    expect(notify).toHaveBeenCalledWith(expect.objectContaining({ type: 'success', durationMs: 4000 }));

    const call = calls[0]!;
    expect(`${call.method} ${call.path}`).toBe('POST /api/feedback/');
    expect(call.authorization).toMatch(/^Bearer /);
    const form = call.form!;
    expect(form.get('type')).toBe('bug');
    expect(form.get('message')).toBe('The release button does nothing.');
    expect(form.get('email')).toBe('reporter@example.com');
    expect((form.get('image0') as File).name).toBe('shot.png');
    expect((form.get('image1') as File).name).toBe('second.png');
    expect(form.get('image2')).toBeNull();

    // Both timers started with the success: the dialog closes at 2 s, the notice goes at 4 s.
    await act(() => jest.advanceTimersByTimeAsync(1999));
    expect(within(dialog).getByTestId('feedback-dialog')).toHaveAttribute('data-status', 'success');
    await act(() => jest.advanceTimersByTimeAsync(1));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(noticeTitles()).toEqual(['success:Merci pour votre avis\u202f!']);
    await act(() => jest.advanceTimersByTimeAsync(1999)); // 3,999 ms since the success
    expect(noticeTitles()).toEqual(['success:Merci pour votre avis\u202f!']);
    await act(() => jest.advanceTimersByTimeAsync(1));
    expect(noticeTitles()).toEqual([]);
    // Reopened: a fresh form.
    const again = await openDialog(user);
    expect(within(again).getByLabelText('Message')).toHaveValue('');
    expect(within(again).queryByText('shot.png')).not.toBeInTheDocument();
  });

  it('400: the field messages are joined (translated when they are ours); the dialog stays with its values', async () => {
    mockApi(() =>
      jsonResponse(400, {
        detail: 'The request is not valid.',
        code: 'validation_error',
        errors: {
          message: 'Message must be at least 10 characters long',
          image0: 'Please upload only image files',
          x: 'Odd thing',
        },
      }),
    );
    renderPage(<FeedbackButton />);
    const user = userEvent.setup();
    const dialog = await openDialog(user);
    await fillValid(user, dialog);
    await submit(user, dialog);
    await waitFor(() =>
      expect(noticeTitles()).toEqual([
        'error:Le message doit contenir au moins 10 caractères; Veuillez joindre uniquement des images; Échec de l’envoi de l’avis. Veuillez réessayer.',
      ]),
    );
    expect(within(dialog).getByTestId('feedback-dialog')).toHaveAttribute('data-status', 'error');
    expect(within(dialog).getByLabelText('Message')).toHaveValue('The release button does nothing.');
  });

  it('413: file too large, with 5 MB', async () => {
    mockApi(() => jsonResponse(413, { detail: 'Payload too large', code: 'file_too_large' }));
    renderPage(<FeedbackButton />);
    const user = userEvent.setup();
    const dialog = await openDialog(user);
    await fillValid(user, dialog);
    await submit(user, dialog);
    await waitFor(() => expect(noticeTitles()).toEqual(['error:Chaque image doit faire au plus 5\u00a0Mo']));
  });

  it('another error: the server message, else the generic one; the error notice lasts 4 s', async () => {
    let answer = () => jsonResponse(500, { detail: 'Storage is full.', code: 'internal_error' });
    mockApi(() => answer());
    const notify = jest.spyOn(useNotices.getState(), 'notify');
    renderPage(<FeedbackButton />);
    const user = userEvent.setup();
    const dialog = await openDialog(user);
    await fillValid(user, dialog);
    await submit(user, dialog);
    await waitFor(() => expect(noticeTitles()).toEqual(['error:Erreur du serveur. Réessayez plus tard.']));
    expect(notify).toHaveBeenCalledWith(expect.objectContaining({ type: 'error', durationMs: 4000 }));

    answer = () => new Response('<html>bad gateway</html>', { status: 502, headers: { 'Content-Type': 'text/html' } });
    await submit(user, dialog);
    await waitFor(() => expect(noticeTitles()).toContain('error:Erreur du serveur. Réessayez plus tard.'));
  });

  it('no answer: "Could not contact the server…" (in French)', async () => {
    jest.spyOn(globalThis, 'fetch').mockRejectedValue(new TypeError('Failed to fetch'));
    renderPage(<FeedbackButton />);
    const user = userEvent.setup();
    const dialog = await openDialog(user);
    await fillValid(user, dialog);
    await submit(user, dialog);
    await waitFor(() =>
      expect(noticeTitles()).toEqual(['error:Impossible de contacter le serveur. Vérifiez votre connexion.']),
    );
  });
});
