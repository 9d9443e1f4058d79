import { createServer, IncomingMessage, ServerResponse, type Server } from 'node:http';
import type { Express } from 'express';

/**
 * The gateway's HTTP server: Node's server with request and response classes whose prototypes are the app's own
 * (`app.request`, `app.response`), so every request and response is born as the object Express makes of it.
 *
 * Express's entry turns Node's request and response into its own by `Object.setPrototypeOf` on each, every request.
 * V8 then gives both objects new hidden classes, and every later property access of Node's own HTTP code (the parser's
 * callbacks, the body stream, `writeHead`, the socket write) meets shapes its inline caches have not seen: on this
 * machine kind that was most of what Express cost a request. Born with the prototype, the call changes nothing (V8
 * returns at once when the prototype is already the one asked for), and the objects keep one shape from the start.
 * Main-thread instructions per password sign-in (`bench/sign-in-instructions.mjs`): 4.03 M → 2.74 M.
 *
 * Node's `IncomingMessage` and `ServerResponse` are constructor functions, so a function with the app's prototype
 * that calls them on its new object builds exactly what Node would, only with another prototype chain (the app's
 * request prototype → Express's → Node's). Requests that the light-call lane answers (ADR 0027) never enter Express
 * and are served the same way.
 */
export function createAppServer(app: Express): Server {
  const Request = function (this: IncomingMessage, ...args: unknown[]) {
    (IncomingMessage as unknown as (this: IncomingMessage, ...a: unknown[]) => void).apply(this, args);
  } as unknown as typeof IncomingMessage;
  Request.prototype = app.request;
  const Response = function (this: ServerResponse, ...args: unknown[]) {
    (ServerResponse as unknown as (this: ServerResponse, ...a: unknown[]) => void).apply(this, args);
  } as unknown as typeof ServerResponse;
  Response.prototype = app.response;
  return createServer({ IncomingMessage: Request, ServerResponse: Response }, app);
}
