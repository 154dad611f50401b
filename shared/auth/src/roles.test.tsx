import { render, screen } from '@testing-library/react';
import { hasRole, RequireRole, roleSatisfies } from './roles';
import { useSession } from './session.store';
import { USER } from './test-utils/http';

describe('role predicates (spec §6)', () => {
  it('admin passes everything, domain_admin passes domain_admin and user, user only user', () => {
    expect(roleSatisfies('admin', 'admin')).toBe(true);
    expect(roleSatisfies('admin', 'domain_admin')).toBe(true);
    expect(roleSatisfies('domain_admin', 'user')).toBe(true);
    expect(roleSatisfies('domain_admin', 'admin')).toBe(false);
    expect(roleSatisfies('user', 'domain_admin')).toBe(false);
    expect(roleSatisfies('user', 'user')).toBe(true);
  });

  it('a missing user or role counts as user', () => {
    expect(hasRole(null, 'user')).toBe(true);
    expect(hasRole(null, 'domain_admin')).toBe(false);
  });
});

describe('<RequireRole>', () => {
  it('renders the children when the role is satisfied, the fallback otherwise', () => {
    useSession.setState({ user: { ...USER, role: 'domain_admin' }, isAuthenticated: true });
    const { rerender } = render(
      <RequireRole role="domain_admin" fallback={<p>redirected</p>}>
        <p>users page</p>
      </RequireRole>,
    );
    expect(screen.getByText('users page')).toBeInTheDocument();
    rerender(
      <RequireRole role="admin" fallback={<p>redirected</p>}>
        <p>domains page</p>
      </RequireRole>,
    );
    expect(screen.queryByText('domains page')).not.toBeInTheDocument();
    expect(screen.getByText('redirected')).toBeInTheDocument();
  });
});
