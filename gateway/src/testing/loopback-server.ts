/** An HTTP server on a free loopback port, for tests that need real URLs (redirects, back-channel calls). */
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A listening server and its origin (`http://127.0.0.1:<port>`). */
export interface LoopbackServer {
  server: Server;
  origin: string;
  /** Drops open connections (keep-alive fetches) and stops listening. */
  close(): Promise<void>;
}

/** Listens on 127.0.0.1 with a free port; `handler` may also be attached later with `server.on('request', …)`. */
export async function listenOnLoopback(handler?: RequestListener): Promise<LoopbackServer> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    server,
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
