import type { NextFunction, Request, RequestHandler, Response } from 'express';
import helmet from 'helmet';
import { RECAPTCHA_CSP } from '../identity/captcha/captcha.service.js';
import { randomFrom } from '../infra/crypto/tokens.js';

/** The per-response CSP nonce (`res.locals.cspNonce`), also used to fill the shell's `__CSP_NONCE__`. */
export function cspNonce(res: Response): string {
  return String(res.locals.cspNonce);
}

const NONCE_BYTES = 16;

/** 16 fresh random bytes in base64 (from the CSPRNG's pool: one call to it per batch, not per response). */
function freshNonce(): string {
  return randomFrom(NONCE_BYTES).toString('base64');
}

/** Stands for the nonce while the headers are worked out once (no other part of them contains it). */
const NONCE_PLACEHOLDER = '__csp_nonce__';

/**
 * Google's origins for a response whose partner uses reCAPTCHA (`res.locals.recaptchaCsp`, set in app.ts), else
 * nothing: the CSP widens only for those partners (ADR 0014).
 */
function recaptchaOrigins(res: Response, origins: readonly string[]): string {
  return res.locals.recaptchaCsp === true ? origins.join(' ') : '';
}

/**
 * The headers that still mean something on a response a document runs as a script or applies as a stylesheet:
 * nosniff (the browser refuses a script or stylesheet of another type), who may embed it (CORP), the referrer
 * policy of what a stylesheet fetches, HSTS. The rest govern a document or a worker (CSP, framing, COOP, the
 * origin-keyed cluster, DNS prefetching, the legacy download/XSS/cross-domain switches) and were ≈ 640 B of every
 * script's answer, ≈ 6 KB of a sign-in page's (issue 10).
 */
const SUBRESOURCE_HEADERS = new Set([
  'x-content-type-options',
  'cross-origin-resource-policy',
  'referrer-policy',
  'strict-transport-security',
]);

/** Request destinations (`Sec-Fetch-Dest`) whose response is a document's script or stylesheet. */
const SUBRESOURCE_DESTINATIONS = new Set(['script', 'style']);

/**
 * Security headers on every response (S33): CSP of 'self' with a per-response script and style nonce and
 * frame-ancestors 'none', nosniff, Referrer-Policy no-referrer (pages carry tokens in URLs: S16), COOP
 * same-origin, HSTS only when the public URL is https. A request the browser says is for a document's script or
 * stylesheet (`Sec-Fetch-Dest`) gets only {@link SUBRESOURCE_HEADERS}, and `Vary: Sec-Fetch-Dest` so that a cache
 * never hands that answer to a worker or a document, which get the whole set.
 */
export function securityHeaders(options: { hsts: boolean }): RequestHandler {
  const helmetHeaders = helmetMiddleware(options);
  // Helmet's answer depends on the request only through the nonce and `recaptchaCsp`: run it once per variant
  // with a placeholder nonce and replay the headers, instead of a dozen middlewares per response.
  const variants = [false, true].map((recaptcha) => {
    const headers: [string, string[]][] = [];
    const res = {
      locals: { cspNonce: NONCE_PLACEHOLDER, recaptchaCsp: recaptcha },
      setHeader(name: string, value: string | number) {
        headers.push([name, String(value).split(NONCE_PLACEHOLDER)]);
      },
      removeHeader() {},
    };
    let done = false;
    void helmetHeaders({} as Request, res as unknown as Response, (error?: unknown) => {
      if (error) throw error instanceof Error ? error : new Error('helmet refused the configuration');
      done = true;
    });
    // Helmet calls back synchronously; if a version stopped doing so the replay would be incomplete.
    if (!done) throw new Error('helmet did not answer synchronously');
    return headers;
  });
  const subresource = variants.map((headers) =>
    headers.filter(([name]) => SUBRESOURCE_HEADERS.has(name.toLowerCase())),
  );
  return (req: Request, res: Response, next: NextFunction) => {
    const nonce = freshNonce();
    res.locals.cspNonce = nonce;
    res.removeHeader('X-Powered-By');
    const dest = req.headers['sec-fetch-dest'];
    if (typeof dest === 'string' && SUBRESOURCE_DESTINATIONS.has(dest)) {
      for (const [name, parts] of subresource[res.locals.recaptchaCsp === true ? 1 : 0]!) {
        res.setHeader(name, parts.join(nonce));
      }
      res.setHeader('Vary', 'Sec-Fetch-Dest');
      next();
      return;
    }
    for (const [name, parts] of variants[res.locals.recaptchaCsp === true ? 1 : 0]!) {
      res.setHeader(name, parts.length === 1 ? parts[0]! : parts.join(nonce));
    }
    next();
  };
}

/** Helmet configured for the gateway: the reference {@link securityHeaders} replays (tests compare them). */
export function helmetMiddleware(options: { hsts: boolean }): RequestHandler {
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: [
          "'self'",
          (_req, res) => `'nonce-${cspNonce(res as Response)}'`,
          (_req, res) => recaptchaOrigins(res as Response, RECAPTCHA_CSP.script),
        ],
        // No 'unsafe-inline': stylesheets are files, React style props and the partner colour go through the
        // CSSOM (not parsed style attributes), and the one inline <style> (the first HTML's partner colour,
        // render-shell-html.ts) carries the nonce. The shell build strips sonner's injected <style>.
        styleSrc: ["'self'", (_req, res) => `'nonce-${cspNonce(res as Response)}'`],
        imgSrc: ["'self'", 'data:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'", (_req, res) => recaptchaOrigins(res as Response, RECAPTCHA_CSP.connect)],
        frameSrc: ["'self'", (_req, res) => recaptchaOrigins(res as Response, RECAPTCHA_CSP.frame)],
        workerSrc: ["'self'"],
        manifestSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    crossOriginOpenerPolicy: { policy: 'same-origin' },
    crossOriginEmbedderPolicy: false,
    referrerPolicy: { policy: 'no-referrer' },
    strictTransportSecurity: options.hsts ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    xFrameOptions: { action: 'deny' },
  });
}
