import { RequireRole } from '@qc/auth';
import { Navigate, type RouteObject } from 'react-router-dom';
import { HostPage } from './HostPage';
import { ErrorPage } from './pages/ErrorPage';
import { NotFoundPage } from './pages/NotFoundPage';
import { ProtectedLayout } from './ProtectedLayout';
import { RemotePage } from './RemotePage';
import { ROUTES, type RouteEntry } from './route-table';

/** Spec §2: a route needing a role the user lacks redirects to /dashboard. */
export function guarded(entry: RouteEntry) {
  return (
    <RequireRole role={entry.role} fallback={<Navigate to="/dashboard" replace />}>
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
