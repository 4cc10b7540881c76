/**
 * The service's network edge as a black box: two real `tilecam serve` processes, one under `--sources lan` (the
 * default) and one under `--sources public` behind a trusted proxy (`--trust-proxy loopback`), and fast-check
 * throwing at them camera URLs of every special-use address in many spellings, pages and API routes, paths to the
 * web folder's sources, and WebSocket upgrades from other sites. FUZZ_SEED=<seed> replays a failure (FUZZ_SCALE=<n>
 * multiplies the number of runs), as in test/fuzz.test.ts.
 */
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { type IncomingHttpHeaders, request } from 'node:http';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import ipaddr from 'ipaddr.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTilecam } from '../server/dev/servers.ts';
import { createApp } from '../server/http/app.ts';
import type { GameSnapshot, SourceView } from '../server/protocol/index.ts';
import { GameService } from '../server/service/service.ts';
import { SqliteStore } from '../server/store/sqlite.ts';
import { root } from './helpers.ts';
import { handshake, upgradeRequest } from './raw-ws.ts';
import {
  addressIn,
  ipv4Spellings,
  ipv6Host,
  metadataHosts,
  type SpecialRange,
  specialRanges,
} from './special-addresses.ts';

const SEED = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);
const SCALE = Math.max(1, Number(process.env.FUZZ_SCALE ?? 1) || 1);
const runs = (n: number) => ({ numRuns: n * SCALE, ...(SEED === undefined ? {} : { seed: SEED }) });

type Policy = 'lan' | 'public';
interface Server {
  port: number;
  stop(): Promise<void>;
  game: { id: string; token: string };
}
const dir = mkdtempSync(join(tmpdir(), 'tilecam-fuzz-net-'));
const servers = {} as Record<Policy, Server>;

interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** One request with node:http (paths and headers go out exactly as written); the body read up to `maxBody`
 *  bytes (an event stream is cut there). */
function send(
  port: number,
  method: string,
  path: string,
  options: { headers?: Record<string, string>; body?: string; maxBody?: number } = {},
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers: options.headers }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const done = () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks).toString(),
        });
      res.on('data', (c: Buffer) => {
        chunks.push(c);
        size += c.length;
        if (size >= (options.maxBody ?? 1 << 20)) {
          res.destroy();
          done();
        }
      });
      res.on('end', done);
      res.on('error', done);
      // An event stream sends its first event and stays open: what came in the first moment is enough.
      if (/event-stream/.test(String(res.headers['content-type'])))
        setTimeout(() => {
          res.destroy();
          done();
        }, 200);
    });
    req.setTimeout(10_000, () => req.destroy(new Error(`${method} ${path}: no answer in 10 s`)));
    req.on('error', reject);
    req.end(options.body);
  });
}

const json = (body: unknown) => ({
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

async function startSource(policy: Policy, url: string): Promise<Reply> {
  const { port, game } = servers[policy];
  const { headers, body } = json({ url });
  return send(port, 'POST', `/api/games/${game.id}/source`, {
    headers: { ...headers, authorization: `Bearer ${game.token}` },
    body,
  });
}

/** POST …/source refuses `url` by the source policy, or (allowed) takes it, the stream then stopped again. */
async function expectVerdict(policy: Policy, url: string, allowed: boolean, what: string): Promise<void> {
  const reply = await startSource(policy, url);
  if (!allowed) {
    expect([what, policy, reply.status]).toEqual([what, policy, 400]);
    expect(JSON.parse(reply.body).error.message).toMatch(new RegExp(`source policy \\(${policy}\\)`));
    return;
  }
  expect([what, policy, reply.status]).toEqual([what, policy, 202]);
  const { port, game } = servers[policy];
  const stopped = await send(port, 'DELETE', `/api/games/${game.id}/source`, {
    headers: { authorization: `Bearer ${game.token}` },
  });
  expect(stopped.status).toBe(200);
}

/** This machine's own addresses, as the tests see them (os.networkInterfaces()). */
const own = new Set(
  Object.values(networkInterfaces())
    .flat()
    .map((a) => ipaddr.parse(a!.address).toNormalizedString()),
);
const metadata = new Set(
  ['169.254.169.254', '169.254.170.2', '100.100.100.200', 'fd00:ec2::254'].map((a) =>
    ipaddr.parse(a).toNormalizedString(),
  ),
);
/** Of the special-use ranges, those a camera on the home or club network may be in (under `lan`). */
const lanRanges = new Set(['private', 'carrierGradeNat', 'uniqueLocal']);
/** Whether `lan` takes this address of `range`, in a spelling that is (not) for global addresses only. */
function lanTakes(range: string, bytes: readonly number[], globalOnly: boolean): boolean {
  const normal = ipaddr.fromByteArray(Array.from(bytes)).toNormalizedString();
  return !globalOnly && lanRanges.has(range) && !metadata.has(normal) && !own.has(normal);
}

const v4ranges = specialRanges('ipv4');
/** The IPv6 special ranges that carry no IPv4 address (those that do are the IPv4 spellings). */
const v6ranges = specialRanges('ipv6').filter(
  (r) => !['ipv4Mapped', 'rfc6145', '6to4'].includes(r.name) && !(r.name === 'rfc6052' && r.prefix === 96),
);

/** `tilecam serve` on an ephemeral port with `args`, and a game on it. */
async function serve(policy: Policy, args: readonly string[]): Promise<void> {
  const db = join(dir, `${policy}.db`);
  const { child, ready } = startTilecam(['serve', '--port', '0', '--db', db, '--sources', policy, ...args]);
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  servers[policy] = { port: 0, stop, game: { id: '', token: '' } };
  const { port } = (await ready) as { port: number };
  const created = await send(port, 'POST', '/api/games', json({ players: ['Ann', 'Ben'] }));
  expect(created.status).toBe(201);
  servers[policy] = { port, stop, game: JSON.parse(created.body) };
}

beforeAll(() => Promise.all([serve('lan', []), serve('public', ['--trust-proxy', 'loopback'])]), 90_000);
afterAll(() => Promise.all(Object.values(servers).map((s) => s.stop())));

describe('camera URLs under the lan and public source policies', () => {
  it('refuses every special-use IPv4 address, however spelled, but a private one as itself under lan', async () => {
    const arb = fc.record({
      range: fc.constantFrom(...v4ranges),
      host: fc.bigInt({ min: 0n, max: (1n << 32n) - 1n }),
      spelling: fc.constantFrom(...ipv4Spellings),
      port: fc.option(fc.integer({ min: 1, max: 65535 }), { nil: undefined }),
      path: fc.constantFrom('/video', '/', '/mjpg/video.mjpg?fps=5'),
    });
    await fc.assert(
      fc.asyncProperty(arb, async ({ range, host, spelling, port, path }) => {
        const bytes = addressIn(range, host);
        const url = `http://${spelling.host(bytes)}${port ? `:${port}` : ''}${path}`;
        const what = `${url} (${range.name}, ${spelling.name})`;
        await expectVerdict('public', url, false, what);
        await expectVerdict('lan', url, lanTakes(range.name, bytes, spelling.globalOnly), what);
      }),
      runs(150),
    );
  }, 120_000);

  it('refuses every special-use IPv6 address, but a unique-local one under lan', async () => {
    const arb = fc.record({
      range: fc.constantFrom(...v6ranges),
      host: fc.bigInt({ min: 0n, max: (1n << 128n) - 1n }),
      style: fc.constantFrom('compressed', 'full', 'upper') as fc.Arbitrary<'compressed' | 'full' | 'upper'>,
      scheme: fc.constantFrom('http', 'https'),
    });
    await fc.assert(
      fc.asyncProperty(arb, async ({ range, host, style, scheme }) => {
        const bytes = addressIn(range, host);
        const url = `${scheme}://${ipv6Host(bytes, style)}:8080/video`;
        const what = `${url} (${range.name})`;
        await expectVerdict('public', url, false, what);
        await expectVerdict('lan', url, lanTakes(range.name, bytes, false), what);
      }),
      runs(100),
    );
  }, 120_000);

  it('refuses, in every range and spelling, the edges of each range (its first and last address)', async () => {
    const edges = (ranges: SpecialRange[]) =>
      ranges.flatMap((r) => [addressIn(r, 0n), addressIn(r, -1n)].map((bytes) => ({ range: r, bytes })));
    for (const { range, bytes } of edges(v4ranges))
      for (const spelling of ipv4Spellings) {
        const url = `http://${spelling.host(bytes)}/video`;
        await expectVerdict('public', url, false, url);
        await expectVerdict('lan', url, lanTakes(range.name, bytes, spelling.globalOnly), url);
      }
    for (const { range, bytes } of edges(v6ranges)) {
      const url = `http://${ipv6Host(bytes)}/video`;
      await expectVerdict('public', url, false, url);
      await expectVerdict('lan', url, lanTakes(range.name, bytes, false), url);
    }
  }, 120_000);

  it("refuses cloud metadata services and this machine's own addresses, by name and address", async () => {
    const mine = Object.values(networkInterfaces())
      .flat()
      .map((a) => (a!.family === 'IPv6' ? `[${a!.address}]` : a!.address));
    for (const host of [...metadataHosts, ...mine, '[::127.0.0.1]', '[::ffff:127.0.0.1]'])
      for (const policy of ['lan', 'public'] as const)
        await expectVerdict(policy, `http://${host}/latest/meta-data/`, false, host);
  });

  it('tells every viewer only that a stream stopped, and its scorekeeper why', async () => {
    const { port, game } = servers.lan;
    const viewer = async () =>
      (JSON.parse((await send(port, 'GET', `/api/games/${game.id}`)).body) as GameSnapshot).sources;
    const scorekeeper = async (token?: string) =>
      send(port, 'GET', `/api/games/${game.id}/source`, {
        headers: token ? { authorization: `Bearer ${token}` } : {},
      });
    // A name that does not resolve (a scanner would learn ENOTFOUND), and one that resolves to this machine.
    for (const [url, why] of [
      ['http://no-such-camera.invalid/video', /ENOTFOUND|EAI_AGAIN/],
      ['http://localhost:9/video', /reaches (127\.0\.0\.1|::1).*policy \(lan\)/],
    ] as const) {
      expect((await startSource('lan', url)).status).toBe(202);
      let shown: readonly SourceView[] = [];
      for (let i = 0; i < 100 && shown[0]?.state !== 'stopped'; i++) {
        await new Promise((r) => setTimeout(r, 50));
        shown = await viewer();
      }
      expect(shown).toEqual([
        { camera: 0, host: new URL(url).host, state: 'stopped', error: 'the camera stream stopped' },
      ]);
      const detail = await scorekeeper(game.token);
      expect(detail.status).toBe(200);
      expect((JSON.parse(detail.body) as { sources: SourceView[] }).sources[0]?.error).toMatch(why);
      expect((await scorekeeper()).status).toBe(401);
      expect((await scorekeeper('wrong')).status).toBe(401);
    }
  }, 30_000);
});

// ---------------------------------------------------------------------------------------------------------------
// Headers, files served, WebSocket origins

const webDir = join(root, 'web');
const pageFiles = readdirSync(webDir).filter((f) => f.endsWith('.html'));
/** What the pages load: their bundles and style sheets and icons, read from the pages themselves. */
const loaded = [
  ...new Set(
    pageFiles.flatMap((f) =>
      [
        ...readFileSync(join(webDir, f), 'utf8').matchAll(/(?:src|href)="(\/?[\w./-]+\.(?:js|css|svg))"/g),
      ].map((m) => (m[1]!.startsWith('/') ? m[1]! : `/${m[1]}`)),
    ),
  ),
];
const pages = ['/', ...pageFiles.flatMap((f) => [`/${f}`, `/${f.replace(/\.html$/, '')}`])];
const OVERLAY = new Set(['/overlay.html', '/overlay']);

/** Every route of the app (express's router), with its parameters filled in for `game`. */
function apiRoutes(game: string): { method: string; path: string }[] {
  const store = new SqliteStore(join(dir, 'routes.db'));
  const service = new GameService(store, {});
  const app = createApp(service, new Map());
  type Layer = { route?: { path: string; methods: Record<string, boolean> }; handle?: { stack?: Layer[] } };
  const out: { method: string; path: string }[] = [];
  const walk = (stack: Layer[]) => {
    for (const layer of stack) {
      if (layer.route)
        for (const method of Object.keys(layer.route.methods))
          out.push({ method: method.toUpperCase(), path: layer.route.path });
      else if (layer.handle?.stack) walk(layer.handle.stack);
    }
  };
  walk((app as unknown as { router: { stack: Layer[] } }).router.stack);
  void service.stopAll();
  store.close();
  const params: Record<string, string> = { id: game, name: 'board.js', n: '0', file: 'score.txt' };
  return out.map(({ method, path }) => ({
    method,
    path: path.replace(/:(\w+)/g, (_, p: string) => params[p] ?? p),
  }));
}

function expectSecurityHeaders(what: string, headers: IncomingHttpHeaders, frameable: boolean): void {
  const csp = String(headers['content-security-policy'] ?? '');
  const directives = new Map(
    csp.split(';').map((d) => {
      const [name = '', ...values] = d.trim().split(/\s+/);
      return [name, values] as const;
    }),
  );
  expect([what, directives.get('default-src')]).toEqual([what, ["'self'"]]);
  expect([what, directives.get('script-src')]).toEqual([what, ["'self'"]]);
  expect([what, directives.get('object-src')]).toEqual([what, ["'none'"]]);
  expect(csp).not.toMatch(/unsafe-eval/);
  // Inline styles only on the overlay, for OBS's Custom CSS; inline scripts nowhere.
  expect([what, directives.get('style-src')]).toEqual([
    what,
    frameable ? ["'self'", "'unsafe-inline'"] : ["'self'"],
  ]);
  expect([what, headers['x-content-type-options']]).toEqual([what, 'nosniff']);
  expect([what, headers['referrer-policy']]).toEqual([what, 'same-origin']);
  if (frameable) {
    expect([what, directives.has('frame-ancestors'), headers['x-frame-options']]).toEqual([
      what,
      false,
      undefined,
    ]);
  } else {
    expect([what, directives.get('frame-ancestors'), headers['x-frame-options']]).toEqual([
      what,
      ["'none'"],
      'DENY',
    ]);
  }
}

describe('what browsers are told and served', () => {
  it('sends the security headers with every page and API answer; only the overlay may be framed', async () => {
    const { port, game } = servers.public;
    const routes = apiRoutes(game.id);
    expect(routes.length).toBeGreaterThan(20);
    const targets = [
      ...pages.map((path) => ({ method: 'GET', path })),
      ...loaded.map((path) => ({ method: 'GET', path })),
      ...routes,
      { method: 'GET', path: '/no-such-page' },
      { method: 'GET', path: '/api/no-such-endpoint' },
      { method: 'GET', path: '/board.ts' },
    ];
    const arb = fc.record({
      target: fc.constantFrom(...targets),
      query: fc.option(fc.constantFrom('?game=x', '?game=x&theme=light', '?fields=scores,board#token=abc'), {
        nil: '',
      }),
      token: fc.boolean(),
    });
    await fc.assert(
      fc.asyncProperty(arb, async ({ target, query, token }) => {
        const reply = await send(port, target.method, `${target.path}${query}`, {
          headers: token ? { authorization: `Bearer ${game.token}` } : {},
          maxBody: 1,
        });
        const what = `${target.method} ${target.path}${query} → ${reply.status}`;
        expectSecurityHeaders(what, reply.headers, OVERLAY.has(target.path));
      }),
      runs(150),
    );
    // Each one at least once, whatever the draw.
    for (const target of targets) {
      const reply = await send(port, target.method, target.path, { maxBody: 1 });
      expectSecurityHeaders(`${target.method} ${target.path}`, reply.headers, OVERLAY.has(target.path));
    }
  }, 60_000);

  it('serves the pages and what they load, and none of the web folder’s sources however asked', async () => {
    const { port } = servers.lan;
    for (const path of [...pages, ...loaded])
      expect([path, (await send(port, 'GET', path)).status]).toEqual([path, 200]);
    const sources = readdirSync(webDir, { recursive: true, encoding: 'utf8' }).filter(
      (f) => !/^[\w-]+\.(html|css|svg)$/.test(f) && /\.\w+$/.test(f),
    );
    expect(sources).toContain('pages/board.ts');
    expect(sources).toContain('ui/render.ts');
    const spellings: ((f: string) => string)[] = [
      (f) => `/${f}`,
      (f) => `/${f}?v=1`,
      (f) => `/${f.replace('.', '%2E')}`,
      (f) => `/${f.replace('.', '%2e')}`,
      (f) => `/${f.toUpperCase()}`,
      (f) => `/web/${f}`,
      (f) => `//${f}`,
      (f) => `/./${f}`,
      (f) => `/${f}/`,
      (f) => `/app/${f}`,
      (f) => `/${encodeURIComponent(f)}`,
    ];
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...sources), fc.constantFrom(...spellings), async (file, spell) => {
        const path = spell(file);
        const reply = await send(port, 'GET', path);
        expect([path, reply.status]).toEqual([path, 404]);
        expect(reply.headers['content-type']).toMatch(/application\/json/);
      }),
      runs(150),
    );
  }, 60_000);
});

describe('WebSocket upgrades', () => {
  const upgrade = async (policy: Policy, headers: Record<string, string>) => {
    const { port, game } = servers[policy];
    const reply = await handshake(
      port,
      upgradeRequest(`/ws?game=${game.id}`, { Host: `127.0.0.1:${port}`, ...headers }),
    );
    reply.socket.destroy();
    return reply.status;
  };

  it('refuses another site’s page, and lets in the same origin and clients that send none', async () => {
    for (const policy of ['lan', 'public'] as const) {
      const port = servers[policy].port;
      expect(await upgrade(policy, {})).toBe(101);
      for (const origin of [
        `http://127.0.0.1:${port}`,
        `HTTP://127.0.0.1:${port}`,
        `https://127.0.0.1:${port}`,
      ])
        expect([origin, await upgrade(policy, { Origin: origin })]).toEqual([origin, 101]);
      const foreign = fc.oneof(
        fc.domain().map((d) => `https://${d}`),
        fc
          .tuple(fc.constantFrom('http', 'https'), fc.integer({ min: 1, max: 65535 }))
          .filter(([, p]) => p !== port)
          .map(([s, p]) => `${s}://127.0.0.1:${p}`),
        fc.constantFrom(
          'null',
          'file://',
          'http://127.0.0.1',
          `http://localhost:${port}`,
          `http://[::1]:${port}`,
          `http://127.0.0.1.nip.io:${port}`,
          `http://evil.example:${port}`,
          `chrome-extension://abcdef`,
          `http://127.0.0.1:${port}.evil.example`,
        ),
      );
      await fc.assert(
        fc.asyncProperty(foreign, async (origin) => {
          expect([origin, await upgrade(policy, { Origin: origin })]).toEqual([origin, 403]);
        }),
        runs(60),
      );
    }
  }, 60_000);

  it('believes X-Forwarded-Host only from a trusted proxy', async () => {
    const forwarded = { Origin: 'https://club.example', 'X-Forwarded-Host': 'club.example' };
    expect(await upgrade('public', forwarded)).toBe(101);
    expect(
      await upgrade('public', { ...forwarded, 'X-Forwarded-Host': 'club.example, proxy.internal' }),
    ).toBe(101);
    expect(await upgrade('public', { ...forwarded, 'X-Forwarded-Host': 'other.example' })).toBe(403);
    // The lan server trusts no proxy: the header is ignored, and the origin is not the Host's.
    expect(await upgrade('lan', forwarded)).toBe(403);
  });
});
