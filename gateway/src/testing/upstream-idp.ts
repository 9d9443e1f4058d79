/**
 * A second, real OpenID Connect provider for the tests of external sign-in (ADR 0018): oidc-provider on a free
 * loopback port, with its own users, its own sign-in page (a plain HTML form, checked against those users) and its
 * own cookies (distinct names, so it can share a host with the gateway in a browser). It records every
 * end-session request it answers. Used in-process by the gateway's vitest suites and, through
 * `upstream-idp.main.ts`, as a helper process by the e2e specs and the optional demo upstream.
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type Configuration } from 'oidc-provider';

/** An account of the upstream. */
export interface UpstreamUser {
  /** What its sign-in form takes. */
  username: string;
  password: string;
  /** The stable subject (`sub`); the gateway keys external identities by (issuer, sub) (S35). */
  sub: string;
  name?: string;
  email?: string;
  /** The ID token's `amr` for this user's sign-ins (default `["pwd"]`). */
  amr?: string[];
}

/** A relying party of the upstream (the gateway). */
export interface UpstreamClient {
  clientId: string;
  clientSecret: string;
  redirectUris: string[];
  postLogoutRedirectUris?: string[];
}

/** Options of {@link startUpstreamIdp}. */
export interface UpstreamIdpOptions {
  users?: UpstreamUser[];
  clients?: UpstreamClient[];
  /** Host name of the issuer (default `localhost`); the server listens on the loopback address. */
  host?: string;
  /** Port to listen on (default: a free one). */
  port?: number;
  /** Shown on its sign-in page (default "Upstream"). */
  title?: string;
  /** Name and e-mail only from userinfo, not in the ID token (as some providers do); default false. */
  userinfoOnly?: boolean;
  /** Without an end-session endpoint (RP-initiated logout off), as some providers are; default with one. */
  noEndSession?: boolean;
}

/** A running upstream provider. */
export interface UpstreamIdp {
  issuer: string;
  users: Map<string, UpstreamUser>;
  /** The end-session requests answered, newest last: their query (id_token_hint, post_logout_redirect_uri, state). */
  endSessions: URLSearchParams[];
  /** The authorization requests received, newest last: their query. */
  authorizations: URLSearchParams[];
  addUser(user: UpstreamUser): void;
  close(): Promise<void>;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body style="font-family: sans-serif; max-width: 28rem; margin: 3rem auto">${body}</body></html>`;
}

function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  return new Promise((resolve, reject) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      body += chunk;
      if (body.length > 64_000) req.destroy();
    });
    req.on('end', () => resolve(new URLSearchParams(body)));
    req.on('error', reject);
  });
}

/** Starts the upstream provider; `close()` stops it. */
export async function startUpstreamIdp(options: UpstreamIdpOptions = {}): Promise<UpstreamIdp> {
  const host = options.host ?? 'localhost';
  const title = options.title ?? 'Upstream';
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const issuer = `http://${host}:${(server.address() as AddressInfo).port}`;
  const users = new Map<string, UpstreamUser>();
  const bySub = new Map<string, UpstreamUser>();
  const addUser = (user: UpstreamUser) => {
    users.set(user.username, user);
    bySub.set(user.sub, user);
  };
  for (const user of options.users ?? []) addUser(user);
  const endSessions: URLSearchParams[] = [];
  const authorizations: URLSearchParams[] = [];

  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = { ...privateKey.export({ format: 'jwk' }), kid: randomBytes(6).toString('hex'), use: 'sig' };
  const configuration: Configuration = {
    clients: (options.clients ?? []).map((c) => ({
      client_id: c.clientId,
      client_secret: c.clientSecret,
      redirect_uris: c.redirectUris,
      post_logout_redirect_uris: c.postLogoutRedirectUris ?? [],
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_basic',
    })),
    jwks: { keys: [jwk] },
    cookies: {
      keys: [randomBytes(32).toString('hex')],
      names: { session: 'upstream.session', interaction: 'upstream.interaction', resume: 'upstream.resume' },
      long: { signed: true, httpOnly: true, sameSite: 'lax', path: '/' },
      short: { signed: true, httpOnly: true, sameSite: 'lax', path: '/' },
    },
    // Name and e-mail in the ID token as well as from userinfo, as most providers do.
    conformIdTokenClaims: options.userinfoOnly === true,
    claims: { openid: ['sub', 'amr'], profile: ['name'], email: ['email', 'email_verified'] },
    pkce: { required: () => true },
    features: {
      devInteractions: { enabled: false },
      rpInitiatedLogout: {
        enabled: options.noEndSession !== true,
        // No confirmation page: the gateway's user already said yes on /account/logout/upstream.
        logoutSource(ctx, form) {
          const action = /action="([^"]+)"/.exec(form)?.[1] ?? '';
          const xsrf = /name="xsrf" value="([^"]+)"/.exec(form)?.[1] ?? '';
          ctx.type = 'html';
          ctx.body = page(
            title,
            `<form id="op-logout" method="post" action="${action}"><input type="hidden" name="xsrf" value="${xsrf}">` +
              `<input type="hidden" name="logout" value="yes"><noscript><button>Sign out</button></noscript></form>` +
              `<p>Signing out of ${escapeHtml(title)}…</p><button form="op-logout" autofocus>Continue</button>`,
          );
        },
      },
    },
    findAccount(_ctx, sub) {
      const user = bySub.get(sub);
      if (!user) return undefined;
      return {
        accountId: sub,
        claims: () => ({
          sub,
          ...(user.name ? { name: user.name } : {}),
          ...(user.email ? { email: user.email, email_verified: true } : {}),
        }),
      };
    },
    async loadExistingGrant(ctx) {
      const session = ctx.oidc.session;
      const client = ctx.oidc.client;
      if (!session?.accountId || !client) return undefined;
      const grant = new ctx.oidc.provider.Grant({ clientId: client.clientId, accountId: session.accountId });
      grant.addOIDCScope('openid profile email');
      await grant.save();
      return grant;
    },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    renderError(ctx, out) {
      ctx.type = 'html';
      ctx.body = page(title, `<h1>Error</h1><pre>${escapeHtml(JSON.stringify(out))}</pre>`);
    },
  };
  const provider = new Provider(issuer, configuration);
  provider.proxy = true;
  const callback = provider.callback();

  async function interaction(req: IncomingMessage, res: ServerResponse, uid: string, submit: boolean) {
    const details = await provider.interactionDetails(req, res);
    if (details.uid !== uid) throw new Error('interaction mismatch');
    if (submit) {
      const form = await readForm(req);
      const user = users.get(form.get('username') ?? '');
      if (user && user.password === form.get('password')) {
        await provider.interactionFinished(
          req,
          res,
          { login: { accountId: user.sub, amr: user.amr ?? ['pwd'] } },
          { mergeWithLastSubmission: false },
        );
        return;
      }
    }
    res.setHeader('content-type', 'text/html; charset=utf-8');
    res.end(
      page(
        title,
        `<h1>${escapeHtml(title)}</h1>${submit ? '<p role="alert">Wrong username or password.</p>' : ''}` +
          `<form method="post" action="/interaction/${escapeHtml(uid)}/login">` +
          `<p><label>Username <input name="username" autocomplete="username" autofocus></label></p>` +
          `<p><label>Password <input name="password" type="password" autocomplete="current-password"></label></p>` +
          `<p><button type="submit">Sign in to ${escapeHtml(title)}</button></p></form>`,
      ),
    );
  }

  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', issuer);
    if (url.pathname === '/auth') authorizations.push(url.searchParams);
    if (url.pathname === '/session/end' && req.method === 'GET') endSessions.push(url.searchParams);
    // The tests' Chromium asks for a favicon on every page of this origin.
    if (url.pathname === '/favicon.ico') {
      res.statusCode = 204;
      res.end();
      return;
    }
    const match = /^\/interaction\/([\w-]+)(\/login)?$/.exec(url.pathname);
    if (match) {
      interaction(req, res, match[1]!, match[2] !== undefined && req.method === 'POST').catch(
        (error: unknown) => {
          res.statusCode = 400;
          res.setHeader('content-type', 'text/html; charset=utf-8');
          res.end(page(title, `<p>${escapeHtml(String(error))}</p>`));
        },
      );
      return;
    }
    void callback(req, res);
  });

  return {
    issuer,
    users,
    endSessions,
    authorizations,
    addUser,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
