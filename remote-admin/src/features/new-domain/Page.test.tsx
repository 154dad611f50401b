import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  currentLocation,
  domain,
  domainDetail,
  jsonResponse,
  mockApi,
  noticeTitles,
  renderDomains,
  signInAs,
  type ApiCall,
} from '../../test-utils';

const posts = (calls: ApiCall[]) => calls.filter((c) => c.method === 'POST' && c.path === '/api/domains/');
const errorOf = (label: string) =>
  screen.getByLabelText(label).closest('.ant-form-item')!.querySelector('.ant-form-item-explain')?.textContent ?? '';

function api(refusal?: { status: number; body: unknown }) {
  return mockApi((call) => {
    if (call.method === 'POST' && call.path === '/api/domains/')
      return refusal
        ? jsonResponse(refusal.status, refusal.body)
        : jsonResponse(201, domain({ id: 'd9', name: 'xn--caf-dma.fr', display_name: 'café.fr' }));
    if (call.path === '/api/domains/d9/') return jsonResponse(200, domainDetail({ id: 'd9', users: [] }));
    return jsonResponse(404, { detail: 'Not found.', code: 'not_found' });
  });
}

beforeEach(() => {
  jest.restoreAllMocks();
  signInAs('admin');
});

describe('new domain', () => {
  it('the name is required; an IDN is sent as typed (the API normalises it); then the domain’s page', async () => {
    const { calls } = api();
    renderDomains('/domains/new');
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByRole('button', { name: 'Créer le domaine' }));
    await waitFor(() => expect(errorOf('Nom de domaine')).toBe('Le nom de domaine est obligatoire'));
    expect(posts(calls)).toEqual([]);
    await user.type(screen.getByLabelText('Nom de domaine'), 'café.fr');
    await user.type(screen.getByLabelText('Description'), 'Le café');
    await user.click(screen.getByRole('button', { name: 'Créer le domaine' }));
    await waitFor(() => expect(posts(calls)).toHaveLength(1));
    expect(posts(calls)[0]!.body).toEqual({ name: 'café.fr', description: 'Le café' });
    await waitFor(() => expect(currentLocation()).toBe('/domains/d9'));
    expect(noticeTitles()).toEqual(['success: Domaine créé']);
  });

  it('the API’s refusals on the name field: invalid (400 errors.name) and taken (409 domain_taken)', async () => {
    api({
      status: 400,
      body: { detail: 'Invalid request', code: 'validation_error', errors: { name: 'Invalid domain name' } },
    });
    const { unmount } = renderDomains('/domains/new');
    const user = userEvent.setup({ delay: null });
    await user.type(await screen.findByLabelText('Nom de domaine'), 'bad..name');
    await user.click(screen.getByRole('button', { name: 'Créer le domaine' }));
    await waitFor(() => expect(errorOf('Nom de domaine')).toBe('Nom de domaine invalide'));
    unmount();

    jest.restoreAllMocks();
    api({ status: 409, body: { detail: 'A domain of that name exists.', code: 'domain_taken' } });
    renderDomains('/domains/new');
    await user.type(await screen.findByLabelText('Nom de domaine'), 'a.example');
    await user.click(screen.getByRole('button', { name: 'Créer le domaine' }));
    await waitFor(() => expect(errorOf('Nom de domaine')).toBe('Un domaine de ce nom existe déjà'));
    expect(currentLocation()).toBe('/domains/new');
  });
});
