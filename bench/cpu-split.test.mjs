// Section 1's CPU split (lib/cpu-split.mjs): the readings are parsed from a /proc of the test's own and from this
// machine's real one, and the split of a round's CPU into verify, main thread, other threads, load generator and rest
// is checked on known readings.
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cpuPerUnit, cpuReading, machineCpuMs, processCpuMs } from './lib/cpu-split.mjs';
import { cpuSplitRows } from './lib/signin.section.mjs';

/** Keeps this thread busy for `ms` of wall time. */
function burn(ms) {
  const end = performance.now() + ms;
  let x = 0;
  while (performance.now() < end) x += Math.sqrt(x + 1);
  return x;
}

/** A /proc of the test's own: the machine's `stat` and one process (pid 42, main thread 42, a second thread 43). */
function fakeProc({ withProcess = true } = {}) {
  const proc = mkdtempSync(path.join(tmpdir(), 'fake-proc-'));
  writeFileSync(
    path.join(proc, 'stat'),
    'cpu  100 5 40 900 10 2 3 7 0 0\ncpu0 50 2 20 450 5 1 1 3 0 0\nintr 1\n',
  );
  if (withProcess) {
    // The command name may hold spaces and a ") ": the fields are read after the last one. utime and stime are
    // fields 14 and 15 of proc(5).
    const stat = (utime, stime) =>
      `42 (node (a) b) S 1 42 42 0 -1 4194304 100 0 0 0 ${utime} ${stime} 0 0 20 0 3 0 100 0 0\n`;
    mkdirSync(path.join(proc, '42', 'task', '42'), { recursive: true });
    writeFileSync(path.join(proc, '42', 'stat'), stat(300, 50));
    writeFileSync(path.join(proc, '42', 'task', '42', 'stat'), stat(120, 30));
  }
  return proc;
}

describe('readings from a /proc', () => {
  it("read the machine's busy and idle time, a process's CPU and its main thread's, in ms", () => {
    const proc = fakeProc();
    try {
      // busy = user + nice + system + irq + softirq (steal left out), idle = idle + iowait; ticks of 10 ms.
      expect(machineCpuMs(proc)).toEqual({ busy: 1_500, idle: 9_100 });
      expect(processCpuMs(42, undefined, proc)).toBe(3_500);
      expect(processCpuMs(42, 42, proc)).toBe(1_500);
      expect(cpuReading(42, proc)).toEqual({
        machine: { busy: 1_500, idle: 9_100 },
        server: 3_500,
        serverMain: 1_500,
      });
    } finally {
      rmSync(proc, { recursive: true, force: true });
    }
  });

  it('answer undefined for what is not there: a process, a thread, or /proc itself', () => {
    const proc = fakeProc({ withProcess: false });
    try {
      expect(processCpuMs(42, undefined, proc)).toBeUndefined();
      expect(processCpuMs(42, 43, proc)).toBeUndefined();
      const none = path.join(proc, 'missing');
      expect(machineCpuMs(none)).toBeUndefined();
      expect(cpuReading(42, none)).toEqual({ machine: undefined, server: undefined, serverMain: undefined });
      // Without a machine reading a round has no split (its rows are left out).
      expect(cpuPerUnit(cpuReading(42, none), cpuReading(42, none), 10, 1)).toBeUndefined();
    } finally {
      rmSync(proc, { recursive: true, force: true });
    }
  });

  // The bench runs on Linux; on a system without /proc the same call must answer undefined instead.
  it("read this process's own CPU from the real /proc where there is one", () => {
    const before = cpuReading(process.pid);
    // Burn until this process has used 300 ms of CPU, however long that takes on a busy machine (a wall-time burn
    // got only 140 ms of CPU with a load of 12 on two cores): the reading is checked against what was used.
    const start = process.cpuUsage();
    let usedMs = 0;
    while (usedMs < 300) {
      burn(5);
      const used = process.cpuUsage(start);
      usedMs = (used.user + used.system) / 1000;
    }
    const after = cpuReading(process.pid);
    if (!existsSync('/proc/stat')) {
      expect(after).toEqual({ machine: undefined, server: undefined, serverMain: undefined });
      return;
    }
    // /proc counts in 10 ms ticks (one may be lost or gained at each end, by the process and by its thread apart: a
    // thread read 300 ms while its process read 290 under load). `process.cpuUsage` counts every thread of the
    // process, as the process's line in /proc does, so the two must agree; the main thread did the burning, but V8's
    // compiler and GC threads took up to 30 % beside it on a loaded machine (210 ms of 303 in a CI run), so the main
    // thread's reading is held to at least half of it and to no more than the whole.
    const server = after.server - before.server;
    const main = after.serverMain - before.serverMain;
    expect(server).toBeGreaterThanOrEqual(usedMs * 0.9 - 20);
    expect(server).toBeLessThanOrEqual(usedMs * 1.1 + 20);
    expect(main).toBeGreaterThanOrEqual(usedMs * 0.5);
    expect(main).toBeLessThanOrEqual(server + 20);
    expect(after.machine.busy - before.machine.busy).toBeGreaterThanOrEqual(server - 20);
  });
});

describe('the split of a round', () => {
  const before = { machine: { busy: 1_000, idle: 500 }, server: 300, serverMain: 100 };
  const after = { machine: { busy: 7_500, idle: 600 }, server: 6_300, serverMain: 900 };

  it('charges each part per unit of work and leaves the rest to the machine', () => {
    // 500 sign-ins: the machine busy 6,500 ms, the gateway 6,000 (800 on its main thread), the generator 250.
    expect(cpuPerUnit(before, after, 500, 250)).toEqual({
      machine: 13,
      idleShare: 100 / 6_600,
      serverMain: 1.6,
      serverOther: 10.4,
      generator: 0.5,
      rest: 0.5,
    });
  });

  it('gives only the machine where no server was read, and nothing without work', () => {
    const noServer = { machine: before.machine };
    expect(cpuPerUnit(noServer, { machine: after.machine }, 650)).toEqual({
      machine: 10,
      idleShare: 100 / 6_600,
    });
    expect(cpuPerUnit(before, after, 0, 250)).toBeUndefined();
    expect(cpuPerUnit({ machine: undefined }, after, 500)).toBeUndefined();
  });

  /** One round's readings: (a) per verify, (b) the gateway's split, and (b′) the bare server's [main, other] when given. */
  const round = (a, main, other, bare) => ({
    aCpu: { machine: a, idleShare: 0.02 },
    bCpu: { machine: 13, idleShare: 0.01, serverMain: main, serverOther: other, generator: 0.5, rest: 0.3 },
    ...(bare ? { bareCpu: { machine: 11, idleShare: 0.01, serverMain: bare[0], serverOther: bare[1] } } : {}),
  });

  it('prints the split and the gateway-only ratio from the rounds, or nothing when a round could not be read', () => {
    const rows = cpuSplitRows([round(10.5, 1.5, 10.5), round(10.8, 1.2, 10.8), round(9.6, 1.6, 10.4)]);
    expect(rows.map((r) => r.label.trim())).toEqual([
      'CPU per verify alone, (a) rounds',
      'CPU per sign-in, (b) rounds',
      "the gateway's main thread",
      "the gateway's other threads",
      'the load generator',
      'the rest of the machine',
      "CPU per verify alone ÷ the gateway's CPU per sign-in",
    ]);
    expect(rows[0].median).toBe(10.5);
    expect(rows[2].median).toBe(1.5);
    // 10.5 ÷ 12, 10.8 ÷ 12, 9.6 ÷ 12: the median of the per-round ratios.
    expect(rows[6].median).toBeCloseTo(0.875, 10);
    expect(rows[6].min).toBeCloseTo(0.8, 10);
    expect(cpuSplitRows([round(10, 1, 10), { aCpu: undefined, bCpu: undefined }])).toEqual([]);
  });

  it("sets the bare server's CPU per sign-in beside the gateway's, thread by thread, when every round read it", () => {
    const rows = cpuSplitRows([
      round(10, 1.5, 8.5, [0.5, 7.5]),
      round(10, 1.4, 8.1, [0.6, 7.4]),
      round(10, 1.6, 9.4, [0.6, 7.4]),
    ]);
    expect(rows.slice(7).map((r) => r.label.trim())).toEqual([
      "CPU per sign-in, (b′) rounds: the bare server's main thread",
      "the bare server's other threads",
      "the bare server's CPU per sign-in ÷ the gateway's",
      'the gateway more than the bare server: main thread',
      'the gateway more than the bare server: other threads',
    ]);
    expect(rows[7].median).toBe(0.6);
    expect(rows[8].median).toBe(7.4);
    // 8 ÷ 10, 8 ÷ 9.5, 8 ÷ 11: the median of the per-round ratios.
    expect(rows[9].median).toBeCloseTo(0.8, 10);
    expect(rows[9].min).toBeCloseTo(8 / 11, 10);
    expect(rows[10].median).toBeCloseTo(1.0, 10);
    expect(rows[11].median).toBeCloseTo(1.0, 10);
    expect(rows[11].max).toBeCloseTo(2.0, 10);
    // A round without the bare server's reading: the gateway's rows only.
    expect(cpuSplitRows([round(10, 1.5, 8.5, [0.5, 7.5]), round(10, 1, 8)])).toHaveLength(7);
  });
});
