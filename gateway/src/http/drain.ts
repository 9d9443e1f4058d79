import type { Server } from 'node:http';

/** Options of {@link Drain}. */
export interface DrainOptions {
  /** How long /readyz answers 503 before the listener closes (DRAIN_SECONDS): the balancer's health check interval
   * times its failure threshold, so it has taken the replica out before connections are refused. */
  drainMs: number;
  /** Longest wait for in-flight requests once the listener closed; then the caller exits anyway. */
  closeTimeoutMs?: number;
}

/**
 * A replica's orderly stop behind a balancer: on SIGTERM it first turns /readyz red while still answering every
 * request (new ones included: the balancer may send a few more until its next health check), then stops listening,
 * closes idle keep-alive connections and lets the requests in flight finish. Closing the listener at once, as a
 * bare `server.close()` does, refuses the requests the balancer still sends during its check interval (502s).
 */
export class Drain {
  private started: Promise<'closed' | 'timeout'> | undefined;

  constructor(private readonly options: DrainOptions) {}

  /** True from the start of the drain on (the app's /readyz answers 503). */
  readonly draining = (): boolean => this.started !== undefined;

  /** Drains then closes `server` (once, however often called); resolves when closed or when the wait ran out. */
  run(server: Server): Promise<'closed' | 'timeout'> {
    this.started ??= (async () => {
      if (this.options.drainMs > 0) await new Promise((resolve) => setTimeout(resolve, this.options.drainMs));
      return new Promise<'closed' | 'timeout'>((resolve) => {
        const timer = setTimeout(() => resolve('timeout'), this.options.closeTimeoutMs ?? 10_000);
        timer.unref();
        server.close(() => {
          clearTimeout(timer);
          resolve('closed');
        });
        // Keep-alive connections with no request in flight would otherwise hold the close until they time out.
        server.closeIdleConnections();
      });
    })();
    return this.started;
  }
}
