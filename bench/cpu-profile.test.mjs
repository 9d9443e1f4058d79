// The sign-in profile's arithmetic (lib/cpu-profile.mjs) on a hand-made V8 CPU profile.
import { describe, expect, it } from 'vitest';
import { libraryOf, summarizeProfile } from './lib/cpu-profile.mjs';

const frame = (functionName, url = '', lineNumber = 0) => ({
  functionName,
  url,
  lineNumber,
  columnNumber: 0,
});

describe('libraryOf', () => {
  it('names Node.js core modules, packages (scoped too), our builds by folder, and leaves builtins to the caller', () => {
    expect(libraryOf(frame('writev', 'node:internal/stream_base_commons'))).toBe('Node.js core: stream');
    expect(libraryOf(frame('x', 'node:_http_outgoing'))).toBe('Node.js core: http');
    expect(libraryOf(frame('x', 'file:///r/node_modules/express/lib/response.js'))).toBe('express');
    expect(libraryOf(frame('x', 'file:///r/node_modules/a/node_modules/@node-rs/argon2/index.js'))).toBe(
      '@node-rs/argon2',
    );
    expect(libraryOf(frame('x', 'file:///r/gateway/dist/infra/throttle/login-throttle.js'))).toBe(
      'gateway: infra',
    );
    expect(libraryOf(frame('x', 'file:///r/gateway/dist/server.js'))).toBe('gateway: server');
    expect(libraryOf(frame('parse'))).toBeNull();
    expect(libraryOf(frame('(garbage collector)'))).toBe('garbage collector');
  });
});

describe('summarizeProfile', () => {
  // root → handler (gateway) → JSON.parse (builtin); root → (idle); root → (garbage collector)
  const profile = {
    nodes: [
      { id: 1, callFrame: frame('(root)'), children: [2, 4, 5] },
      { id: 2, callFrame: frame('handle', 'file:///r/gateway/dist/http/login.router.js', 9), children: [3] },
      { id: 3, callFrame: frame('parse'), children: [] },
      { id: 4, callFrame: frame('(idle)'), children: [] },
      { id: 5, callFrame: frame('(garbage collector)'), children: [] },
    ],
    startTime: 0,
    endTime: 10_000,
    // Samples at t = 1000, 2000, … µs: each sample's time is the delta to the next one.
    samples: [2, 3, 3, 4, 4, 4, 5, 2],
    timeDeltas: [1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000],
  };

  it('counts busy and idle time, gives a builtin to its caller and keeps the garbage collector apart', () => {
    const s = summarizeProfile(profile);
    expect(s.idleMs).toBeCloseTo(3);
    expect(s.busyMs).toBeCloseTo(5.25); // the handler 2.25 (its last sample takes the mean, 1.25), parse 2, GC 1
    expect(s.byLibrary.get('gateway: http')).toBeCloseTo(4.25);
    expect(s.byLibrary.get('garbage collector')).toBeCloseTo(1);
    expect([...s.byFunction.keys()]).toContain('handle gateway/dist/http/login.router.js:10');
  });
});
