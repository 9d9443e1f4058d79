import { randomInt } from 'node:crypto';
import express, { Router } from 'express';
import type { GatewayConfig } from '../config.js';
import type { ReleaseRegistry } from '../releases/release-registry.js';
import { isRemoteId } from '../releases/release-registry.js';
import { cookieNames, readCookie, setCookie } from './cookies.js';

const YEAR_MS = 365 * 24 * 3_600_000;

/**
 * `/remotes/manifest.json` per browser (stable bucket cookie decides canary; never cached) and the immutable
 * release files `/remotes/<id>/<version>/…`.
 */
export function remotesRouter(config: Pick<GatewayConfig, 'secure'>, registry: ReleaseRegistry): Router {
  const router = Router();
  const bucketCookie = cookieNames(config).bucket;

  router.get('/manifest.json', (req, res) => {
    let bucket = Number(readCookie(req, bucketCookie));
    if (!Number.isInteger(bucket) || bucket < 0 || bucket > 99) {
      bucket = randomInt(100);
      setCookie(res, config, bucketCookie, String(bucket), { httpOnly: true, maxAgeMs: YEAR_MS });
    }
    res.set('Cache-Control', 'no-store');
    res.json(registry.manifest(bucket));
  });

  const files = express.static(registry.root, {
    index: false,
    dotfiles: 'deny',
    fallthrough: true,
    immutable: true,
    maxAge: YEAR_MS,
  });
  router.get('/:id/:version/*splat', (req, res, next) => {
    const { id, version } = req.params;
    if (!isRemoteId(id) || !/^[0-9A-Za-z][0-9A-Za-z.+-]*$/.test(version) || version.includes('.tmp')) {
      next();
      return;
    }
    files(req, res, next);
  });
  router.use((_req, res) => {
    res.status(404).type('text/plain').send('Not Found');
  });
  return router;
}
