// Async boundary: shared singletons are negotiated before any app code runs (DESIGN §3).
import('./bootstrap').catch((error: unknown) => {
  console.error('[host] the application could not start', error);
  const root = document.getElementById('root');
  if (root)
    root.textContent =
      'Quarantine Console could not start. Reload the page. / Impossible de démarrer la console. Rechargez la page.';
});
