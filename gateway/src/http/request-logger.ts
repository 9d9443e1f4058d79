import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Express, NextFunction, Request, RequestHandler, Response } from 'express';
import { pino, type Level, type Logger } from 'pino';

declare module 'node:http' {
  interface IncomingMessage {
    /** The request id: the caller's `X-Request-Id` when well-formed, else a random UUID (answered in the header). */
    id: string;
    /** The request's logger (its lines carry the request); made on first use. */
    log: Logger;
  }
}

const REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;
const OWN_LOG = Symbol('request log');

/** Options of {@link requestLogger}. */
export interface RequestLoggerOptions {
  /** Requests whose completion is never logged (probes). */
  ignore?: (req: IncomingMessage) => boolean;
  /** Called once per request when its response is done (finished or aborted), with when it started (ms). */
  onDone?: (res: ServerResponse, req: IncomingMessage, startedAt: number) => void;
}

/** The access log's middleware, and its per-request part for requests answered before Express (light-calls.ts). */
export type RequestLogger = RequestHandler & {
  /**
   * Logs the request under `id` as the middleware does: the `X-Request-Id` header, `req.id` and the `close`
   * listener. `req` must be a request of the app (its `log` getter), as the light-call lane's view of one is.
   */
  track(req: IncomingMessage, res: ServerResponse, id: string, start?: number): void;
};

/**
 * The access log of the gateway, with the line format of pino-http ("request completed" with `req`, `res`,
 * `responseTime`) but none of its per-request work unless a line is written: answered requests (2xx, 3xx) log at
 * debug, refusals (4xx) at info, faults (5xx) at error. At the default level a light call therefore costs a request
 * id, one `close` listener and a level check; the request's child logger (`req.log`, which serializes the request)
 * is only made when something logs through it.
 */
export function requestLogger(
  app: Express,
  logger: Logger,
  options: RequestLoggerOptions = {},
): RequestLogger {
  const { stdSerializers } = pino;
  const base = logger.child(
    {},
    {
      serializers: {
        req: stdSerializers.req,
        res: stdSerializers.res,
        err: stdSerializers.err,
      },
    },
  );
  const { ignore, onDone } = options;
  // `req.log` is a getter of the app's request prototype: nothing is made per request until a line is written.
  Object.defineProperty(app.request, 'log', {
    configurable: true,
    get(this: IncomingMessage & { [OWN_LOG]?: Logger }) {
      return (this[OWN_LOG] ??= base.child({ req: this }));
    },
    set(this: IncomingMessage & { [OWN_LOG]?: Logger }, value: Logger) {
      this[OWN_LOG] = value;
    },
  });

  /** Answers the request id, starts the clock and hangs the one `close` listener (log line and `onDone`). */
  const track = (req: IncomingMessage, res: ServerResponse, id: string, start = Date.now()): void => {
    res.setHeader('x-request-id', id);
    req.id = id;
    const skip = ignore?.(req) === true;
    res.once('close', () => {
      onDone?.(res, req, start);
      if (skip) return;
      const status = res.statusCode;
      // A 503 is an outage answered as such (Retry-After): DependencyHealth logs the outage once at warn, so its
      // requests are refusals here, not one error line each.
      const level: Level = status >= 500 && status !== 503 ? 'error' : status >= 400 ? 'info' : 'debug';
      if (!base.isLevelEnabled(level)) return;
      const fields = { res, responseTime: Date.now() - start };
      if (level === 'error') {
        req.log.error({ ...fields, err: new Error(`failed with status code ${status}`) }, 'request errored');
      } else {
        req.log[level](fields, res.writableFinished ? 'request completed' : 'request aborted');
      }
    });
  };
  const middleware = (req: Request, res: Response, next: NextFunction) => {
    track(req, res, requestIdOf(req));
    next();
  };
  return Object.assign(middleware, { track });
}

/** The request id of a request: the caller's `X-Request-Id` when well-formed, else a random UUID. */
export function requestIdOf(req: IncomingMessage): string {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
}
