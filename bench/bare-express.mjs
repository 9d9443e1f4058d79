// The "bare Express" bound: an Express 5 app that answers a tiny JSON hello to any request, with no middleware.
// It runs as its own process like the gateway, so the light-endpoint figures compare like with like: same
// framework, same loopback, same load settings; the ratio is what the gateway's own work costs.
// Run alone: `node bench/bare-express.mjs` (PORT env, default a free port); forked: it reports its port over IPC.
import express from 'express';

/** Starts the hello server on 127.0.0.1 and resolves its port. */
export function startBareExpress(port = 0) {
  const app = express();
  app.disable('x-powered-by');
  app.all('/{*splat}', (_req, res) => {
    res.json({ hello: 'world' });
  });
  return new Promise((resolve) => {
    const server = app.listen(port, '127.0.0.1', () => resolve({ server, port: server.address().port }));
  });
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  const { port } = await startBareExpress(Number(process.env.PORT ?? 0));
  if (process.send) process.send({ port });
  else console.log(`bare express listening on http://127.0.0.1:${port}`);
}
