// The async boundary the federation runtime needs: shared singletons are negotiated before any app code runs.
import('./bootstrap').catch((error: unknown) => {
  // Nothing rendered yet: show a plain message rather than a blank page.
  document.body.textContent = 'The site could not start. Please reload the page.';
  console.error(error);
});
