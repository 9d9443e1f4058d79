import { describe, expect, it } from 'vitest';
import type { RequestSessions } from '../infra/sessions/request-sessions.js';
import { Antiforgery } from './antiforgery.js';

// isValidFor remembers the token and session pairs it proved (light calls, ADR 0027): what it remembers must never
// let a token through for another session, nor a token that was not proved (S30).
describe('anti-forgery tokens (S30)', () => {
  const antiforgery = () =>
    new Antiforgery({ secure: false, secretKey: Buffer.alloc(32, 7) }, {} as RequestSessions);

  it('a token proved for one session is refused for another, first time or after', () => {
    const af = antiforgery();
    const token = af.tokenFor('session-a');
    expect(af.isValidFor(token, 'session-b')).toBe(false);
    expect(af.isValidFor(token, 'session-a')).toBe(true);
    expect(af.isValidFor(token, 'session-a')).toBe(true);
    expect(af.isValidFor(token, 'session-b')).toBe(false);
  });

  it('a forged token is refused after the session’s own token was proved', () => {
    const af = antiforgery();
    const token = af.tokenFor('session-a');
    expect(af.isValidFor(token, 'session-a')).toBe(true);
    const [nonce, mac] = token.split('.');
    expect(af.isValidFor(`${nonce}.${mac!.slice(0, -1)}A`, 'session-a')).toBe(mac!.endsWith('A'));
    expect(af.isValidFor(`${nonce}x.${mac}`, 'session-a')).toBe(false);
    expect(af.isValidFor(`${token}.`, 'session-a')).toBe(false);
    expect(af.isValidFor(nonce, 'session-a')).toBe(false);
  });

  it('a token made with another secret is refused', () => {
    const other = new Antiforgery({ secure: false, secretKey: Buffer.alloc(32, 9) }, {} as RequestSessions);
    const af = antiforgery();
    expect(af.isValidFor(af.tokenFor('session-a'), 'session-a')).toBe(true);
    expect(af.isValidFor(other.tokenFor('session-a'), 'session-a')).toBe(false);
  });
});
