import { resetSessionForTests, useSession } from '@qc/auth';
import type { CurrentUser } from '@qc/contracts';
import { screen, within } from '@testing-library/react';
import { emailDetail, jsonResponse, listItem, mockApi, renderQuarantine } from '../../test-utils';

const UUID = 'B7F0A1C2-1D2E-4F50-8A9B-0C1D2E3F4A5B.1';
const RETRY = 'C8A1B2D3-2E3F-4A51-9B0C-1D2E3F4A5B6C.1';
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

async function openAs(role: CurrentUser['role']) {
  resetSessionForTests();
  useSession.setState({ user: { ...ME, role }, isAuthenticated: true, isLoading: false });
  mockApi((call) =>
    call.path === '/api/quarantine/m1/'
      ? jsonResponse(200, emailDetail({ uuid: UUID, retry_uuids: [RETRY] }))
      : jsonResponse(200, { results: [listItem()], next_cursor: null }),
  );
  renderQuarantine('/mail/m1');
  return screen.findByTestId('email-field-uuid');
}

beforeEach(() => jest.restoreAllMocks());

describe('the Haraka uuid of an e-mail (issue 19)', () => {
  it('is a link to its Haraka logs for an admin', async () => {
    const field = await openAs('admin');
    expect(within(field).getByRole('link', { name: UUID })).toHaveAttribute('href', `/haraka/logs/${UUID}`);
    // A sender's retry matched to this copy: its own uuid, to its own lines.
    expect(field).toHaveTextContent('nouvel essai');
    expect(within(field).getByRole('link', { name: RETRY })).toHaveAttribute('href', `/haraka/logs/${RETRY}`);
  });

  it.each(['user', 'domain_admin'] as const)('is text for a %s (the Haraka pages are admin only)', async (role) => {
    const field = await openAs(role);
    expect(field).toHaveTextContent(UUID);
    expect(field).toHaveTextContent(RETRY);
    expect(within(field).queryByRole('link')).toBeNull();
    expect(screen.queryByTestId('email-haraka-logs')).toBeNull();
  });
});
