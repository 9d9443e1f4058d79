import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { MemorySessionStore } from './memory-session.store.js';
import { RequestSessions } from './request-sessions.js';
import { SessionManager } from './session-manager.js';

function requestWith(cookie?: string): IncomingMessage {
  return { headers: cookie ? { cookie } : {} } as IncomingMessage;
}

function response(): ServerResponse {
  const headers = new Map<string, unknown>();
  return {
    getHeader: (name: string) => headers.get(name),
    setHeader: (name: string, value: unknown) => headers.set(name, value),
  } as unknown as ServerResponse;
}

describe('RequestSessions: issued anonymous ids', () => {
  const sessions = new RequestSessions(
    new SessionManager(new MemorySessionStore(), { idleMs: 60_000, absoluteMs: 3_600_000 }),
    { secure: false },
  );

  async function issue(): Promise<string> {
    const res = response();
    const session = await sessions.ensure(requestWith(), res);
    return session.id;
  }

  it('recognises an id it issued, on every request, and never one whose MAC was altered', async () => {
    const id = await issue();
    for (let i = 0; i < 3; i += 1) {
      const found = await sessions.lookup(requestWith(`idp.session=${id}`));
      expect(found).toMatchObject({ kind: 'active', session: { id, issued: true } });
    }
    // The same random part with another MAC (its last character changed), after the real id was recognised.
    const last = id.at(-1) === 'A' ? 'B' : 'A';
    const forged = `${id.slice(0, -1)}${last}`;
    expect(await sessions.lookup(requestWith(`idp.session=${forged}`))).toEqual({ kind: 'expired' });
  });
});
