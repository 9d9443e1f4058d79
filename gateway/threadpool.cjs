// Preloaded by `npm start` (node -r) so it runs before Node's ES module loader first uses libuv's thread pool:
// the pool's size is fixed at that first use, and setting it from the ES module entry is already too late.
// The pool does file and DNS work (argon2 has threads of its own, identity/passwords/hash-workers.ts): cores + 4 threads.
/* global process */
'use strict';
if (!process.env.UV_THREADPOOL_SIZE) {
  process.env.UV_THREADPOOL_SIZE = String(require('node:os').availableParallelism() + 4);
}
