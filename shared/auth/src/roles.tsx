import { roleSatisfies, type CurrentUser, type Role } from '@qc/contracts';
import type { ReactNode } from 'react';
import { useSession } from './session.store';

export { roleSatisfies };

export function hasRole(user: Pick<CurrentUser, 'role'> | null | undefined, required: Role): boolean {
  return roleSatisfies(user?.role, required);
}

export function useHasRole(required: Role): boolean {
  const role = useSession((s) => s.user?.role);
  return roleSatisfies(role, required);
}

export interface RequireRoleProps {
  role: Role;
  children: ReactNode;
  /** What to render without the role: the host passes `<Navigate to="/dashboard" replace />`
   * (this package stays router-free so it never pulls the router onto /login). */
  fallback?: ReactNode;
}

export function RequireRole({ role, children, fallback = null }: RequireRoleProps) {
  return useHasRole(role) ? <>{children}</> : <>{fallback}</>;
}
