import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { precompressDir } from 'shared-contracts/build/precompress';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runReleasesCommand } from '../cli/releases.js';
import { createReleaseService } from '../releases/release-service.js';
import { startTestGateway, writeFakeShell, type TestGateway } from '../testing/test-gateway.js';
import { acceptedEncodings } from './precompressed.js';

interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

let server: Server;
/** One request on the wire, its body as sent (supertest would decode gzip and brotli itself). */
function raw(method: string, urlPath: string, acceptEncoding?: string): Promise<RawResponse> {
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method,
        path: urlPath,
        headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** The body as the browser reads it, whatever encoding it travelled in. */
function decoded(res: RawResponse): string {
  const encoding = res.headers['content-encoding'];
  if (encoding === 'br') return brotliDecompressSync(res.body).toString();
  if (encoding === 'gzip') return gunzipSync(res.body).toString();
  return res.body.toString();
}

// Big enough to be precompressed, and text a bundle could hold.
const STYLES = `.a{color:red}\n`.repeat(200);
const SCRIPT = `(()=>{${Array.from({ length: 400 }, (_, i) => `var v${i}="value ${i}";`).join('')}})();\n`;

describe('accepted encodings (RFC 9110 §12.5.3)', () => {
  it.each([
    ['gzip, deflate, br, zstd', ['br', 'gzip']],
    ['gzip', ['gzip']],
    ['br;q=0, gzip', ['gzip']],
    ['br, gzip;q=0', ['br']],
    ['*', ['br', 'gzip']],
    ['*;q=0, gzip', ['gzip']],
    ['identity', []],
    ['x-gzip', ['gzip']],
    ['BR;Q=0.5', ['br']],
    ['br;q=oops', []],
    ['', []],
  ])('%j allows %j', (header, expected) => {
    expect([...acceptedEncodings(header)]).toEqual(expected);
  });
});

describe('precompressed siblings of built files (ADR 0026)', () => {
  let gw: TestGateway;
  let version: string;
  beforeAll(async () => {
    gw = await startTestGateway();
    server = gw.app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const dist = path.join(gw.dataDir, 'build-precompressed', 'dist');
    mkdirSync(path.join(dist, 'nested'), { recursive: true });
    writeFileSync(path.join(dist, 'remoteEntry.js'), SCRIPT);
    writeFileSync(path.join(dist, 'nested', 'page.css'), STYLES);
    writeFileSync(path.join(dist, 'tiny.js'), 'var x=1;');
    await precompressDir(dist);
    const out: string[] = [];
    await runReleasesCommand(
      ['publish', 'mfe-tenant', dist],
      createReleaseService(gw.store, gw.config.shellDist),
      (l) => out.push(l),
    );
    await gw.releases.refresh();
    version = /0\.\d+\.\d+-[0-9a-f]+/.exec(out.join('\n'))![0];
    // The shell's build output, precompressed as the shell's build does it.
    writeFileSync(path.join(gw.shellDist, 'assets-script.0123456789abcdef.js'), SCRIPT);
    await precompressDir(gw.shellDist);
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await gw.close();
  });
  const release = (file: string) => `/remotes/mfe-tenant/${version}/${file}`;

  it('a release file goes out as brotli when the browser accepts it, with its own type and cache headers', async () => {
    const res = await raw('GET', release('remoteEntry.js'), 'gzip, deflate, br, zstd');
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/^text\/javascript/);
    expect(res.headers['vary']).toMatch(/Accept-Encoding/i);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(Number(res.headers['content-length'])).toBe(res.body.length);
    expect(res.body.length).toBeLessThan(SCRIPT.length / 4);
    expect(brotliDecompressSync(res.body).toString()).toBe(SCRIPT);
  });

  it('gzip when brotli is refused or not offered; the file itself when neither is acceptable', async () => {
    for (const header of ['gzip', 'br;q=0, gzip;q=0.8']) {
      const res = await raw('GET', release('nested/page.css'), header);
      expect(res.headers['content-encoding']).toBe('gzip');
      expect(res.headers['content-type']).toMatch(/^text\/css/);
      expect(gunzipSync(res.body).toString()).toBe(STYLES);
    }
    for (const header of ['identity', undefined]) {
      const plain = await raw('GET', release('remoteEntry.js'), header);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.body.toString()).toBe(SCRIPT);
    }
  });

  it('the two encodings of one file have different validators', async () => {
    const br = await raw('HEAD', release('remoteEntry.js'), 'br');
    const gz = await raw('HEAD', release('remoteEntry.js'), 'gzip');
    expect(br.status).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.body.length).toBe(0);
    expect(br.headers['etag']).toBeTruthy();
    expect(br.headers['etag']).not.toBe(gz.headers['etag']);
  });

  it('a sibling is never a file of its own, and a file too small for one is sent as it is', async () => {
    expect((await raw('GET', release('remoteEntry.js.br'), 'br')).status).toBe(404);
    expect((await raw('GET', release('nested/page.css.gz'), 'gzip')).status).toBe(404);
    const tiny = await raw('GET', release('tiny.js'), 'br');
    expect(tiny.headers['content-encoding']).toBeUndefined();
    expect(tiny.body.toString()).toBe('var x=1;');
  });

  it("the shell's hashed assets go out precompressed too; a file changed after its siblings is sent itself", async () => {
    const asset = '/assets-script.0123456789abcdef.js';
    const res = await raw('GET', asset, 'gzip, br');
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(brotliDecompressSync(res.body).toString()).toBe(SCRIPT);
    expect((await raw('GET', `${asset}.br`, 'br')).status).toBe(404);

    // Rewritten without its siblings being written again (at once: the same clock tick as they were, as a copy
    // then an edit would be): they describe old bytes and must not be sent.
    const file = path.join(gw.shellDist, asset.slice(1));
    writeFileSync(file, `${SCRIPT}//changed\n`);
    const stale = await raw('GET', asset, 'br');
    expect(stale.status).toBe(200);
    expect(decoded(stale)).toBe(`${SCRIPT}//changed\n`);
  });
});

describe('precompressed siblings wherever the service is installed (issue 54)', () => {
  let gw: TestGateway;
  let base: string;
  let shellDist: string;
  const asset = 'assets-script.0123456789abcdef.js';
  beforeAll(async () => {
    // An installation under a dot-directory, reached through a symlink: `/…/.releases/current -> v1`.
    base = mkdtempSync(path.join(tmpdir(), 'precompressed-install-'));
    const real = path.join(base, '.releases', 'v1');
    mkdirSync(real, { recursive: true });
    symlinkSync(real, path.join(base, '.releases', 'current'));
    shellDist = path.join(base, '.releases', 'current', 'shell');
    writeFakeShell(shellDist);
    writeFileSync(path.join(shellDist, asset), SCRIPT);
    await precompressDir(shellDist);
    gw = await startTestGateway({ config: { shellDist } });
    server = gw.app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await gw.close();
    rmSync(base, { recursive: true, force: true });
  });

  it("the bytes on the wire are the build's own .br and .gz siblings, not a compression made on the fly", async () => {
    const br = await raw('GET', `/${asset}`, 'gzip, deflate, br');
    expect(br.status).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.body.equals(readFileSync(path.join(shellDist, `${asset}.br`)))).toBe(true);
    expect(Number(br.headers['content-length'])).toBe(br.body.length);
    const gz = await raw('GET', `/${asset}`, 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.body.equals(readFileSync(path.join(shellDist, `${asset}.gz`)))).toBe(true);
  });

  it('a dot name inside the build folder is still never served', async () => {
    writeFileSync(path.join(shellDist, '.secret.js'), SCRIPT);
    await precompressDir(shellDist);
    expect((await raw('GET', '/.secret.js', 'br')).status).not.toBe(200);
  });
});
