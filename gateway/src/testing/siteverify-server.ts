import { listenOnLoopback, type LoopbackServer } from './loopback-server.js';
import type { SiteverifyAnswer } from '../infra/captcha/recaptcha-verifier.js';

/** A local stand-in for Google's siteverify and the tokens it knows. */
export interface SiteverifyServer extends LoopbackServer {
  verifyUrl: string;
  /** Makes a token the endpoint answers for, as Google would for a solved widget on `hostname`. */
  token(answer: Partial<SiteverifyAnswer> & { hostname: string }): string;
  /** The form fields of every call (secret, response, remoteip). */
  calls: Record<string, string>[];
}

/**
 * Google's documented siteverify contract (https://developers.google.com/recaptcha/docs/verify): a form-encoded
 * POST of `secret`, `response` and `remoteip`; JSON `success`, `challenge_ts`, `hostname`, `error-codes`, and for v3
 * `score` and `action`. A wrong secret answers `invalid-input-secret`, an unknown token `invalid-input-response`.
 * It does not refuse a token seen before, so the gateway's own single-use check is what the tests see.
 */
export async function startSiteverifyServer(secret: string): Promise<SiteverifyServer> {
  const tokens = new Map<string, SiteverifyAnswer>();
  const calls: Record<string, string>[] = [];
  let counter = 0;
  const server = await listenOnLoopback((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
    req.on('end', () => {
      const form = Object.fromEntries(new URLSearchParams(raw));
      calls.push(form);
      let answer: SiteverifyAnswer;
      if (req.method !== 'POST' || req.url !== '/recaptcha/api/siteverify')
        answer = { success: false, 'error-codes': ['bad-request'] };
      else if (!form.secret) answer = { success: false, 'error-codes': ['missing-input-secret'] };
      else if (form.secret !== secret) answer = { success: false, 'error-codes': ['invalid-input-secret'] };
      else if (!form.response) answer = { success: false, 'error-codes': ['missing-input-response'] };
      else
        answer = tokens.get(form.response) ?? { success: false, 'error-codes': ['invalid-input-response'] };
      res.setHeader('Content-Type', 'application/json');
      res.end(JSON.stringify(answer));
    });
  });
  return {
    ...server,
    verifyUrl: `${server.origin}/recaptcha/api/siteverify`,
    calls,
    token(answer) {
      counter += 1;
      const token = `03AFcWeA-test-${counter}-${Math.random().toString(36).slice(2)}`;
      tokens.set(token, { success: true, challenge_ts: new Date().toISOString(), ...answer });
      return token;
    },
  };
}
