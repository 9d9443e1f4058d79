/**
 * The payroll portal: a relying party of the identity service, as small as a real one can be. Authorization code
 * with PKCE, state and nonce (openid-client does the checks), name and roles read from the ID token, RP-initiated
 * logout with id_token_hint, and back-channel logout (OpenID Connect Back-Channel Logout 1.0) ending the local
 * session when the user signs out anywhere.
 */
import { randomBytes } from 'node:crypto';
import express, { type Express, type Request, type Response } from 'express';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import * as oidc from 'openid-client';
import { signedInPage, signedOutPage } from './pages.js';
import type { PortalConfig } from './portal-config.js';

const SESSION_COOKIE = 'portal.session';
const TRANSACTION_COOKIE = 'portal.login';
const BACKCHANNEL_EVENT = 'http://schemas.openid.net/event/backchannel-logout';

interface PortalSession {
  sub: string;
  /** The identity service's session id for us (ID token `sid`), matched by back-channel logout. */
  sid: string | undefined;
  name: string;
  email: string | undefined;
  roles: string[];
  /** The customer the user chose to work in (ID token `customer` claim), when the identity service sent one. */
  customer: { id: string; name: string } | undefined;
  idToken: string;
}

interface LoginTransaction {
  codeVerifier: string;
  state: string;
  nonce: string;
  createdAt: number;
}

function readCookie(req: Request, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return rest.join('=');
  }
  return undefined;
}

function cookieOptions(config: PortalConfig): express.CookieOptions {
  return { httpOnly: true, sameSite: 'lax', path: '/', secure: config.redirectUri.startsWith('https:') };
}

/** The `customer` claim `{id, name}` when it has that shape; anything else is ignored. */
export function customerOf(claim: unknown): { id: string; name: string } | undefined {
  if (typeof claim !== 'object' || claim === null) return undefined;
  const { id, name } = claim as Record<string, unknown>;
  return typeof id === 'string' && typeof name === 'string' ? { id, name } : undefined;
}

/** The portal's Express app and its session table (exposed for tests). */
export interface PortalApp {
  app: Express;
  sessions: Map<string, PortalSession>;
}

/** Builds the portal. Discovery happens on first use, so the portal may start before the identity service. */
export function createPortalApp(config: PortalConfig): PortalApp {
  const sessions = new Map<string, PortalSession>();
  const transactions = new Map<string, LoginTransaction>();
  const seenLogoutTokens = new Map<string, number>();
  let discovered: Promise<oidc.Configuration> | undefined;

  const configuration = (): Promise<oidc.Configuration> => {
    discovered ??= oidc
      .discovery(
        new URL(config.issuer),
        config.clientId,
        config.clientSecret ? { client_secret: config.clientSecret } : undefined,
        config.clientSecret ? oidc.ClientSecretBasic(config.clientSecret) : oidc.None(),
        // The demo runs the identity service on http://localhost; production issuers are https only.
        config.issuer.startsWith('http:') ? { execute: [oidc.allowInsecureRequests] } : undefined,
      )
      .catch((error: unknown) => {
        discovered = undefined;
        throw error;
      });
    return discovered;
  };

  const app = express();
  app.disable('x-powered-by');
  app.use((_req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader(
      'Content-Security-Policy',
      "default-src 'none'; form-action 'self'; frame-ancestors 'none'",
    );
    res.setHeader('X-Content-Type-Options', 'nosniff');
    next();
  });

  app.get('/', (req, res) => {
    const session = sessions.get(readCookie(req, SESSION_COOKIE) ?? '');
    res.type('html').send(session ? signedInPage(session) : signedOutPage());
  });

  /** Starts an authorization; `prompt` asks the identity service for something more (e.g. `select_account`). */
  const authorize = async (res: Response, prompt?: string) => {
    const server = await configuration();
    const transaction: LoginTransaction = {
      codeVerifier: oidc.randomPKCECodeVerifier(),
      state: oidc.randomState(),
      nonce: oidc.randomNonce(),
      createdAt: Date.now(),
    };
    const id = randomBytes(16).toString('base64url');
    transactions.set(id, transaction);
    res.cookie(TRANSACTION_COOKIE, id, { ...cookieOptions(config), maxAge: 10 * 60_000 });
    const url = oidc.buildAuthorizationUrl(server, {
      redirect_uri: config.redirectUri,
      scope: 'openid profile email roles',
      code_challenge: await oidc.calculatePKCECodeChallenge(transaction.codeVerifier),
      code_challenge_method: 'S256',
      state: transaction.state,
      nonce: transaction.nonce,
      ...(prompt ? { prompt } : {}),
    });
    res.redirect(303, url.href);
  };

  app.get('/login', async (_req, res) => {
    await authorize(res);
  });

  // Switching customer: the identity service shows its customer selection to the signed-in user (ADR 0009), then
  // the callback replaces this session with the new tokens.
  app.get('/switch-customer', async (_req, res) => {
    await authorize(res, 'select_account');
  });

  // A silent sign-in (OIDC prompt=none): signed in at the identity service → straight back signed in; otherwise
  // the identity service answers login_required to the callback without showing anything.
  app.get('/silent-login', async (_req, res) => {
    await authorize(res, 'none');
  });

  app.get('/callback', async (req, res) => {
    const id = readCookie(req, TRANSACTION_COOKIE) ?? '';
    const transaction = transactions.get(id);
    transactions.delete(id);
    res.clearCookie(TRANSACTION_COOKIE, cookieOptions(config));
    if (!transaction || Date.now() - transaction.createdAt > 10 * 60_000) {
      res.status(400).type('html').send(signedOutPage('The sign-in took too long or was not started here.'));
      return;
    }
    const server = await configuration();
    const currentUrl = new URL(req.originalUrl, config.redirectUri);
    let tokens: Awaited<ReturnType<typeof oidc.authorizationCodeGrant>>;
    try {
      tokens = await oidc.authorizationCodeGrant(server, currentUrl, {
        pkceCodeVerifier: transaction.codeVerifier,
        expectedState: transaction.state,
        expectedNonce: transaction.nonce,
        idTokenExpected: true,
      });
    } catch (error) {
      // An error the identity service sent back (login_required after prompt=none) is named by its code.
      const code = (error as { error?: unknown } | undefined)?.error;
      const message =
        typeof code === 'string' ? code : error instanceof Error ? error.message : 'sign-in failed';
      res
        .status(400)
        .type('html')
        .send(signedOutPage(`Sign-in failed: ${message}`));
      return;
    }
    const claims = tokens.claims()!;
    const roles = Array.isArray(claims.roles)
      ? claims.roles.filter((r): r is string => typeof r === 'string')
      : [];
    const sessionId = randomBytes(32).toString('base64url');
    sessions.set(sessionId, {
      sub: claims.sub,
      sid: typeof claims.sid === 'string' ? claims.sid : undefined,
      name: typeof claims.name === 'string' ? claims.name : claims.sub,
      email: typeof claims.email === 'string' ? claims.email : undefined,
      roles,
      customer: customerOf(claims.customer),
      idToken: tokens.id_token!,
    });
    res.cookie(SESSION_COOKIE, sessionId, cookieOptions(config));
    res.redirect(303, '/');
  });

  app.get('/logout', async (req, res) => {
    const sessionId = readCookie(req, SESSION_COOKIE) ?? '';
    const session = sessions.get(sessionId);
    // The local session ends first: whatever happens at the identity service, this browser is signed out here.
    sessions.delete(sessionId);
    res.clearCookie(SESSION_COOKIE, cookieOptions(config));
    if (!session) {
      res.redirect(303, '/');
      return;
    }
    const server = await configuration();
    const url = oidc.buildEndSessionUrl(server, {
      id_token_hint: session.idToken,
      post_logout_redirect_uri: config.postLogoutRedirectUri,
    });
    res.redirect(303, url.href);
  });

  // OpenID Connect Back-Channel Logout 1.0 §2.6: validate the logout token, then end the matching sessions.
  app.post(
    '/backchannel-logout',
    express.urlencoded({ extended: false, limit: '16kb' }),
    async (req, res) => {
      const body = req.body as Record<string, unknown> | undefined;
      const logoutToken = typeof body?.logout_token === 'string' ? body.logout_token : undefined;
      if (!logoutToken) {
        res.status(400).json({ error: 'invalid_request', error_description: 'logout_token missing' });
        return;
      }
      try {
        const server = await configuration();
        const metadata = server.serverMetadata();
        const jwks = createRemoteJWKSet(new URL(metadata.jwks_uri!));
        const { payload } = await jwtVerify(logoutToken, jwks, {
          issuer: metadata.issuer,
          audience: config.clientId,
          algorithms: ['RS256', 'ES256'],
          typ: 'logout+jwt',
          maxTokenAge: '5 minutes',
        });
        const events = payload.events as Record<string, unknown> | undefined;
        if (!events || typeof events[BACKCHANNEL_EVENT] !== 'object') throw new Error('not a logout token');
        if ('nonce' in payload) throw new Error('a logout token must not carry a nonce');
        if (!payload.sub && !payload.sid) throw new Error('sub or sid required');
        if (!payload.jti || seenLogoutTokens.has(payload.jti)) throw new Error('missing or replayed jti');
        seenLogoutTokens.set(payload.jti, Date.now());
        for (const [jti, seen] of seenLogoutTokens)
          if (Date.now() - seen > 10 * 60_000) seenLogoutTokens.delete(jti);
        for (const [id, session] of sessions) {
          const sidMatches = payload.sid === undefined || payload.sid === session.sid;
          const subMatches = payload.sub === undefined || payload.sub === session.sub;
          if (sidMatches && subMatches) sessions.delete(id);
        }
        res.status(200).end();
      } catch (error) {
        res.status(400).json({
          error: 'invalid_request',
          error_description: error instanceof Error ? error.message : 'invalid logout token',
        });
      }
    },
  );

  // Discovery or the token call failing is the identity service being away, not a portal bug.
  app.use((error: unknown, _req: Request, res: Response, _next: express.NextFunction) => {
    const message = error instanceof Error ? error.message : 'unexpected error';
    res
      .status(502)
      .type('html')
      .send(signedOutPage(`The identity service is not reachable: ${message}`));
  });

  return { app, sessions };
}
