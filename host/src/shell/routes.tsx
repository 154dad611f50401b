import { RequireRole, useSession } from '@qc/auth';
import { notify } from '@qc/ui-state';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, type RouteObject } from 'react-router-dom';
import { HostPage } from './HostPage';
import { ErrorPage } from './pages/ErrorPage';
import { NotFoundPage } from './pages/NotFoundPage';
import { ProtectedLayout } from './ProtectedLayout';
import { RemotePage } from './RemotePage';
import { ROUTES, type RouteEntry } from './route-table';

/**
 * Spec §2: a route needing a role the user lacks redirects to /dashboard, saying why (a bookmark
 * or a shared link otherwise seemed to lead nowhere).
 */
function RoleRedirect() {
  const { t } = useTranslation('host');
  const signedIn = useSession((s) => s.user !== null);
  useEffect(() => {
    if (signedIn) notify({ type: 'warning', title: t('layout.forbidden') });
  }, [signedIn, t]);
  return <Navigate to="/dashboard" replace />;
}

export function guarded(entry: RouteEntry) {
  return (
    <RequireRole role={entry.role} fallback={<RoleRedirect />}>
      {entry.page ? <HostPage key={entry.id} page={entry.page} /> : <RemotePage key={entry.id} entry={entry} />}
    </RequireRole>
  );
}

/** The protected area's routes, all from the one table; / → /dashboard; anything else → not found. */
export function buildRoutes(entries = ROUTES): RouteObject[] {
  return [
    {
      path: '/',
      element: <ProtectedLayout />,
      errorElement: <ErrorPage />,
      children: [
        {
          errorElement: <ErrorPage />,
          children: [
            { index: true, element: <Navigate to="/dashboard" replace /> },
            ...entries.map((entry) => ({ path: entry.path, element: guarded(entry) })),
            { path: '*', element: <NotFoundPage /> },
          ],
        },
      ],
    },
  ];
}
