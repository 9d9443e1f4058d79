// The "bare sign-in" reference of section 1: the least a password sign-in server can be. An Express 5 app with a JSON
// body parser and one route that verifies the password with the gateway's own `verifyPassword` (its argon2id
// parameters and its hash threads, found in the gateway's build) and answers as `Login` does: 209 with a redirect and
// a state, or 400. No session, store, throttle, anti-forgery, captcha or logging. Under the same load generator on
// the same cores, its rate and its tail are what this machine allows any sign-in with this hash; the gateway's
// figures beside them are what the rest of a real sign-in costs (bench/README.md, section 1).
// Run alone: `node bench/bare-sign-in.mjs` (PORT env, default a free port); forked: it reports its port over IPC.
import express from 'express';
import { hashWith } from './lib/argon2-bound.mjs';
import { loadGatewayArgon2Options } from './lib/gateway-params.mjs';
import { BENCH_PASSWORD } from './lib/users.mjs';

/** The path it answers, the gateway's. */
export const BARE_SIGN_IN_PATH = '/api/Account/Login';

/** Starts the bare sign-in server on 127.0.0.1 for `password` and resolves its port. */
export async function startBareSignIn({ port = 0, password = BENCH_PASSWORD } = {}) {
  const { options, verifyPassword } = await loadGatewayArgon2Options();
  if (!verifyPassword) throw new Error("the gateway's password module exports no verifyPassword");
  const hash = await hashWith(options, password);
  // About the size of the gateway's answer (its state is a time, a nonce and a MAC).
  const state = 'x'.repeat(80);
  const app = express();
  app.disable('x-powered-by');
  app.use(express.json());
  app.post(BARE_SIGN_IN_PATH, async (req, res, next) => {
    try {
      const given = req.body?.password;
      if (typeof given === 'string' && (await verifyPassword(hash, given))) {
        res.status(209).json({ redirect: '/account/home', state });
      } else {
        res.status(400).json({ errors: { '': ['invalidCredentials'] } });
      }
    } catch (error) {
      next(error);
    }
  });
  return new Promise((resolve) => {
    const server = app.listen(port, '127.0.0.1', () => resolve({ server, port: server.address().port }));
  });
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  const { port } = await startBareSignIn({ port: Number(process.env.PORT ?? 0) });
  if (process.send) process.send({ port });
  else console.log(`bare sign-in listening on http://127.0.0.1:${port}${BARE_SIGN_IN_PATH}`);
}
