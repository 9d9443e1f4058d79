/** Starts the payroll portal: `npm start -w payroll-portal` (after `npm run build -w payroll-portal`). */
import { createPortalApp } from './portal-app.js';
import { loadPortalConfig } from './portal-config.js';

let config;
try {
  config = loadPortalConfig();
} catch (error) {
  process.stderr.write(`payroll-portal: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
const { app } = createPortalApp(config);
const server = app.listen(config.port, () => {
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  // The e2e helper waits for this line.
  process.stdout.write(`payroll-portal listening on http://localhost:${port} (issuer ${config.issuer})\n`);
});
