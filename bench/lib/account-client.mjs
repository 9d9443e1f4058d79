// A minimal HTTP client for the account API as a browser would use it: a cookie jar, the anti-forgery cookie echoed
// in its header (SPEC.md §7, §9), and the 209 redirect protocol. Plain fetch, no redirects followed automatically.
import http from 'node:http';

/** Name suffix of the anti-forgery cookie and the header that echoes it (SPEC.md §9). */
export const CSRF_SUFFIX = 'x-csrf-token-value';

/** A cookie jar keyed by name; enough for one origin on loopback. */
export class CookieJar {
  /** @type {Map<string, string>} */
  cookies = new Map();

  /** @param {Headers} headers */
  store(headers) {
    for (const line of headers.getSetCookie()) {
      const pair = line.split(';', 1)[0];
      const eq = pair.indexOf('=');
      if (eq <= 0) continue;
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      // Max-Age=0 / expired cookies clear the entry, as a browser would.
      if (value === '' || /;\s*max-age=0/i.test(line) || /expires=Thu, 01 Jan 1970/i.test(line))
        this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  header() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  csrf() {
    for (const [k, v] of this.cookies) if (k.endsWith(CSRF_SUFFIX)) return v;
    return undefined;
  }
}

/**
 * Sends one request with the jar's cookies (and the anti-forgery header on non-GET), stores the answer's cookies.
 * @param {string} base e.g. http://127.0.0.1:8080
 * @param {CookieJar} jar
 * @param {string} method
 * @param {string} path
 * @param {unknown} [body]
 * @param {Record<string, string>} [extraHeaders] e.g. the X-Forwarded-For a balancer's client sends (section 9)
 * @returns {Promise<{status: number, headers: Headers, text: string, json: any}>}
 */
export async function call(base, jar, method, path, body, extraHeaders = {}) {
  /** @type {Record<string, string>} */
  const headers = { accept: 'application/json', 'x-requested-with': 'XMLHttpRequest', ...extraHeaders };
  const cookie = jar.header();
  if (cookie) headers.cookie = cookie;
  const csrf = jar.csrf();
  if (method !== 'GET' && csrf) headers[CSRF_SUFFIX] = csrf;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const send = () =>
    fetch(base + path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      redirect: 'manual',
    });
  let res;
  try {
    res = await send();
  } catch (error) {
    // A kept-alive connection the server closed while this client was busy elsewhere (the captcha section solves
    // 400 challenges between two bursts) fails before the request is written: send it once more on a new one.
    if (!isStaleConnection(error)) throw error;
    res = await send();
  }
  jar.store(res.headers);
  const text = await res.text();
  let json;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}

/** undici's "fetch failed" for a socket the other side had closed (reset or closed before any answer). */
function isStaleConnection(error) {
  const code = error instanceof Error ? /** @type {any} */ (error.cause)?.code : undefined;
  return code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || code === 'EPIPE';
}

/**
 * A fresh anonymous session with its anti-forgery token: GET /api/Account/Antiforgery.
 * @param {string} base
 * @returns {Promise<{jar: CookieJar, cookie: string, csrf: string}>}
 */
export async function newSession(base) {
  const jar = new CookieJar();
  const res = await call(base, jar, 'GET', '/api/Account/Antiforgery');
  const csrf = jar.csrf() ?? res.json?.token;
  if (res.status !== 200 || !csrf) {
    throw new Error(
      `GET /api/Account/Antiforgery answered ${res.status} without an anti-forgery cookie: ${res.text.slice(0, 200)}`,
    );
  }
  return { jar, cookie: jar.header(), csrf };
}

/** Runs `fn` over `items` with at most `limit` in flight; keeps the order of results. */
export async function mapLimit(items, limit, fn) {
  const out = new Array(items.length);
  let next = 0;
  async function lane() {
    while (next < items.length) {
      const i = next;
      next += 1;
      out[i] = await fn(items[i], i);
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return out;
}

/**
 * One `POST /api/Account/Login` as the sign-in page sends it, on `agent` (keep-alive), with `session`'s cookie and
 * anti-forgery token (none for the bare sign-in server); resolves the status. The tools that count per sign-in
 * (`sign-in-instructions.mjs`, the sign-in profile) use it; section 1's load worker has its own (autocannon).
 * @param {string} base
 * @param {import('node:http').Agent} agent
 * @param {{cookie: string, csrf: string} | null | undefined} session
 * @param {string} username
 * @param {string} password
 * @returns {Promise<number>}
 */
export function postLogin(base, agent, session, username, password) {
  const body = JSON.stringify({ username, password, rememberMe: false, returnUrl: '/' });
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${base}/api/Account/Login`,
      {
        method: 'POST',
        agent,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          accept: 'application/json',
          'x-requested-with': 'XMLHttpRequest',
          ...(session ? { cookie: session.cookie, [CSRF_SUFFIX]: session.csrf } : {}),
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
