// Where the gateway's main thread goes per password sign-in, beside the bare sign-in server's (issue 54). Starts its
// own gateway (built dist, demo data, 50 users made in its store with the deployed hash) and the bare sign-in server,
// each with the inspector on a loopback port, runs closed-loop sign-ins and prints the main thread's busy time per
// sign-in by library and the gateway's busiest functions (lib/sign-in-profile.mjs). Section 1 runs it too.
//
//   node bench/sign-in-profile.mjs [--seconds=15] [--connections=4] [--out=<folder for the two .cpuprofile files>]
import { parseArgs } from 'node:util';
import { formatProfile, profileSignIns } from './lib/sign-in-profile.mjs';

const { values: opts } = parseArgs({
  options: { seconds: { type: 'string' }, connections: { type: 'string' }, out: { type: 'string' } },
});
const seconds = Number(opts.seconds ?? 15);
const connections = Number(opts.connections ?? 4);
if (!(seconds >= 1) || !Number.isInteger(connections) || connections < 1) {
  console.error('--seconds must be ≥ 1 and --connections an integer ≥ 1');
  process.exit(2);
}
const result = await profileSignIns({
  seconds,
  connections,
  ...(opts.out ? { profileDir: opts.out } : {}),
  log: (m) => console.error(m),
});
console.log(formatProfile(result).join('\n'));
// The inspector's and the forked server's handles may outlive their processes by a moment: done is done.
process.exit(0);
