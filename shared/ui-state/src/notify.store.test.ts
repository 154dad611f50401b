import { NOTIFICATION_CONFIG, notify, setDefaultNoticeDurationForTests, useNotices } from './notify.store';

const titles = () => useNotices.getState().notices.map((n) => n.title);

// The other component tests keep notices a minute (test/setup-web.ts): here, the spec's 5 s.
beforeAll(() => setDefaultNoticeDurationForTests(NOTIFICATION_CONFIG.durationMs));
afterAll(() => setDefaultNoticeDurationForTests(60_000));

beforeEach(() => {
  jest.useFakeTimers();
  useNotices.getState().clear();
});
afterEach(() => jest.useRealTimers());

describe('notify() bus (spec §8)', () => {
  it('shows the same type + title only once within its lifetime', () => {
    expect(notify({ type: 'error', title: 'Échec' })).not.toBeNull();
    expect(notify({ type: 'error', title: 'Échec' })).toBeNull();
    expect(titles()).toEqual(['Échec']);
    // A different type with the same title is another notice.
    notify({ type: 'info', title: 'Échec' });
    expect(titles()).toEqual(['Échec', 'Échec']);
  });

  it('the same title with another description is another notice (a second failure for a new reason)', () => {
    notify({ type: 'error', title: 'Erreur lors de la suppression', description: 'Serveur injoignable' });
    expect(
      notify({ type: 'error', title: 'Erreur lors de la suppression', description: 'Serveur injoignable' }),
    ).toBeNull();
    notify({ type: 'error', title: 'Erreur lors de la suppression', description: 'Déjà libéré' });
    expect(useNotices.getState().notices.map((n) => n.description)).toEqual(['Serveur injoignable', 'Déjà libéré']);
  });

  it('a repeated notice is not shown twice, but its 5 s start over and it is the last to be pushed out', () => {
    notify({ type: 'error', title: 'Échec' });
    notify({ title: 'other' });
    jest.advanceTimersByTime(4_000);
    expect(notify({ type: 'error', title: 'Échec' })).toBeNull();
    expect(titles()).toEqual(['other', 'Échec']);
    jest.advanceTimersByTime(4_999);
    expect(titles()).toEqual(['Échec']);
    jest.advanceTimersByTime(1);
    expect(titles()).toEqual([]);
  });

  it('keeps at most 3: a 4th evicts the oldest', () => {
    for (const t of ['one', 'two', 'three', 'four']) notify({ title: t });
    expect(NOTIFICATION_CONFIG.maxCount).toBe(3);
    expect(titles()).toEqual(['two', 'three', 'four']);
  });

  it('hides each notice after 5 s, after which it may be shown again', () => {
    notify({ type: 'success', title: 'Connexion réussie' });
    jest.advanceTimersByTime(4_999);
    expect(titles()).toEqual(['Connexion réussie']);
    jest.advanceTimersByTime(1);
    expect(titles()).toEqual([]);
    expect(notify({ type: 'success', title: 'Connexion réussie' })).not.toBeNull();
  });

  it('a notice may ask for its own lifetime (feedback: 4 s)', () => {
    notify({ type: 'success', title: 'Merci', durationMs: 4_000 });
    notify({ type: 'info', title: 'Default' });
    jest.advanceTimersByTime(3_999);
    expect(titles()).toEqual(['Merci', 'Default']);
    jest.advanceTimersByTime(1);
    expect(titles()).toEqual(['Default']);
    jest.advanceTimersByTime(1_000);
    expect(titles()).toEqual([]);
  });

  it('closing (dismiss) removes it at once', () => {
    const key = notify({ title: 'x' })!;
    useNotices.getState().dismiss(key);
    expect(titles()).toEqual([]);
  });

  it('defaults to info and keeps plain data only', () => {
    notify({ title: 'Plain', description: 'Details' });
    expect(useNotices.getState().notices[0]).toMatchObject({ type: 'info', title: 'Plain', description: 'Details' });
  });
});
