import { PageLoading, retryableLazy } from '@qc/ui';
import { Suspense } from 'react';
import { Route, Routes } from 'react-router-dom';
import { EmailNotFound } from '../email/EmailNotFound';
import { QuarantinePage } from './Page';

// The detail (and its sanitiser) is a chunk of its own: the list never downloads it. Retryable: after
// a network loss the host boundary's Retry (or the next visit) downloads it again.
const EmailDetailPage = retryableLazy(() => import('../email/Page'));

/**
 * The `Quarantine` page group, mounted by the host at `mail/*` (one exposed module per page group,
 * DESIGN §3): `mail` → the list, `mail/{id}` → the e-mail detail.
 */
export function QuarantineRoutes() {
  return (
    <Routes>
      <Route index element={<QuarantinePage />} />
      <Route
        path=":id"
        element={
          <Suspense fallback={<PageLoading />}>
            <EmailDetailPage />
          </Suspense>
        }
      />
      <Route path="*" element={<EmailNotFound />} />
    </Routes>
  );
}
