import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import express, { Router, type Request, type Response } from 'express';
import { findRoute, isKnownPage, partnerLogoUrl, queryCarriesSecret, type RemoteId } from 'shared-contracts';
import type { Logger } from 'pino';
import type { FirstPaintPages, FirstPaintPartner } from './first-paint.js';
import { firstPaintShellHtml, renderShellHtml, type ShellHtmlValues } from './render-shell-html.js';
import { PRECOMPRESSED_SIBLING, sendPrecompressed } from './precompressed.js';
import { cspNonce } from './security-headers.js';

/** Paths the shell never answers (they belong to the API, the OIDC provider or the release store). */
const SERVER_PREFIXES = ['/api/', '/remotes/', '/connect/', '/.well-known/', '/interaction/'];

// Bundler output names carry a content hash (main.3f9a1c2b.js, 123.abcdef12.css): cache those for a year.
const HASHED_ASSET = /[.-][0-9a-f]{8,}\.[a-z0-9]+$/i;
// What the shell's build writes (`/sw.js`, `/assets/main.<hash>.js`): plain segments, no dot segment or dotfile, no
// escapes. Only such a path is looked up for a precompressed sibling; anything else goes to express.static as it is.
const SIMPLE_ASSET_PATH = /^(?:\/[A-Za-z0-9_-][A-Za-z0-9_.-]*)+$/;

/** Options of {@link shellRouter}. */
export interface ShellRouterOptions {
  shellDist: string;
  logger: Logger;
  /** The partner's title and colour for the first HTML of this request. */
  shellValues?: (req: Request) => Promise<Omit<ShellHtmlValues, 'nonce'>>;
  /**
   * The pages remotes drew at build time (sign-in) and the partner values they need: with both, such a page's
   * first HTML already shows it (docs/adr/0007-sign-in-first-paint.md); without, the root stays empty as before.
   */
  firstPaint?: {
    pages: FirstPaintPages;
    partner: (req: Request) => Promise<FirstPaintPartner>;
    /** The application a sign-in page's `returnUrl` goes on to, as LoginView names it (issue 49). */
    applicationName?: (returnUrl: string) => Promise<string | undefined>;
  };
  /**
   * Gives a browser that sent no session cookie its anonymous session with the page (nothing stored: an issued id).
   * The page's first calls then carry the same session; without it, calls sent at once (LoginView, Antiforgery,
   * AssertionOptions) each started a session of their own and the last cookie to arrive won over the others.
   */
  anonymousSession?: (req: Request, res: Response) => Promise<void>;
  /**
   * Gives a browser without a canary bucket its bucket with the page (http/remotes.router.ts `browserBucket`), before
   * the first paint is chosen: the page drawn, its count and the manifest asked next are of the same versions.
   */
  bucket?: (req: Request, res: Response) => void;
  /** A page a remote renders is served (GET): health per remote version counts it (ADR 0059). */
  pageLoad?: (req: Request, owner: RemoteId) => void;
}

/**
 * Serves the shell: hashed assets immutable, everything else `no-cache` (pages `private`); every page path answers index.html
 * (nonce filled in) with 200 when it is a route of the table and 404 otherwise, so the shell shows not-found.
 */
export function shellRouter(options: ShellRouterOptions): Router {
  const router = Router();
  const indexFile = path.join(options.shellDist, 'index.html');
  let cached: { mtimeMs: number; html: string; firstPaint?: string } | undefined;

  function readIndex(): string | undefined {
    try {
      const { mtimeMs } = statSync(indexFile);
      if (cached?.mtimeMs !== mtimeMs) cached = { mtimeMs, html: readFileSync(indexFile, 'utf8') };
      return cached.html;
    } catch {
      return undefined;
    }
  }

  /** index.html for a page drawn ahead: styles inline, scripts after the first paint (built once per index). */
  function firstPaintIndex(html: string): string {
    if (cached?.html !== html) return html;
    cached.firstPaint ??= firstPaintShellHtml(html, (href) => {
      try {
        return readFileSync(path.join(options.shellDist, href), 'utf8');
      } catch {
        return undefined;
      }
    });
    return cached.firstPaint;
  }

  if (readIndex() === undefined) {
    options.logger.warn(
      `shell not found at ${indexFile}: build it (npm run build) or set SHELL_DIST; the API keeps working`,
    );
  }

  const cacheControl = (file: string) =>
    HASHED_ASSET.test(path.basename(file)) ? 'public, max-age=31536000, immutable' : 'no-cache';
  const assets = express.static(options.shellDist, {
    index: false,
    dotfiles: 'ignore',
    setHeaders: (res, file) => res.setHeader('Cache-Control', cacheControl(file)),
  });

  router.use((req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    if (SERVER_PREFIXES.some((p) => req.path.startsWith(p))) return next();
    // index.html is only ever served filled in, never raw with its placeholder.
    if (req.path === '/index.html') return next();
    // A build's precompressed siblings are how its files travel, never files of their own (ADR 0026).
    if (PRECOMPRESSED_SIBLING.test(req.path)) return next();
    const file = SIMPLE_ASSET_PATH.test(req.path)
      ? path.join(options.shellDist, ...req.path.split('/'))
      : undefined;
    const sendAsset = () => void assets(req, res, next);
    if (file) sendPrecompressed(req, res, file, cacheControl(file), sendAsset);
    else sendAsset();
  });

  // A form of a page posted natively (the sign-in form before the app took over) goes back to the page with
  // a 303: nothing is read or kept from the body, and the password never lands in an address.
  router.post('/*splat', (req, res, next) => {
    if (SERVER_PREFIXES.some((p) => req.path.startsWith(p)) || !isKnownPage(req.path)) return next();
    res.redirect(303, req.originalUrl);
  });

  router.use(async (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    if (SERVER_PREFIXES.some((p) => req.path.startsWith(p))) return next();
    const last = req.path.split('/').pop() ?? '';
    if (last.includes('.') && req.path !== '/index.html') {
      if (carriesSecret(req)) res.set('Cache-Control', 'no-store');
      res.status(404).type('text/plain').send('Not Found');
      return;
    }
    const html = readIndex();
    if (html === undefined) {
      res
        .status(503)
        .type('text/plain')
        .set('Cache-Control', 'no-store')
        .send('The sign-in site is not built yet.');
      return;
    }
    try {
      if (isKnownPage(req.path)) options.bucket?.(req, res);
      const values: Omit<ShellHtmlValues, 'nonce'> = options.shellValues
        ? await options.shellValues(req)
        : {};
      if (options.firstPaint && isKnownPage(req.path)) {
        const returnUrl = typeof req.query.returnUrl === 'string' ? req.query.returnUrl : undefined;
        const [partner, applicationName] = await Promise.all([
          options.firstPaint.partner(req),
          // Only a line of the page: a failure to name the application leaves it out, as LoginView would.
          returnUrl ? options.firstPaint.applicationName?.(returnUrl).catch(() => undefined) : undefined,
        ]);
        const page = options.firstPaint.pages.forRequest(req, partner, applicationName);
        values.firstPaint = page;
        values.logoUrl = partner.hasLogo ? partnerLogoUrl(partner.partnerId) : undefined;
      }
      // The drawn page speaks the language the cookie or the browser asks for.
      if (values.firstPaint) res.vary('Accept-Language').vary('Cookie');
      await options.anonymousSession?.(req, res);
      const owner = req.method === 'GET' ? findRoute(req.path)?.owner : undefined;
      if (owner && owner !== 'shell') options.pageLoad?.(req, owner);
      res
        .status(isKnownPage(req.path) ? 200 : 404)
        // `private`: a page carries its own CSP nonce, and may carry a session cookie; no shared cache keeps it. A
        // page whose address carries a secret (shared-contracts' SECRET_QUERY_PARAMETERS: a reset, sign-in or e-mail
        // change link's token, a recovery-code set's id) is kept by no cache at all (issues 39 and 48, ADR 0044).
        .set('Cache-Control', carriesSecret(req) ? 'no-store' : 'private, no-cache')
        .type('html')
        .send(
          renderShellHtml(values.firstPaint ? firstPaintIndex(html) : html, {
            ...values,
            nonce: cspNonce(res),
          }),
        );
    } catch (error) {
      next(error);
    }
  });
  return router;
}

/** True when the page's address carries a secret (any spelling of the parameter's name, or in its returnUrl). */
function carriesSecret(req: Request): boolean {
  const start = req.originalUrl.indexOf('?');
  return start >= 0 && queryCarriesSecret(req.originalUrl.slice(start + 1));
}
