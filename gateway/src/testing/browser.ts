/**
 * Fake browsers for gateway tests: {@link TestBrowser} speaks real HTTP to a listening gateway (cookie jar, manual
 * redirects), {@link browser} drives the Express app in-process through supertest with an anti-forgery token.
 */
import { request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import type { Express } from 'express';
import request from 'supertest';

/** The password of users made by `TestGateway.addUser`. */
export const TEST_PASSWORD = 'Correct-Horse-9!';

/** A tiny browser on one origin: a cookie jar (name + path) and manual redirects. */
export class TestBrowser {
  private readonly cookies = new Map<string, { value: string; path: string }>();

  constructor(private readonly origin: string) {}

  setCookie(name: string, value: string, cookiePath = '/'): void {
    this.cookies.set(`${name};${cookiePath}`, { value, path: cookiePath });
  }

  private cookieHeader(pathname: string): string {
    return [...this.cookies.entries()]
      .filter(([, c]) => pathname.startsWith(c.path))
      .map(([key, c]) => `${key.split(';')[0]}=${c.value}`)
      .join('; ');
  }

  private store(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';').map((p) => p.trim());
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq);
      const value = pair.slice(eq + 1);
      const pathAttr = attributes.find((a) => a.toLowerCase().startsWith('path='));
      const cookiePath = pathAttr ? pathAttr.slice(5) : '/';
      const expired =
        attributes.some((a) => /^max-age=0$/i.test(a)) ||
        attributes.some((a) => /^expires=.*1970/i.test(a)) ||
        value === '';
      if (expired) this.cookies.delete(`${name};${cookiePath}`);
      else this.cookies.set(`${name};${cookiePath}`, { value, path: cookiePath });
    }
  }

  /** One request on the browser's origin, cookies sent and stored, redirects not followed. */
  async request(url: string, init: RequestInit = {}): Promise<Response> {
    const target = new URL(url, this.origin);
    const headers = new Headers(init.headers);
    const cookie = this.cookieHeader(target.pathname);
    if (cookie) headers.set('cookie', cookie);
    const response = await fetch(target, { ...init, headers, redirect: 'manual' });
    this.store(response);
    return response;
  }

  /**
   * Follows redirects on the browser's origin until a response is not a redirect, or the redirect leaves the
   * origin (a client's redirect_uri) or reaches `stopAt` (a path such as the sign-in page).
   */
  async follow(url: string, stopAt: readonly string[] = []): Promise<{ url: string; response?: Response }> {
    let current = new URL(url, this.origin).href;
    for (let hops = 0; hops < 20; hops += 1) {
      const parsed = new URL(current);
      if (parsed.origin !== this.origin || stopAt.some((p) => parsed.pathname === p)) return { url: current };
      const response = await this.request(current);
      const location = response.headers.get('location');
      if (response.status < 300 || response.status >= 400 || !location) return { url: current, response };
      current = new URL(location, current).href;
    }
    throw new Error('too many redirects');
  }
}

/** A response of {@link rawGet}. */
export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * A GET with headers exactly as given, `Host` included (fetch always sends the URL's own host): for tests of what a
 * forged Host or X-Forwarded-* header can change.
 */
export function rawGet(url: string, headers: Record<string, string> = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: 'GET', headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** A supertest agent (cookie jar) with an anti-forgery token fetched; on the app itself or a server of it. */
export async function browser(app: Express | Server, ip?: string) {
  const agent = request.agent(app);
  if (ip) agent.set('X-Forwarded-For', ip);
  const res = await agent.get('/api/Account/Antiforgery').expect(200);
  let token = (res.body as { token: string }).token;
  return {
    agent,
    get token() {
      return token;
    },
    set token(value: string) {
      token = value;
    },
    /** POST JSON with the anti-forgery header. */
    post(url: string, body: unknown = {}) {
      return agent
        .post(url)
        .set('x-csrf-token-value', token)
        .send(body as object);
    },
    /** Follows a 209 the way the client does: Exchange the state for a fresh token. */
    async exchange(state: string) {
      const r = await agent
        .post('/api/Account/Exchange')
        .set('x-csrf-token-value', token)
        .send({ state })
        .expect(200);
      token = (r.body as { token: string }).token;
      return token;
    },
    /** Signs in with the password; returns the 209 body after the exchange. */
    async signIn(username: string, password = TEST_PASSWORD, extra: Record<string, unknown> = {}) {
      const r = await agent
        .post('/api/Account/Login')
        .set('x-csrf-token-value', token)
        .send({ username, password, rememberMe: false, ...extra });
      if (r.status === 209) await this.exchange((r.body as { state: string }).state);
      return r;
    },
  };
}

/** Reads the session cookie value from a response's Set-Cookie. */
export function sessionCookieOf(
  res: { headers: Record<string, unknown> },
  name = 'idp.session',
): string | undefined {
  const raw = res.headers['set-cookie'];
  const list = Array.isArray(raw) ? (raw as string[]) : typeof raw === 'string' ? [raw] : [];
  const found = list.find((c) => c.startsWith(`${name}=`));
  return found?.split(';')[0]?.slice(name.length + 1);
}
