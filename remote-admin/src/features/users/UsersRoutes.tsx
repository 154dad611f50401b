import { PageLoading, retryableLazy } from '@qc/ui';
import { Suspense, type ReactNode } from 'react';
import { Route, Routes } from 'react-router-dom';
import { UsersPage } from './Page';

// The form pages are chunks of their own: the list never downloads them. Retryable: after a
// network loss the host boundary's Retry (or the next visit) downloads them again.
const NewUserPage = retryableLazy(() => import('../new-user/Page'));
const UserPage = retryableLazy(() => import('../user/Page'));
const UserNotFound = retryableLazy(() => import('../user/Page').then((m) => ({ default: m.UserNotFound })));

const lazyPage = (page: ReactNode) => <Suspense fallback={<PageLoading />}>{page}</Suspense>;

/**
 * The `Users` page group, mounted by the host at `users/*` (DESIGN §3): `users` → the list,
 * `users/new` → a new user, `users/{id}` → the user; anything deeper is not found.
 */
export function UsersRoutes() {
  return (
    <Routes>
      <Route index element={<UsersPage />} />
      <Route path="new" element={lazyPage(<NewUserPage />)} />
      <Route path=":id" element={lazyPage(<UserPage />)} />
      <Route path="*" element={lazyPage(<UserNotFound />)} />
    </Routes>
  );
}
