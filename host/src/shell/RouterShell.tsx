import ConfigProvider from 'antd/es/config-provider';
import enUS from 'antd/es/locale/en_US';
import frFR from 'antd/es/locale/fr_FR';
import { QueryClientProvider } from '@tanstack/react-query';
import { useLayoutEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import { registerShellStrings } from '../i18n/shell';
import { clearOnSessionChange, createQueryClient } from './query-client';
import { buildRoutes } from './routes';

// The protected pages' texts come with this chunk, not with /login.
registerShellStrings();

type Router = ReturnType<typeof createBrowserRouter>;

// One router and one QueryClient per page, created when the shell is first shown and reused after
// a sign-out/sign-in (the router is re-synced with the URL the login switch chose).
let router: Router | null = null;
export const queryClient = createQueryClient();
clearOnSessionChange(queryClient);

function getRouter(): Router {
  if (!router) router = createBrowserRouter(buildRoutes());
  return router;
}

/** After a sign-out/sign-in the URL was changed outside the router: follow it. */
function syncWithUrl(r: Router) {
  const here = `${window.location.pathname}${window.location.search}${window.location.hash}`;
  const loc = r.state.location;
  if (`${loc.pathname}${loc.search}${loc.hash}` !== here) void r.navigate(here, { replace: true });
}

/** The lazy protected shell: react-query, antd locale, the data router (for errorElement). */
export default function RouterShell() {
  const { i18n } = useTranslation();
  const r = getRouter();
  useLayoutEffect(() => syncWithUrl(r), [r]);
  return (
    <QueryClientProvider client={queryClient}>
      <ConfigProvider locale={i18n.resolvedLanguage === 'en' ? enUS : frFR}>
        <RouterProvider router={r} />
      </ConfigProvider>
    </QueryClientProvider>
  );
}
