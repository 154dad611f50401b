import { usePreferences } from '@qc/ui-state';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { loadRemotes } from './app/remotes';
import { ssoTicket } from './features/login/sso/sso-address';
import { registerHostNamespace } from './i18n';

ssoTicket(); // a single sign-on ticket leaves the address bar (and the history) before anything else
registerHostNamespace();
usePreferences.getState().reload(); // theme before the first paint
void loadRemotes(); // in parallel: the shell waits for it before loading a remote

const container = document.getElementById('root');
if (!container) throw new Error('#root is missing from index.html');
createRoot(container).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
