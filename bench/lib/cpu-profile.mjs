// Reading a V8 CPU profile (the inspector's `Profiler.stop` answer, the `.cpuprofile` format) as the main thread's
// time per library: where a server spends the main thread between two requests. Pure functions, checked by
// cpu-profile.test.mjs on a hand-made profile.

/** Nodes that are not code: the thread waiting, or V8's own bookkeeping of the sampler. */
const NOT_WORK = new Set(['(idle)', '(root)']);

/**
 * The library a call frame's script belongs to.
 * - `node:…` → "Node.js core: <module>" (http, streams, net, …)
 * - `…/node_modules/<pkg>/…` → the package (the last `node_modules` of the path; scoped packages keep the scope)
 * - `…/<pkg>/dist/<dir>/…` → "<pkg>: <dir>" (our own packages' builds: `gateway: http`, `gateway: identity`)
 * - anything else with a path → the file's name
 * - no script (V8 builtins such as `JSON.parse`, `(program)`, `(garbage collector)`) → `null`: the caller's library
 *   takes it, except the two V8 rows, which stand alone.
 * @param {{functionName: string, url: string}} frame
 * @returns {string | null}
 */
export function libraryOf(frame) {
  const { functionName, url } = frame;
  if (!url) {
    if (functionName === '(program)') return 'V8 and native code outside JavaScript (program)';
    if (functionName === '(garbage collector)') return 'garbage collector';
    return null;
  }
  if (url.startsWith('node:')) {
    // node:_http_server → http, node:internal/streams/readable → streams, node:internal/stream_base_commons → stream
    const rest = url
      .slice('node:'.length)
      .replace(/^internal\//, '')
      .replace(/^_/, '');
    return `Node.js core: ${rest.split('/')[0].replace(/\.js$/, '').replace(/_.*$/, '')}`;
  }
  const file = url.replace(/^file:\/\//, '');
  const nm = file.lastIndexOf('/node_modules/');
  if (nm >= 0) {
    const parts = file.slice(nm + '/node_modules/'.length).split('/');
    return parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0];
  }
  const dist = file.match(/\/([^/]+)\/dist\/(.+)$/);
  if (dist) return `${dist[1]}: ${dist[2].split('/')[0].replace(/\.js$/, '')}`;
  return file.split('/').pop() ?? file;
}

/**
 * Self time per node of a profile, in ms: each sample's time is the delta to the next sample (the last one gets the
 * mean), as Chrome's DevTools counts it.
 * @param {{nodes: any[], samples: number[], timeDeltas: number[], startTime: number, endTime: number}} profile
 * @returns {Map<number, number>} node id → ms
 */
export function selfTimes(profile) {
  const { samples, timeDeltas } = profile;
  const out = new Map();
  if (!samples?.length) return out;
  const mean = (profile.endTime - profile.startTime) / samples.length;
  for (let i = 0; i < samples.length; i++) {
    const us = i + 1 < timeDeltas.length ? Math.max(0, timeDeltas[i + 1]) : mean;
    out.set(samples[i], (out.get(samples[i]) ?? 0) + us / 1000);
  }
  return out;
}

/**
 * The main thread's busy time by library and by function. A V8 builtin's time (no script) goes to the nearest caller
 * that has one, so `JSON.parse` called by body-parser counts as body-parser's.
 * @param {{nodes: any[], samples: number[], timeDeltas: number[], startTime: number, endTime: number}} profile
 * @returns {{busyMs: number, idleMs: number, byLibrary: Map<string, number>, byFunction: Map<string, number>}}
 */
export function summarizeProfile(profile) {
  const parent = new Map();
  const byId = new Map();
  for (const node of profile.nodes) {
    byId.set(node.id, node);
    for (const child of node.children ?? []) parent.set(child, node.id);
  }
  const owner = (id) => {
    for (let at = id; at !== undefined; at = parent.get(at)) {
      const node = byId.get(at);
      const lib = libraryOf(node.callFrame);
      if (lib) return { lib, node };
    }
    return { lib: 'unattributed', node: byId.get(id) };
  };
  const byLibrary = new Map();
  const byFunction = new Map();
  let busyMs = 0;
  let idleMs = 0;
  for (const [id, ms] of selfTimes(profile)) {
    const node = byId.get(id);
    if (!node) continue;
    if (NOT_WORK.has(node.callFrame.functionName) && !node.callFrame.url) {
      idleMs += ms;
      continue;
    }
    busyMs += ms;
    const { lib, node: at } = owner(id);
    byLibrary.set(lib, (byLibrary.get(lib) ?? 0) + ms);
    const f = at.callFrame;
    const where = f.url ? `${shortUrl(f.url)}:${f.lineNumber + 1}` : '';
    const name = `${f.functionName || '(anonymous)'}${where ? ` ${where}` : ''}`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + ms);
  }
  return { busyMs, idleMs, byLibrary, byFunction };
}

/** A script's URL as short as still says where it is: from `node_modules/<pkg>` or `<pkg>/dist`, else the name. */
export function shortUrl(url) {
  const file = url.replace(/^file:\/\//, '');
  const nm = file.lastIndexOf('/node_modules/');
  if (nm >= 0) return file.slice(nm + '/node_modules/'.length);
  const dist = file.match(/\/([^/]+\/dist\/.+)$/);
  if (dist) return dist[1];
  return file.split('/').pop() ?? file;
}

/** The entries of a ms map, largest first, the first `n`. */
export function largest(map, n) {
  return [...map.entries()].sort((a, b) => b[1] - a[1]).slice(0, n);
}
