import { usePreferences } from '@qc/ui-state';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { loadRemotes } from './app/remotes';
import { registerHostNamespace } from './i18n';

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
