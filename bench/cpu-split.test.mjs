// Section 1's CPU split (lib/cpu-split.mjs): the readings come from the real /proc of this machine, and the split
// of a round's CPU into verify, main thread, other threads, load generator and rest is checked on known readings.
import { existsSync } from 'node:fs';
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

describe.skipIf(!existsSync('/proc/stat'))('readings from /proc', () => {
  it("counts this process's and its main thread's CPU, and the machine's busy time", () => {
    const before = cpuReading(process.pid);
    burn(400);
    const after = cpuReading(process.pid);
    // 400 ms of wall time on one thread: at least half of it is CPU even on a busy machine, never more than that
    // thread could run plus the 10 ms ticks at both ends (other threads of this process may add a little).
    expect(after.serverMain - before.serverMain).toBeGreaterThanOrEqual(200);
    expect(after.serverMain - before.serverMain).toBeLessThanOrEqual(420);
    expect(after.server - before.server).toBeGreaterThanOrEqual(after.serverMain - before.serverMain);
    expect(after.machine.busy - before.machine.busy).toBeGreaterThanOrEqual(200);
  });

  it('answers undefined for a process that does not exist', () => {
    expect(processCpuMs(2 ** 22 + 7)).toBeUndefined();
    expect(processCpuMs(process.pid, 2 ** 22 + 7)).toBeUndefined();
    expect(machineCpuMs()?.busy).toBeGreaterThan(0);
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

  it('prints the split and the gateway-only ratio from the rounds, or nothing when a round could not be read', () => {
    const round = (a, main, other) => ({
      aCpu: { machine: a, idleShare: 0.02 },
      bCpu: { machine: 13, idleShare: 0.01, serverMain: main, serverOther: other, generator: 0.5, rest: 0.3 },
    });
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
});
