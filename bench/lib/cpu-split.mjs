// Where the machine's CPU goes during a measured run, from Linux's /proc (clock ticks of 10 ms): the whole machine's
// busy time, one process, and one process's main thread. Section 1 reads it around its alternating rounds, so b ÷ a
// comes with the split of a sign-in's CPU between the hashes, the gateway's main thread and the load generator that
// shares the cores (bench/README.md "Reading the table", section 1). Where there is no /proc every reading is
// undefined and the rows that need it are left out.
import { readFileSync } from 'node:fs';

const TICK_MS = 10;

/** Fields of a /proc/<pid>/stat or /proc/<pid>/task/<tid>/stat line after the command name, which may hold spaces. */
function statFields(file) {
  const text = readFileSync(file, 'utf8');
  return text.slice(text.lastIndexOf(') ') + 2).split(' ');
}

/** Where the kernel's process information is mounted; the tests give a folder of their own. */
const PROC = '/proc';

/**
 * utime + stime of a process (all its threads) or of one thread, in ms; undefined where it cannot be read.
 * @param {number} pid
 * @param {number} [tid]
 * @param {string} [proc]
 */
export function processCpuMs(pid, tid, proc = PROC) {
  try {
    const fields = statFields(tid === undefined ? `${proc}/${pid}/stat` : `${proc}/${pid}/task/${tid}/stat`);
    // After the name: state is field 0, utime field 11 and stime field 12 (proc(5) numbers them 14 and 15).
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return undefined;
  }
}

/**
 * The whole machine's busy and idle time so far (all cores, ms; idle includes I/O wait), or undefined.
 * @param {string} [proc]
 */
export function machineCpuMs(proc = PROC) {
  try {
    const line = readFileSync(`${proc}/stat`, 'utf8').split('\n', 1)[0];
    const ticks = line.trim().split(/\s+/).slice(1).map(Number);
    // user nice system idle iowait irq softirq steal (guest time is already counted in user and nice). Time stolen
    // by the hypervisor is neither: no work of this machine ran in it.
    const [user, nice, system, idle, iowait = 0, irq = 0, softirq = 0] = ticks;
    return { busy: (user + nice + system + irq + softirq) * TICK_MS, idle: (idle + iowait) * TICK_MS };
  } catch {
    return undefined;
  }
}

/**
 * A reading of the machine and of a server process (its main thread is the thread whose id is the process id, as
 * for every Node.js process).
 * @param {number | undefined} serverPid
 * @param {string} [proc]
 */
export function cpuReading(serverPid, proc = PROC) {
  return {
    machine: machineCpuMs(proc),
    server: serverPid === undefined ? undefined : processCpuMs(serverPid, undefined, proc),
    serverMain: serverPid === undefined ? undefined : processCpuMs(serverPid, serverPid, proc),
  };
}

/**
 * CPU per unit of work between two readings, in ms: the machine's busy time, and when the server was read, its main
 * thread, its other threads, the load generator (`generatorMs`, measured by the generator itself) and the rest of the
 * machine (kernel work not charged to a process, the bench runner, anything else running).
 * @param {ReturnType<typeof cpuReading>} before
 * @param {ReturnType<typeof cpuReading>} after
 * @param {number} units work done between the readings (verifies, sign-ins)
 * @param {number} [generatorMs] the load generator's own CPU over the same run
 * @returns {{machine: number, idleShare: number, serverMain?: number, serverOther?: number, generator?: number,
 *   rest?: number} | undefined}
 */
export function cpuPerUnit(before, after, units, generatorMs) {
  if (!before.machine || !after.machine || !(units > 0)) return undefined;
  const busy = after.machine.busy - before.machine.busy;
  const idle = after.machine.idle - before.machine.idle;
  const out = { machine: busy / units, idleShare: busy + idle > 0 ? idle / (busy + idle) : NaN };
  if ([before.server, after.server, before.serverMain, after.serverMain].every((v) => v !== undefined)) {
    const server = after.server - before.server;
    const main = after.serverMain - before.serverMain;
    out.serverMain = main / units;
    out.serverOther = (server - main) / units;
    if (generatorMs !== undefined) {
      out.generator = generatorMs / units;
      out.rest = (busy - server - generatorMs) / units;
    }
  }
  return out;
}
