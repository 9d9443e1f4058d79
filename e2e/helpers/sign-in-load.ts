/**
 * A bounded sign-in load through the balancer for the scale suite: a few clients loop anti-forgery token → password
 * sign-in → exchange → User, plus a wrong password that must never be granted, each loop from another source address
 * (X-Forwarded-For, trusted from nginx on loopback) so the per-source throttle stays out of the way. Every call's
 * start, end and outcome is recorded for the assertions.
 */

/** One call of the load. */
export interface CallRecord {
  call: 'Antiforgery' | 'Login' | 'Exchange' | 'User' | 'WrongPassword';
  startedAt: number;
  endedAt: number;
  /** HTTP status, or 0 when the connection failed. */
  status: number;
  retryAfter: string | null;
  /** True when the call gave what a healthy service gives. */
  ok: boolean;
  /** A wrong password that was answered as a success: must never happen. */
  wrongfulGrant?: boolean;
}

/** A tiny cookie jar: name=value of every Set-Cookie, sent back on the next call. */
class Jar {
  private readonly cookies = new Map<string, string>();
  take(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair!.indexOf('=');
      this.cookies.set(pair!.slice(0, at), pair!.slice(at + 1));
    }
  }
  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}

interface LoadOptions {
  url: string;
  workers: number;
  /** The load stops starting loops at this time (ms since epoch)... */
  until: number;
  /** ...or after this many loops in all, whichever comes first (a safety bound: the time is the real limit). */
  maxLoops: number;
  /**
   * Each worker starts a loop at most this often (ms, default 40). Paced, the load lasts until `until` on a fast
   * machine too: unpaced, a machine with a quick argon2 spent the whole loop budget before a Redis outage was over,
   * and nothing ran after it to show the service clean again (CI, stop 58).
   */
  minLoopMs?: number;
  username: string;
  password: string;
  /** The account the wrong passwords are tried on (its lockout must not block the good sign-ins). */
  wrongUsername: string;
}

/** Runs the load; resolves with every call once the last loop has finished. */
export async function runSignInLoad(options: LoadOptions): Promise<CallRecord[]> {
  const records: CallRecord[] = [];
  let loops = 0;
  const call = async (
    name: CallRecord['call'],
    jar: Jar,
    source: string,
    path: string,
    init: { method?: string; body?: unknown; token?: string },
    healthy: (status: number, body: unknown) => boolean,
  ): Promise<{ status: number; body: unknown }> => {
    const startedAt = Date.now();
    let status = 0;
    let body: unknown;
    let retryAfter: string | null = null;
    try {
      const response = await fetch(`${options.url}${path}`, {
        method: init.method ?? 'GET',
        headers: {
          'x-forwarded-for': source,
          cookie: jar.header(),
          ...(init.body ? { 'content-type': 'application/json' } : {}),
          ...(init.token ? { 'x-csrf-token-value': init.token } : {}),
        },
        body: init.body ? JSON.stringify(init.body) : undefined,
        signal: AbortSignal.timeout(15_000),
      });
      status = response.status;
      retryAfter = response.headers.get('retry-after');
      jar.take(response);
      body = await response.json().catch(() => undefined);
    } catch {
      status = 0;
    }
    const ok = status !== 0 && healthy(status, body);
    records.push({
      call: name,
      startedAt,
      endedAt: Date.now(),
      status,
      retryAfter,
      ok,
      ...(name === 'WrongPassword' ? { wrongfulGrant: status === 209 || status === 200 } : {}),
    });
    return { status, body };
  };

  const minLoopMs = options.minLoopMs ?? 40;
  const worker = async (index: number) => {
    let loopStarted = 0;
    for (let round = 0; Date.now() < options.until && loops < options.maxLoops; round += 1) {
      const wait = loopStarted + minLoopMs - Date.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      loopStarted = Date.now();
      loops += 1;
      const source = `10.${index + 1}.${(round >> 8) & 255}.${round & 255}`;
      const jar = new Jar();
      const anti = await call('Antiforgery', jar, source, '/api/Account/Antiforgery', {}, (s) => s === 200);
      const token = (anti.body as { token?: string } | undefined)?.token;
      if (!token) {
        // Refused (503 during an outage): back off as a client honouring Retry-After would, so the loop budget is
        // not spent in the outage's first second and the load still runs after it (a fast machine used up all 600
        // loops while Redis was down).
        await new Promise((resolve) => setTimeout(resolve, 100));
        continue;
      }
      const login = await call(
        'Login',
        jar,
        source,
        '/api/Account/Login',
        {
          method: 'POST',
          token,
          body: { username: options.username, password: options.password, rememberMe: false },
        },
        (s) => s === 209,
      );
      const state = (login.body as { state?: string } | undefined)?.state;
      if (login.status >= 500) await new Promise((resolve) => setTimeout(resolve, 100));
      if (login.status === 209 && state) {
        await call(
          'Exchange',
          jar,
          source,
          '/api/Account/Exchange',
          { method: 'POST', body: { state } },
          (s) => s === 200,
        );
        await call(
          'User',
          jar,
          source,
          '/api/Account/User',
          {},
          (s, body) => s === 200 && (body as { isAuthenticated?: boolean }).isAuthenticated === true,
        );
      }
      // A wrong password on a fresh browser: refused (400) or throttled, whatever else is going on; never a grant.
      const other = new Jar();
      const anti2 = await call(
        'Antiforgery',
        other,
        source,
        '/api/Account/Antiforgery',
        {},
        (s) => s === 200,
      );
      const token2 = (anti2.body as { token?: string } | undefined)?.token;
      if (token2)
        await call(
          'WrongPassword',
          other,
          source,
          '/api/Account/Login',
          {
            method: 'POST',
            token: token2,
            body: { username: options.wrongUsername, password: 'Not-The-Password-1!', rememberMe: false },
          },
          (s) => s === 400,
        );
    }
  };
  await Promise.all(Array.from({ length: options.workers }, (_, i) => worker(i)));
  return records;
}
