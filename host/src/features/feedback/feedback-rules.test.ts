import { FEEDBACK_MESSAGES } from '@qc/contracts';
import { HTTPError, NetworkError, TimeoutError } from 'ky';
import { i18next } from '@qc/i18n';
import { registerShellStrings } from '../../i18n/shell';
import { feedbackErrorMessage } from './feedback-rules';

function httpError(status: number, data?: unknown) {
  const error = new HTTPError(
    new Response(null, { status }),
    new Request('http://localhost/api/feedback/'),
    {} as never,
  );
  (error as { data: unknown }).data = data;
  return error;
}

beforeAll(() => registerShellStrings());

describe('feedback failure messages (spec §8)', () => {
  const en = () => i18next.getFixedT('en', 'host');
  const message = (e: unknown) => feedbackErrorMessage(e, en(), en());

  it('400 → the field messages joined', () => {
    expect(
      message(httpError(400, { errors: { type: 'Please select a feedback type', email: 'Invalid email format' } })),
    ).toBe('Please select a feedback type; Invalid email format');
  });

  it("the API's field messages, every one of them, are shown in French", () => {
    const fr = i18next.getFixedT('fr', 'host');
    const errors = Object.fromEntries(Object.entries(FEEDBACK_MESSAGES).filter(([key]) => key !== 'thanks'));
    const shown = feedbackErrorMessage(httpError(400, { errors }), fr, en()).split('; ');
    expect(shown).toHaveLength(Object.keys(errors).length);
    for (const text of Object.values(errors)) expect(shown).not.toContain(text);
    expect(shown).toContain('Chaque image doit faire au plus 40 mégapixels');
  });

  it('413 → file too large, with 5 MB; 429 → too many requests', () => {
    expect(message(httpError(413, { detail: 'x', code: 'file_too_large' }))).toBe('Each image must be at most 5 MB');
    expect(message(httpError(429, { detail: 'Too much feedback sent.', code: 'rate_limited' }))).toBe(
      'Too many requests. Try again in a moment.',
    );
  });

  it('another answer → a translated text, never the server\'s words: 5xx → server error, else "Failed to submit feedback…"', () => {
    expect(message(httpError(500, { detail: 'Disk full.', code: 'internal_error' }))).toBe(
      'Server error. Try again later.',
    );
    expect(message(httpError(503, { detail: 'The database is not answering.', code: 'database_unavailable' }))).toBe(
      'The service is temporarily unavailable. Please try again in a few moments.',
    );
    expect(message(httpError(415, { detail: 'Send the feedback as multipart/form-data.', code: 'x' }))).toBe(
      'Failed to submit feedback. Please try again.',
    );
    expect(message(httpError(400, { errors: { image5: 'Unexpected file.' } }))).toBe(
      'Failed to submit feedback. Please try again.',
    );
    expect(message(httpError(400, { detail: '', errors: {} }))).toBe('Failed to submit feedback. Please try again.');
  });

  it('no answer or the 30 s timeout → "Could not contact the server. Please check your connection."', () => {
    const request = new Request('http://localhost/api/feedback/');
    expect(message(new NetworkError(request, { cause: new TypeError('Failed to fetch') }))).toBe(
      'Could not contact the server. Please check your connection.',
    );
    expect(message(new TimeoutError(request))).toBe('Could not contact the server. Please check your connection.');
    expect(message(new Error('something else'))).toBe('Failed to submit feedback. Please try again.');
  });
});
