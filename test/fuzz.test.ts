/**
 * Fuzzing the service as a black box: the real `tilecam serve` runs as a child process (so a crash shows as the
 * process exiting) and fast-check throws malformed HTTP bodies, paths, headers, images, WebSocket messages and raw
 * WebSocket frames at it. After every case the process must still run, `GET /api/health` must answer 200, and the
 * case's own answer must be no 5xx (and, under /api, a JSON `{ error: { code, message } }` when it is a 4xx).
 *
 * A case that kills the server fails with the server's stderr; the next case starts a new server on the same
 * database, so every property reports its own counterexample. Seeds are random; fast-check prints the seed and
 * path of a failure, and FUZZ_SEED=<seed> replays it (FUZZ_SCALE=<n> multiplies the number of runs).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { type IncomingHttpHeaders, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, crc32, deflateSync, gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { root } from './helpers.ts';
import {
  clientFrame,
  closePayload,
  describeFrames,
  encodeFrame,
  GOOD_KEY,
  handshake,
  type RawFrame,
  sendAndSettle,
  upgradeRequest,
} from './raw-ws.ts';

const SEED = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);
const SCALE = Math.max(1, Number(process.env.FUZZ_SCALE ?? 1) || 1);
const runs = (n: number) => ({ numRuns: n * SCALE, ...(SEED === undefined ? {} : { seed: SEED }) });

const JPEG = readFileSync(join(root, 'fixtures/demo_game/0.jpg'));

// ---------------------------------------------------------------------------------------------------------------
// The server, as a child process

interface Child {
  process: ChildProcess;
  port: number;
  /** Everything it wrote to stderr. */
  log: string;
  /** How it ended ("exited with code 1"), null while it runs. */
  exit: string | null;
  exited: Promise<void>;
}

const dir = mkdtempSync(join(tmpdir(), 'tilecam-fuzz-'));
const db = join(dir, 'db.sqlite');
let server: Child;

async function startServer(): Promise<Child> {
  const proc = spawn(
    process.execPath,
    [join(root, 'server/cli/bin.mjs'), 'serve', '--port', '0', '--json', '--db', db],
    { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const child: Child = { process: proc, port: 0, log: '', exit: null, exited: Promise.resolve() };
  child.exited = new Promise((done) =>
    proc.once('exit', (code, signal) => {
      child.exit = signal ? `was killed by ${signal}` : `exited with code ${code}`;
      done();
    }),
  );
  proc.stderr!.setEncoding('utf8');
  proc.stderr!.on('data', (d: string) => {
    child.log += d;
  });
  proc.stdout!.setEncoding('utf8');
  child.port = await new Promise<number>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(
      () => reject(new Error(`the server did not start in 30 s:\n${child.log}`)),
      30_000,
    );
    proc.stdout!.on('data', (d: string) => {
      out += d;
      const line = out.split('\n')[0]!;
      if (line === out) return;
      clearTimeout(timer);
      try {
        resolve((JSON.parse(line) as { port: number }).port);
      } catch {
        reject(new Error(`the server printed ${JSON.stringify(line)} instead of {"port":…}`));
      }
    });
    void child.exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`the server ${child.exit} while starting:\n${child.log}`));
    });
  });
  return child;
}

async function stopServer(child: Child): Promise<void> {
  if (child.exit !== null) return;
  child.process.kill('SIGTERM');
  const killed = setTimeout(() => child.process.kill('SIGKILL'), 5000);
  await child.exited;
  clearTimeout(killed);
}

// ---------------------------------------------------------------------------------------------------------------
// HTTP with node:http: paths and headers go out exactly as generated (fetch would normalise `..` and refuse some)

interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}
/** No response: `stalled` when none came in time (a failure), otherwise the connection was reset or refused. */
interface NoReply {
  failed: string;
  stalled: boolean;
}
type Outcome = Reply | NoReply;

function send(
  method: string,
  path: string,
  options: { headers?: Record<string, string>; body?: Uint8Array | string; timeoutMs?: number } = {},
): Promise<Outcome> {
  const timeoutMs = options.timeoutMs ?? 10_000;
  return new Promise((resolve) => {
    let settled = false;
    const done = (o: Outcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(o);
    };
    const req = request({
      host: '127.0.0.1',
      port: server.port,
      method,
      path,
      headers: options.headers ?? {},
      agent: false,
    });
    const timer = setTimeout(() => {
      req.destroy();
      done({ failed: `no response within ${timeoutMs} ms`, stalled: true });
    }, timeoutMs);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        done({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
      res.on('error', (err) => done({ failed: `response cut off: ${err.message}`, stalled: false }));
    });
    req.on('error', (err) =>
      done({ failed: (err as NodeJS.ErrnoException).code ?? err.message, stalled: false }),
    );
    req.end(options.body);
  });
}

const snippet = (body: Buffer | string, n = 300) => {
  const text = body.toString();
  return JSON.stringify(text.length > n ? `${text.slice(0, n)}…` : text);
};
const short = (s: string, n = 160) => (s.length > n ? `${s.slice(0, n)}…(${s.length} chars)` : s);

/** Paths the service treats as its API (express routes case-insensitively; an absolute-form target counts too). */
const isApiPath = (path: string) =>
  /^\/api(?:[/?#]|$)/i.test(path.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, ''));

const errorCode = (body: Buffer): string | undefined => {
  try {
    const code = (JSON.parse(body.toString()) as { error?: { code?: unknown } }).error?.code;
    return typeof code === 'string' ? code : undefined;
  } catch {
    return undefined;
  }
};

/**
 * Node's HTTP parser refuses some requests itself (a character it does not allow in the target, a head too large)
 * with a bare `400 Bad Request` or `431` and `Connection: close`, before the app sees them: no JSON body there.
 */
const fromNodeParser = (o: Reply) =>
  (o.status === 400 || o.status === 431) &&
  o.body.length === 0 &&
  o.headers['content-type'] === undefined &&
  o.headers.connection === 'close';

/** What is wrong with the answer to one request, if anything. */
function replyProblems(method: string, path: string, o: Outcome): string[] {
  const what = `${method} ${short(path)}`;
  count('failed' in o ? o.failed : `${o.status} ${errorCode(o.body) ?? ''}`.trim());
  if ('failed' in o) return o.stalled ? [`${what}: ${o.failed}`] : [];
  const problems: string[] = [];
  if (o.status >= 500) problems.push(`${what} answered ${o.status}: ${snippet(o.body)}`);
  else if (o.status >= 400 && isApiPath(path) && method !== 'HEAD' && !fromNodeParser(o)) {
    let error: { code?: unknown; message?: unknown } | undefined;
    try {
      error = (JSON.parse(o.body.toString()) as { error?: typeof error }).error;
    } catch {}
    if (typeof error?.code !== 'string' || typeof error.message !== 'string')
      problems.push(`${what} answered ${o.status} without a JSON {error:{code,message}}: ${snippet(o.body)}`);
  }
  if (o.body.includes('SQLite format 3')) problems.push(`${what} answered with the SQLite database file`);
  return problems;
}

// ---------------------------------------------------------------------------------------------------------------
// One fuzz case: make sure a server runs, do the case, then check the process, its health and the case's answer

/** The running server's death was already reported by the case that caused it. */
let deathReported = false;
/** A case failed: check the server is healthy (not hung) before the next one. */
let suspect = false;
/** Deaths found only when the next case started: they fail the property at its end. */
const lateDeaths: string[] = [];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const tail = (text: string, n = 2500) => (text.length > n ? `…${text.slice(-n)}` : text);

/** What the cases got (status and error code, message types), printed per test with FUZZ_VERBOSE=1. */
const outcomes = new Map<string, number>();
const count = (outcome: string) => outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);

async function health(): Promise<string | null> {
  const h = await send('GET', '/api/health', { timeoutMs: 5000 });
  if ('failed' in h) return `GET /api/health: ${h.failed}`;
  if (h.status !== 200) return `GET /api/health answered ${h.status}: ${snippet(h.body)}`;
  return null;
}

/** Before a case: a running, healthy server. Returns where the case's stderr starts. */
async function ready(): Promise<number> {
  if (server.exit === null && suspect && (await health()) !== null) {
    // Hung by the failing case before this one, which reported it: start afresh.
    deathReported = true;
    server.process.kill('SIGKILL');
    await server.exited;
  }
  suspect = false;
  if (server.exit !== null) {
    if (!deathReported)
      lateDeaths.push(`the server ${server.exit} after a case had passed:\n${tail(server.log)}`);
    server = await startServer();
    deathReported = false;
  }
  return server.log.length;
}

/** After a case: throws (a readable fast-check failure) if the server died, is unhealthy or the case went wrong. */
async function verify(what: string, problems: string[], mark: number): Promise<void> {
  const found = [...problems];
  const sick = await health();
  if (sick) found.push(sick);
  // A server that does not answer may be on its way out: give it a moment to exit, to say so.
  if (sick && server.exit === null) await Promise.race([server.exited, sleep(1000)]);
  if (server.exit !== null) {
    found.unshift(`the server process ${server.exit}`);
    deathReported = true;
  }
  if (found.length === 0) return;
  suspect = true;
  const log = server.log.slice(mark).trim();
  throw new Error(
    [
      what,
      ...found.map((p) => `  - ${p}`),
      log ? `server stderr during the case:\n${tail(log)}` : 'server stderr: (nothing)',
    ].join('\n'),
  );
}

/**
 * A property's predicate with a time budget: once spent (by a slow machine, or shrinking a failure through server
 * restarts) the remaining runs pass at once, and fast-check reports the smallest failure found so far.
 */
function budgeted<T extends unknown[]>(ms: number, check: (...args: T) => Promise<void>) {
  const deadline = Date.now() + ms;
  return async (...args: T) => {
    if (Date.now() > deadline) return;
    await check(...args);
  };
}

/** When each game's last frames went out: image cases keep under the frame limit, to reach the image reader. */
const sent = new Map<string, number[]>();
async function pace(game: string, perSecond: number): Promise<void> {
  const times = (sent.get(game) ?? []).filter((t) => Date.now() - t < 1100);
  if (times.length >= perSecond) await sleep(1100 - (Date.now() - times[0]!));
  sent.set(game, [...times, Date.now()].slice(-perSecond));
}

/** fast-check `examples` (cases run first, every time): the first in full, the others as changes to it. */
function examples<T>(_arb: fc.Arbitrary<T>, first: NoInfer<T>, ...changes: Partial<NoInfer<T>>[]): [T][] {
  return [[first], ...changes.map((change): [T] => [{ ...first, ...change }])];
}

/** Ends every test: a server that died after its last case had passed fails the test too. */
async function noLateDeaths(): Promise<void> {
  await sleep(50);
  await ready();
  if (process.env.FUZZ_VERBOSE) {
    const seen = [...outcomes].sort((a, b) => b[1] - a[1]).map(([k, n]) => `${k} ×${n}`);
    console.info(`${expect.getState().currentTestName}:\n  ${seen.join(', ')}`);
  }
  outcomes.clear();
  const deaths = lateDeaths.splice(0);
  if (deaths.length > 0) throw new Error(deaths.join('\n\n'));
}

// ---------------------------------------------------------------------------------------------------------------
// Games and arbitraries

interface Game {
  id: string;
  token: string;
}
/** `play` takes random actions and bodies; `cam` random images; `me` is a Scrabble Me game. */
let play: Game;
let cam: Game;
let me: Game;

async function create(config: object): Promise<Game> {
  const res = await send('POST', '/api/games', {
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(config),
  });
  if ('failed' in res || res.status !== 201)
    throw new Error(`could not create a game: ${'failed' in res ? res.failed : snippet(res.body)}`);
  return JSON.parse(res.body.toString()) as Game;
}

/** Placeholders the arbitraries use, so counterexamples print short and stay valid across server restarts. */
const fill = (s: string) =>
  s
    .replaceAll('{PLAY}', play.id)
    .replaceAll('{CAM}', cam.id)
    .replaceAll('{ME}', me.id)
    .replaceAll('{TOKEN}', play.token)
    .replaceAll('{CAMTOKEN}', cam.token)
    .replaceAll('{METOKEN}', me.token);

/** Usually `value`, sometimes one of `others`: so most cases get past the first check to the deeper ones. */
const mostly = <T, U>(value: T, ...others: fc.Arbitrary<U>[]) =>
  fc.oneof({ weight: 4, arbitrary: fc.constant(value) }, { weight: 1, arbitrary: fc.oneof(...others) });

const char = (min: number, max: number) => fc.integer({ min, max }).map((c) => String.fromCharCode(c));
/**
 * What a request target may hold: Node's client sends 0x21–0xff, its server's parser takes 0x21–0x7e (the rest
 * gets a bare 400 before the app sees it), so those come only now and then.
 */
const asciiPathChar = char(0x21, 0x7e);
const pathChar = fc.oneof(
  { weight: 60, arbitrary: asciiPathChar },
  { weight: 1, arbitrary: char(0x7f, 0xff) },
);
/** What Node lets a header value hold: tab, 0x20–0x7e, 0x80–0xff. */
const headerChar = fc.oneof(char(0x20, 0x7e), char(0x80, 0xff), fc.constant('\t'));
const headerValue = (maxLength = 60) => fc.string({ unit: headerChar, maxLength });
const headerName = fc
  .string({
    unit: fc.constantFrom(..."abcdefghijklmnopqrstuvwxyzABCXYZ0123456789!#$%&'*+-.^_`|~".split('')),
    minLength: 1,
    maxLength: 20,
  })
  .filter((n) => !/^(content-length|transfer-encoding|connection|host|expect|upgrade|te|trailer)$/i.test(n));

const jsonText = fc.oneof(
  fc.json({ maxDepth: 4 }),
  fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
  fc.constantFrom(
    '{',
    '{"a":1,}',
    '[]',
    'null',
    '"x"',
    '1e999',
    '{"__proto__":{"players":["a","b"]}}',
    '{"constructor":{"prototype":{"polluted":1}}}',
    '\ufeff{}',
    '{"players":["a","b"],"variant":"scrabble-me","podium":null}',
    '{"players":["a","b"],"levels":[1,2],"variant":"finish-line"}',
  ),
);

/** Near-valid game configs: the right keys with random values. */
const configText = fc
  .record(
    {
      players: fc.oneof(
        fc.array(fc.string({ maxLength: 45 }), { maxLength: 6 }),
        fc.jsonValue({ maxDepth: 2 }),
      ),
      variant: fc.oneof(
        fc.constantFrom('classic', 'nine-tile', 'finish-line', 'uk', 'scrabble-me'),
        fc.jsonValue({ maxDepth: 1 }),
      ),
      lang: fc.oneof(fc.constantFrom('en', 'de'), fc.jsonValue({ maxDepth: 1 })),
      capture: fc.oneof(fc.constantFrom('auto', 'button'), fc.jsonValue({ maxDepth: 1 })),
      podium: fc.oneof(fc.string({ maxLength: 14 }), fc.jsonValue({ maxDepth: 1 })),
      levels: fc.oneof(
        fc.array(fc.constantFrom('beginner', 'intermediate', 'expert', 'x'), { maxLength: 5 }),
        fc.jsonValue({ maxDepth: 2 }),
      ),
      lexicon: fc.oneof(fc.constantFrom('default-en', 'none'), fc.jsonValue({ maxDepth: 1 })),
      challengeRule: fc.jsonValue({ maxDepth: 1 }),
    },
    { requiredKeys: ['players'] },
  )
  .map((v) => JSON.stringify(v));

const anyValue = fc.oneof(
  fc.integer({ min: -3, max: 20 }),
  fc.string({ maxLength: 12 }),
  fc.jsonValue({ maxDepth: 2 }),
);
/** Near-valid actions of both kinds of game: a known type and random fields. */
const actionText = fc
  .record(
    {
      type: fc.oneof(
        fc.constantFrom(
          'pass',
          'exchange',
          'challenge',
          'confirm',
          'correct',
          'name-blank',
          'undo',
          'end-turn',
          'end',
          'swap',
          'refill',
          'podium',
          'no-bonus',
        ),
        fc.jsonValue({ maxDepth: 1 }),
      ),
      row: anyValue,
      col: anyValue,
      tile: anyValue,
      letter: anyValue,
      tiles: anyValue,
      count: anyValue,
      player: anyValue,
      challenger: anyValue,
      with: anyValue,
      acceptable: anyValue,
      board: fc.oneof(anyValue, fc.array(fc.string({ maxLength: 16 }), { maxLength: 16 })),
      reading: fc.oneof(anyValue, fc.array(fc.string({ maxLength: 16 }), { maxLength: 16 })),
      racks: fc.oneof(anyValue, fc.array(fc.string({ maxLength: 10 }), { maxLength: 5 })),
      picks: fc.oneof(anyValue, fc.array(fc.string({ maxLength: 3 }), { maxLength: 45 })),
      letters: anyValue,
      camera: anyValue,
    },
    { requiredKeys: ['type'] },
  )
  .map((v) => JSON.stringify(v));

// ---------------------------------------------------------------------------------------------------------------

beforeAll(async () => {
  server = await startServer();
  play = await create({ players: ['Ann', 'Ben'] });
  cam = await create({ players: ['Ann', 'Ben'] });
  me = await create({ players: ['Ann', 'Ben'], variant: 'scrabble-me', podium: 'EAIRST' });
}, 60_000);

beforeEach(() => {
  lateDeaths.length = 0;
  outcomes.clear();
});

afterAll(async () => {
  if (server) await stopServer(server);
  rmSync(dir, { recursive: true, force: true });
}, 20_000);

describe('fuzzing the service over HTTP', () => {
  it('survives any request body on the JSON endpoints (bodies, content types, charsets, encodings)', async () => {
    const bomb = gzipSync(Buffer.alloc(4 * 1024 * 1024, ' '));
    const encodings = [
      'none',
      'gzip',
      'gzip-corrupt',
      'gzip-bomb',
      'deflate',
      'deflate-corrupt',
      'br',
      'br-corrupt',
      'x-unknown',
      'identity',
      'gzip, br',
      'GZIP',
    ] as const;
    const encode = (encoding: (typeof encodings)[number], body: Buffer): [string | undefined, Buffer] => {
      const cut = (b: Buffer) => b.subarray(0, Math.max(1, b.length >> 1));
      switch (encoding) {
        case 'none':
          return [undefined, body];
        case 'gzip':
          return ['gzip', gzipSync(body)];
        case 'gzip-corrupt':
          return ['gzip', cut(gzipSync(body))];
        case 'gzip-bomb':
          return ['gzip', bomb];
        case 'deflate':
          return ['deflate', deflateSync(body)];
        case 'deflate-corrupt':
          return ['deflate', body];
        case 'br':
          return ['br', brotliCompressSync(body)];
        case 'br-corrupt':
          return ['br', cut(brotliCompressSync(body))];
        default:
          return [encoding, body];
      }
    };
    const arb = fc.record({
      target: fc.constantFrom(
        '/api/games',
        '/api/games/{PLAY}/actions',
        '/api/games/{ME}/actions',
        '/api/games/{PLAY}/source',
      ),
      auth: fc.constantFrom('valid', 'valid', 'valid', 'none', 'wrong'),
      contentType: fc.option(
        fc.oneof(
          fc.constantFrom(
            'application/json',
            'application/json; charset=utf-8',
            'application/json; charset=foo',
            'application/json; charset=utf-16',
            'application/json; charset=latin1',
            'application/json; charset="',
            'application/json;;;',
            'application/json; a',
            'Application/JSON',
            'application/merge-patch+json',
            'application/*',
            'text/plain',
            'application/x-www-form-urlencoded',
            'multipart/form-data; boundary=x',
            'image/jpeg',
            '',
            ';',
            '/',
          ),
          headerValue(),
        ),
        { nil: undefined },
      ),
      encoding: fc.constantFrom(...encodings),
      body: fc.oneof(
        jsonText,
        configText,
        actionText,
        fc
          .record(
            {
              url: fc.oneof(
                fc.string(),
                fc.constantFrom('http://127.0.0.1:9/x', 'http://[::1', 'file:///etc/passwd'),
              ),
              camera: anyValue,
            },
            { requiredKeys: [] },
          )
          .map((v) => JSON.stringify(v)),
        fc.string({ maxLength: 200 }),
        fc.uint8Array({ maxLength: 512 }),
      ),
    });
    await fc.assert(
      fc.asyncProperty(
        arb,
        budgeted(25_000, async (c) => {
          const mark = await ready();
          const path = fill(c.target);
          const token = path.includes(me.id) ? me.token : play.token;
          const [encoding, body] = encode(c.encoding, Buffer.from(c.body));
          const headers: Record<string, string> = {
            ...(c.contentType === undefined ? {} : { 'content-type': c.contentType }),
            ...(encoding === undefined ? {} : { 'content-encoding': encoding }),
            ...(c.auth === 'valid' ? { authorization: `Bearer ${token}` } : {}),
            ...(c.auth === 'wrong' ? { authorization: 'Bearer not-the-token' } : {}),
          };
          const reply = await send('POST', path, { headers, body });
          await verify(`POST ${path} (${body.length} bytes)`, replyProblems('POST', path, reply), mark);
        }),
      ),
      {
        ...runs(150),
        examples: examples(
          arb,
          {
            target: '/api/games',
            auth: 'none',
            contentType: 'application/json',
            encoding: 'none',
            body: '{}',
          },
          { contentType: 'application/json; charset=foo' },
          { encoding: 'gzip-corrupt', body: '{"players":["a","b"]}' },
          { encoding: 'x-unknown' },
          { encoding: 'gzip-bomb' },
          {
            target: '/api/games/{PLAY}/actions',
            auth: 'valid',
            encoding: 'br-corrupt',
            body: '{"type":"pass"}',
          },
          {
            target: '/api/games/{PLAY}/source',
            auth: 'valid',
            encoding: 'deflate-corrupt',
            body: '{"url":"x"}',
          },
        ),
      },
    );
    await noLateDeaths();
  }, 90_000);

  it('survives any path and method (malformed percent escapes, dot segments, long segments)', async () => {
    const piece = fc.oneof(
      {
        weight: 3,
        arbitrary: fc.constantFrom(
          '%ff',
          '%zz',
          '%',
          '%e0%80',
          '%c0%af',
          '%00',
          '%2e%2e',
          '%2f',
          '%5c',
          '%%',
          '%u0041',
          '%f0%9f%98',
          '..',
          '.',
          '',
          '\\',
          '~',
          'index.html',
          'board.js',
          'photos',
          'gcg',
          'frames',
          'actions',
          'source',
          'x.jpg',
          '..%2f..%2fdb.sqlite',
          '%2e%2e%2f%2e%2e%2fdb.sqlite',
          '{PLAY}',
          '{ME}',
        ),
      },
      { weight: 3, arbitrary: fc.string({ unit: pathChar, maxLength: 16 }) },
      { weight: 1, arbitrary: fc.string({ unit: asciiPathChar, minLength: 200, maxLength: 3000 }) },
    );
    const arb = fc.record({
      method: fc.constantFrom('GET', 'POST', 'DELETE', 'PUT', 'PATCH', 'HEAD', 'OPTIONS'),
      prefix: fc.constantFrom(
        '/',
        '',
        '//',
        '/api',
        '/api/',
        '/API/GAMES/',
        '/api/games/',
        '/api/games/{PLAY}/',
        '/api/games/{PLAY}/photos/',
        '/api/games/{ME}/',
        '/app/',
        '/ws/',
        '/index.html/',
        'http://127.0.0.1/api/games/',
      ),
      segments: fc.array(piece, { maxLength: 4 }),
      query: fc.option(
        fc.oneof(
          fc.constantFrom('endTurn=%ff&camera=%zz', 'camera=99', 'camera[]=1', 'game=%', '%=%'),
          fc.string({ unit: pathChar, maxLength: 30 }),
        ),
        { nil: undefined },
      ),
    });
    await fc.assert(
      fc.asyncProperty(
        arb,
        budgeted(25_000, async (c) => {
          const mark = await ready();
          const path = fill(c.prefix + c.segments.join('/') + (c.query === undefined ? '' : `?${c.query}`));
          const reply = await send(c.method, path);
          await verify(`${c.method} ${short(path)}`, replyProblems(c.method, path, reply), mark);
        }),
      ),
      {
        ...runs(400),
        examples: examples(
          arb,
          { method: 'GET', prefix: '/api/games/', segments: ['%ff'], query: undefined },
          { segments: ['%zz'] },
          { segments: ['%'] },
          { prefix: '/api/games/{PLAY}/photos/', segments: ['%e0%80'] },
          { prefix: '/api/games/{PLAY}/photos/', segments: ['..%2f..%2fdb.sqlite'] },
          { prefix: '/app/', segments: ['%zz'] },
          { prefix: '/', segments: ['%ff'] },
          { prefix: '/', segments: ['..', '..', 'etc', 'passwd'] },
        ),
      },
    );
    await noLateDeaths();
  }, 90_000);

  it('survives odd headers (authorization, accept, content-type parameters, forwarding, ranges)', async () => {
    const targets = [
      ['GET', '/api/games/{PLAY}', undefined],
      ['GET', '/api/games/{PLAY}/gcg', undefined],
      ['GET', '/api/games', undefined],
      ['GET', '/api/health', undefined],
      ['GET', '/', undefined],
      ['GET', '/app/board.js', undefined],
      ['POST', '/api/games/{PLAY}/actions', '{"type":"no-such-action"}'],
      ['POST', '/api/games/{ME}/actions', '{"type":"no-such-action"}'],
      ['POST', '/api/games', '{"players":[]}'],
      ['POST', '/api/games/{CAM}/frames', ''],
      ['DELETE', '/api/games/{PLAY}/source', undefined],
    ] as const;
    const token = fc.constantFrom('{TOKEN}', '{METOKEN}', '{CAMTOKEN}');
    const arb = fc.record(
      {
        target: fc.integer({ min: 0, max: targets.length - 1 }),
        authorization: fc.oneof(
          token.map((t) => `Bearer ${t}`),
          token.map((t) => `bearer  ${t}`),
          token.map((t) => `Bearer ${t} extra`),
          token.map((t) => `Bearer ${t.slice(0, -1)}X`),
          fc.constantFrom(
            'Bearer',
            'Bearer ',
            'Basic YTpi',
            'Bearer \t',
            `Bearer ${'a'.repeat(6000)}`,
            'Bearer ÿÿÿ',
          ),
          headerValue(),
        ),
        accept: fc.oneof(
          fc.constantFrom('*/*', 'application/json;q=x', 'text/html;q=0', '', ';;;', 'a/b/c', '*/*;q=0'),
          headerValue(),
        ),
        contentType: fc.oneof(
          fc.constantFrom(
            'application/json; charset=foo',
            'application/json; charset=utf-8; charset=latin1',
            'image/jpeg; q',
            'application/json;=',
            'multipart/form-data; boundary=',
          ),
          headerValue(),
        ),
        forwarded: headerValue(),
        xForwardedFor: fc.oneof(
          fc.constantFrom('1.2.3.4, ::1', 'unknown', '999.1.1.1', '[::1]:80', ''),
          headerValue(),
        ),
        range: fc.oneof(
          fc.constantFrom(
            'bytes=0-0',
            'bytes=-1',
            'bytes=99999999-',
            'bytes=5-1',
            'bytes=0-1,0-1,0-1',
            'pages=1',
          ),
          headerValue(),
        ),
        ifNoneMatch: headerValue(),
        ifModifiedSince: fc.oneof(
          fc.constantFrom('Thu, 01 Jan 1970 00:00:00 GMT', 'yesterday'),
          headerValue(),
        ),
        acceptEncoding: headerValue(),
        extra: fc.array(fc.tuple(headerName, headerValue()), { maxLength: 4 }),
      },
      { requiredKeys: ['target'] },
    );
    await fc.assert(
      fc.asyncProperty(
        arb,
        budgeted(20_000, async (c) => {
          const mark = await ready();
          const [method, target, body] = targets[c.target]!;
          const path = fill(target);
          const headers: Record<string, string> = {};
          for (const [name, value] of c.extra ?? []) headers[name.toLowerCase()] = value;
          const set = (name: string, value: string | undefined) => {
            if (value !== undefined) headers[name] = fill(value);
          };
          set('authorization', c.authorization);
          set('accept', c.accept);
          set('content-type', c.contentType);
          set('forwarded', c.forwarded);
          set('x-forwarded-for', c.xForwardedFor);
          set('range', c.range);
          set('if-none-match', c.ifNoneMatch);
          set('if-modified-since', c.ifModifiedSince);
          set('accept-encoding', c.acceptEncoding);
          const reply = await send(method, path, { headers, ...(body === undefined ? {} : { body }) });
          await verify(`${method} ${path} with odd headers`, replyProblems(method, path, reply), mark);
        }),
      ),
      runs(150),
    );
    await noLateDeaths();
  }, 90_000);

  it('survives any image posted as a frame (random, truncated, corrupted, huge dimensions, empty)', async () => {
    const sof = (() => {
      for (let i = 2; i < JPEG.length - 9; i++)
        if (JPEG[i] === 0xff && (JPEG[i + 1] === 0xc0 || JPEG[i + 1] === 0xc2)) return i;
      throw new Error('no SOF marker in the fixture');
    })();
    const chunk = (type: string, data: Buffer) => {
      const size = Buffer.alloc(4);
      size.writeUInt32BE(data.length);
      const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
      const crc = Buffer.alloc(4);
      crc.writeUInt32BE(crc32(body));
      return Buffer.concat([size, body, crc]);
    };
    const png = (width: number, height: number, idat: Uint8Array) => {
      const ihdr = Buffer.alloc(13);
      ihdr.writeUInt32BE(width >>> 0, 0);
      ihdr.writeUInt32BE(height >>> 0, 4);
      ihdr.set([8, 2, 0, 0, 0], 8);
      return Buffer.concat([
        Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
        chunk('IHDR', ihdr),
        chunk('IDAT', deflateSync(idat)),
        chunk('IEND', Buffer.alloc(0)),
      ]);
    };
    const webp = (width: number, height: number, tail: Uint8Array) => {
      const vp8x = Buffer.alloc(10);
      vp8x.writeUIntLE((width - 1) & 0xffffff, 4, 3);
      vp8x.writeUIntLE((height - 1) & 0xffffff, 7, 3);
      const chunks = Buffer.concat([Buffer.from('VP8X'), Buffer.from([10, 0, 0, 0]), vp8x, tail]);
      const riff = Buffer.alloc(4);
      riff.writeUInt32LE(chunks.length + 4);
      return Buffer.concat([Buffer.from('RIFF'), riff, Buffer.from('WEBP'), chunks]);
    };
    type Image =
      | { kind: 'random'; bytes: Uint8Array }
      | { kind: 'truncated'; at: number }
      | { kind: 'flipped'; flips: [number, number][] }
      | { kind: 'jpeg-size'; width: number; height: number }
      | { kind: 'png'; width: number; height: number; idat: Uint8Array }
      | { kind: 'webp'; width: number; height: number; tail: Uint8Array }
      | { kind: 'empty' }
      | { kind: 'whole' };
    const bytesOf = (image: Image): Buffer => {
      switch (image.kind) {
        case 'random':
          return Buffer.from(image.bytes);
        case 'truncated':
          return JPEG.subarray(0, image.at);
        case 'flipped': {
          const copy = Buffer.from(JPEG);
          for (const [at, xor] of image.flips) copy[at] = copy[at]! ^ xor;
          return copy;
        }
        case 'jpeg-size': {
          const copy = Buffer.from(JPEG);
          copy.writeUInt16BE(image.height, sof + 5);
          copy.writeUInt16BE(image.width, sof + 7);
          return copy;
        }
        case 'png':
          return png(image.width, image.height, image.idat);
        case 'webp':
          return webp(image.width, image.height, image.tail);
        case 'empty':
          return Buffer.alloc(0);
        case 'whole':
          return JPEG;
      }
    };
    const huge = fc.constantFrom(0, 1, 16383, 65535, 100_000, 2 ** 24, 2 ** 31 - 1, 2 ** 32 - 1);
    const image: fc.Arbitrary<Image> = fc.oneof(
      fc.record({ kind: fc.constant('random' as const), bytes: fc.uint8Array({ maxLength: 2048 }) }),
      fc.record({
        kind: fc.constant('truncated' as const),
        at: fc.integer({ min: 0, max: JPEG.length - 1 }),
      }),
      fc.record({
        kind: fc.constant('flipped' as const),
        flips: fc.array(
          fc.tuple(fc.integer({ min: 0, max: JPEG.length - 1 }), fc.integer({ min: 1, max: 255 })),
          {
            minLength: 1,
            maxLength: 20,
          },
        ),
      }),
      fc.record({
        kind: fc.constant('jpeg-size' as const),
        width: fc.constantFrom(0, 1, 65535),
        height: fc.constantFrom(0, 1, 65535),
      }),
      fc.record({
        kind: fc.constant('png' as const),
        width: huge,
        height: huge,
        idat: fc.uint8Array({ maxLength: 64 }),
      }),
      fc.record({
        kind: fc.constant('webp' as const),
        width: fc.constantFrom(1, 16383, 2 ** 24),
        height: fc.constantFrom(1, 16383, 2 ** 24),
        tail: fc.uint8Array({ maxLength: 64 }),
      }),
      fc.constant<Image>({ kind: 'empty' }),
      fc.constant<Image>({ kind: 'whole' }),
    );
    const arb = fc.record({
      game: fc.constantFrom('cam', 'me'),
      /** Kept under the game's frame limit; unpaced cases may be refused (429), which is fine too. */
      paced: mostly(true, fc.constant(false)),
      image,
      type: fc.constantFrom(
        'image/jpeg',
        'image/png',
        'image/webp',
        'image/jpeg; charset=foo',
        'image/png; a=b',
      ),
      endTurn: fc.constantFrom(undefined, '1', 'true', '0'),
      camera: fc.oneof(
        { weight: 6, arbitrary: fc.constant(undefined) },
        { weight: 1, arbitrary: fc.constantFrom('0', '1', '99', '-1', 'x', '%ff') },
      ),
    });
    await fc.assert(
      fc.asyncProperty(
        arb,
        budgeted(25_000, async (c) => {
          if (c.paced) await pace(c.game, 7);
          const mark = await ready();
          const game = c.game === 'me' ? me : cam;
          const query = [
            ...(c.endTurn === undefined ? [] : [`endTurn=${c.endTurn}`]),
            ...(c.camera === undefined ? [] : [`camera=${c.camera}`]),
          ];
          const path = `/api/games/${game.id}/frames${query.length ? `?${query.join('&')}` : ''}`;
          const body = bytesOf(c.image);
          const reply = await send('POST', path, {
            headers: { authorization: `Bearer ${game.token}`, 'content-type': c.type },
            body,
            timeoutMs: 20_000,
          });
          await verify(
            `POST ${path} (${c.image.kind}, ${body.length} bytes)`,
            replyProblems('POST', path, reply),
            mark,
          );
        }),
      ),
      {
        ...runs(40),
        examples: examples(
          arb,
          {
            game: 'cam',
            paced: true,
            image: { kind: 'empty' },
            type: 'image/jpeg',
            endTurn: '1',
            camera: undefined,
          },
          {
            image: { kind: 'png', width: 100_000, height: 100_000, idat: new Uint8Array(8) },
            type: 'image/png',
          },
          { image: { kind: 'truncated', at: 5000 }, endTurn: undefined },
          { game: 'me', image: { kind: 'jpeg-size', width: 65535, height: 65535 }, camera: '1' },
          {
            image: { kind: 'webp', width: 2 ** 24, height: 2 ** 24, tail: new Uint8Array(0) },
            type: 'image/webp',
          },
        ),
      },
    );
    await noLateDeaths();
  }, 90_000);
});

// ---------------------------------------------------------------------------------------------------------------
// WebSocket messages through a real client

const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

/** Sends `message` on a fresh connection to `game`, then a resync; returns what went wrong, if anything. */
async function wsExchange(game: Game, message: string): Promise<string[]> {
  const ws = new WebSocket(`ws://127.0.0.1:${server.port}/ws?game=${game.id}`, {
    maxPayload: 64 * 1024 * 1024,
  });
  const received: string[] = [];
  let closed: string | null = null;
  let error: string | null = null;
  let wake = () => {};
  ws.on('message', (data) => {
    received.push(data.toString());
    wake();
  });
  ws.on('close', (code, reason) => {
    closed = `closed ${code} ${reason.toString()}`;
    wake();
  });
  ws.on('error', (err) => {
    error = err.message;
    wake();
  });
  /** Waits until `enough()` or the connection ends or `ms` pass; returns whether enough() held. */
  const until = async (enough: () => boolean, ms: number) => {
    const end = Date.now() + ms;
    while (!enough() && closed === null && error === null && Date.now() < end) {
      await new Promise<void>((r) => {
        wake = r;
        setTimeout(r, Math.max(1, end - Date.now()));
      });
    }
    return enough();
  };
  try {
    if (!(await until(() => received.length > 0, 5000)))
      return [`the WebSocket did not open with a snapshot (${closed ?? error ?? 'nothing within 5 s'})`];
    try {
      ws.send(message);
      ws.send('{"type":"resync"}');
    } catch {}
    // Every message gets an answer (error, snapshot, thumbnail): wait for both, but not forever.
    await until(() => received.length >= 3, 3000);
    count(closed ?? error ?? 'open');
    const problems: string[] = [];
    for (const text of received) {
      const m = parseJson(text) as { type?: unknown; data?: { code?: unknown } } | undefined;
      count(m?.type === 'error' ? `error ${m.data?.code}` : String(m?.type));
      if (typeof m?.type !== 'string')
        problems.push(`the server sent something not a message: ${snippet(text)}`);
      else if (m.type === 'error' && m.data?.code === 'internal')
        problems.push(`the server answered with an internal error: ${snippet(text)}`);
    }
    return problems;
  } finally {
    ws.terminate();
  }
}

describe('fuzzing the WebSocket', () => {
  it('survives any text message (random text, random JSON, bad frames, deep nesting, large messages)', async () => {
    const base64ish = fc.oneof(
      fc.base64String({ maxLength: 400 }),
      fc.string({ maxLength: 40 }),
      fc.constant('{WHOLE}'),
    );
    const frameMessage = fc
      .record(
        {
          type: mostly(
            'frame',
            fc.constantFrom('resync', 'camera-view', 'FRAME', ''),
            fc.jsonValue({ maxDepth: 1 }),
          ),
          data: mostly(undefined, fc.jsonValue({ maxDepth: 2 })).chain((other) =>
            other !== undefined
              ? fc.constant(other)
              : fc.record(
                  {
                    token: mostly(
                      '{CAMTOKEN}',
                      fc.constantFrom('{METOKEN}', '{TOKEN}', ''),
                      fc.jsonValue({ maxDepth: 1 }),
                    ),
                    jpeg: mostly('{JPEG}', base64ish, fc.jsonValue({ maxDepth: 1 })),
                    endTurn: mostly(undefined, fc.boolean(), fc.jsonValue({ maxDepth: 1 })),
                    camera: mostly(
                      undefined,
                      fc.integer({ min: -2, max: 5 }),
                      fc.constantFrom(2 ** 31, 2 ** 53, 1e308, 0.5, -0),
                      fc.jsonValue({ maxDepth: 1 }),
                    ),
                    version: mostly(
                      undefined,
                      fc.integer({ min: -1, max: 1000 }),
                      fc.jsonValue({ maxDepth: 1 }),
                    ),
                  },
                  { requiredKeys: ['token', 'jpeg'] },
                ),
          ),
        },
        { requiredKeys: ['type'] },
      )
      .map((v) => JSON.stringify(v));
    type Big =
      | { big: 'frame' | 'text' | 'over-limit' }
      | { nested: 'array' | 'object' | 'in-frame'; depth: number };
    const big: fc.Arbitrary<Big> = fc.oneof(
      fc.record({ big: fc.constantFrom('frame' as const, 'text' as const, 'over-limit' as const) }),
      fc.record({
        nested: fc.constantFrom('array' as const, 'object' as const, 'in-frame' as const),
        depth: fc.constantFrom(1000, 100_000, 500_000),
      }),
    );
    const materialize = (m: string | Big): string => {
      if (typeof m === 'string')
        return fill(m)
          .replaceAll('{JPEG}', JPEG.subarray(0, 20_000).toString('base64'))
          .replaceAll('{WHOLE}', JPEG.toString('base64'));
      if ('nested' in m) {
        const d = m.depth;
        if (m.nested === 'array') return `${'['.repeat(d)}${']'.repeat(d)}`;
        if (m.nested === 'object') return `${'{"a":'.repeat(d)}1${'}'.repeat(d)}`;
        return `{"type":"frame","data":{"token":"${cam.token}","jpeg":${'['.repeat(d)}${']'.repeat(d)}}}`;
      }
      if (m.big === 'frame')
        return JSON.stringify({ type: 'frame', data: { token: cam.token, jpeg: 'A'.repeat(1_500_000) } });
      if (m.big === 'text') return 'x'.repeat(2_000_000);
      // Over the server's 8 MiB message limit.
      return JSON.stringify({ type: 'frame', data: { token: cam.token, jpeg: 'A'.repeat(9 * 1024 * 1024) } });
    };
    const arb = fc.record({
      game: fc.constantFrom('cam', 'me'),
      message: fc.oneof(
        { weight: 2, arbitrary: fc.string({ maxLength: 300 }) },
        { weight: 2, arbitrary: fc.json({ maxDepth: 3 }) },
        { weight: 4, arbitrary: frameMessage },
        { weight: 1, arbitrary: big },
      ),
    });
    await fc.assert(
      fc.asyncProperty(
        arb,
        budgeted(25_000, async (c) => {
          const mark = await ready();
          const text = materialize(c.message);
          const problems = await wsExchange(c.game === 'me' ? me : cam, text);
          await verify(`WebSocket message of ${text.length} chars: ${short(text, 100)}`, problems, mark);
        }),
      ),
      {
        ...runs(80),
        examples: examples(
          arb,
          { game: 'cam', message: { big: 'frame' } },
          { message: { big: 'text' } },
          { message: { big: 'over-limit' } },
          { message: { nested: 'array', depth: 500_000 } },
          { message: '{"type":"frame"}' },
          { message: '{"type":"frame","data":{"token":"{CAMTOKEN}","jpeg":"{JPEG}"}}' },
          { game: 'me', message: '{"type":"frame","data":{"token":"{METOKEN}","jpeg":"AAAA","camera":9}}' },
        ),
      },
    );
    await noLateDeaths();
  }, 90_000);
});

// ---------------------------------------------------------------------------------------------------------------
// WebSocket at the protocol level: hand-made frames after a correct handshake

const MASK = Uint8Array.from([1, 2, 3, 4]);
const text = (s: string) => new TextEncoder().encode(s);

/**
 * Upgrades a raw socket to the `cam` game, writes `chunks`, waits a little, and checks the server survived. With
 * `answered`, the bytes are correct WebSocket and the connection must stay open with a text answer and a pong:
 * the frame builder itself is right, so each fault case differs from a good frame only by its fault.
 */
async function rawCase(what: string, chunks: Buffer[], waitMs = 150, answered = false): Promise<void> {
  const mark = await ready();
  const up = await handshake(server.port, upgradeRequest(`/ws?game=${cam.id}`));
  if (up.status !== 101) {
    up.socket.destroy();
    // Not a finding about the frames: the test itself could not get a WebSocket.
    throw new Error(
      `${what}: the upgrade was refused (${JSON.stringify(up.head.slice(0, 200))}), test not run`,
    );
  }
  // Good frames get the connect snapshot, the resync's snapshot and a pong.
  const complete = (got: Buffer) => {
    const frames = describeFrames(Buffer.concat([up.rest, got]));
    return frames.length >= 3 && frames.some((f) => f.startsWith('pong'));
  };
  const settled = await sendAndSettle(
    up.socket,
    chunks,
    answered ? 5000 : waitMs,
    answered ? complete : undefined,
  );
  count(settled.closedByServer ? 'closed by the server' : 'left open');
  const answer = describeFrames(Buffer.concat([up.rest, settled.received]));
  const problems: string[] = [];
  if (answered && (settled.closedByServer || !complete(settled.received)))
    problems.push('good frames were not answered with a snapshot, a resync snapshot and a pong');
  await verify(
    `raw frames, ${what}: ${settled.closedByServer ? 'the connection was closed' : 'the connection stayed open'}` +
      `${answer.length ? `; the server sent ${answer.join(', ')}` : ''}${settled.error ? ` (${settled.error})` : ''}`,
    problems,
    mark,
  );
}

const rawCases: { name: string; chunks: () => Buffer[]; answered?: boolean }[] = [
  {
    name: 'a text message declaring over 8 MiB',
    chunks: () => [clientFrame(1, new Uint8Array(1000), { declared: 9n * 1024n * 1024n, form: 64 })],
  },
  {
    name: 'invalid UTF-8 in a text frame',
    chunks: () => [clientFrame(1, Uint8Array.from([0xff, 0xfe, 0xc3, 0x28]))],
  },
  { name: 'an unmasked client frame', chunks: () => [clientFrame(1, '{"type":"resync"}', { mask: null })] },
  { name: 'reserved opcode 3', chunks: () => [clientFrame(3, 'x')] },
  { name: 'reserved opcode 0xB', chunks: () => [clientFrame(0xb, 'x')] },
  {
    name: 'RSV1 set without negotiated compression',
    chunks: () => [clientFrame(1, '{"type":"resync"}', { rsv: 4 })],
  },
  { name: 'RSV2 and RSV3 set', chunks: () => [clientFrame(1, '{"type":"resync"}', { rsv: 3 })] },
  { name: 'a continuation frame with no start', chunks: () => [clientFrame(0, 'orphan')] },
  {
    name: 'a 200-byte ping (control frames hold 125 at most)',
    chunks: () => [clientFrame(9, new Uint8Array(200))],
  },
  { name: 'a fragmented ping (FIN clear)', chunks: () => [clientFrame(9, 'ping', { fin: false })] },
  { name: 'a close frame with code 999', chunks: () => [clientFrame(8, closePayload(999))] },
  { name: 'a close frame with a 1-byte payload', chunks: () => [clientFrame(8, Uint8Array.from([3]))] },
  {
    name: 'a close frame with an invalid UTF-8 reason',
    chunks: () => [clientFrame(8, closePayload(1000, Uint8Array.from([0xc0, 0x80])))],
  },
  {
    name: 'a text frame interrupting a fragmented message',
    chunks: () => [clientFrame(1, '{"type":', { fin: false }), clientFrame(1, '"resync"}')],
  },
  {
    name: 'a 64-bit length over 2^63',
    chunks: () => [clientFrame(2, new Uint8Array(16), { declared: (1n << 64n) - 1n, form: 64 })],
  },
  { name: 'a 16-bit length form used for 5 bytes', chunks: () => [clientFrame(1, 'hello', { form: 16 })] },
  { name: 'a header cut short, then the client goes away', chunks: () => [Buffer.from([0x81, 0xfe, 0x01])] },
  // Not a fault: the frame builder's own check (a resync and a ping, answered).
  {
    name: 'a correct resync message and a ping',
    chunks: () => [clientFrame(1, '{"type":"resync"}'), clientFrame(9, 'hi')],
    answered: true,
  },
];

interface HandshakeCase {
  name: string;
  target: string;
  headers?: Record<string, string | null>;
  early?: Buffer;
}
const handshakeCases: HandshakeCase[] = [
  {
    name: 'a bad Sec-WebSocket-Key',
    target: '/ws?game={CAM}',
    headers: { 'Sec-WebSocket-Key': 'not base64!' },
  },
  { name: 'no Sec-WebSocket-Key', target: '/ws?game={CAM}', headers: { 'Sec-WebSocket-Key': null } },
  { name: 'no Sec-WebSocket-Version', target: '/ws?game={CAM}', headers: { 'Sec-WebSocket-Version': null } },
  { name: 'Sec-WebSocket-Version 8', target: '/ws?game={CAM}', headers: { 'Sec-WebSocket-Version': '8' } },
  { name: 'an unknown game id', target: '/ws?game=nosuchgame' },
  { name: '/ws without a game', target: '/ws' },
  { name: 'a malformed game id (%ff)', target: '/ws?game=%ff' },
  { name: 'an unparseable request target (//[)', target: '//[' },
  { name: 'an absolute target with a bad port', target: 'http://127.0.0.1:99999/ws?game={CAM}' },
  { name: 'an upgrade to another path', target: '/api/health' },
  {
    name: 'Upgrade: h2c instead of websocket',
    target: '/ws?game={CAM}',
    headers: { Upgrade: 'h2c' },
  },
  {
    name: 'compression offered with nonsense parameters',
    target: '/ws?game={CAM}',
    headers: { 'Sec-WebSocket-Extensions': 'permessage-deflate; client_max_window_bits=99; x; ;;' },
  },
  {
    name: 'frames sent together with the request, before the 101',
    target: '/ws?game={CAM}',
    early: Buffer.concat([clientFrame(1, '{"type":"resync"}', { mask: null }), clientFrame(3, 'x')]),
  },
];

/** One upgrade attempt with anything in it: the server may refuse or close, but must survive. */
async function handshakeCase(what: string, request: Buffer, early?: Buffer): Promise<void> {
  const mark = await ready();
  let up: Awaited<ReturnType<typeof handshake>> | undefined;
  const problems: string[] = [];
  try {
    up = await handshake(server.port, request, early);
  } catch (err) {
    problems.push((err as Error).message);
  }
  if (up && !up.closed) await sendAndSettle(up.socket, [], up.status === 101 ? 50 : 20);
  count(up ? `${up.status}${up.closed ? ' closed' : ''}` : 'stalled');
  if (up && up.status >= 500)
    problems.push(`the upgrade was answered ${JSON.stringify(up.head.slice(0, 200))}`);
  await verify(
    `upgrade, ${what}: ${up ? `${up.status ? `answered ${up.status}` : 'no answer'}${up.closed ? ', closed' : ''}` : 'stalled'}`,
    problems,
    mark,
  );
}

describe('fuzzing the WebSocket protocol with raw frames', () => {
  it.each(rawCases)(
    'survives $name',
    async ({ name, chunks, answered }) => {
      await rawCase(name, chunks(), 150, answered);
      await noLateDeaths();
    },
    30_000,
  );

  it('survives random frames (any FIN/RSV bits, opcodes 0–15, mask or none, lying lengths)', async () => {
    const frame: fc.Arbitrary<RawFrame> = fc
      .record({
        fin: fc.boolean(),
        rsv: fc.oneof(
          { weight: 3, arbitrary: fc.constant(0) },
          { weight: 1, arbitrary: fc.integer({ min: 0, max: 7 }) },
        ),
        opcode: fc.integer({ min: 0, max: 15 }),
        masked: fc.oneof(
          { weight: 4, arbitrary: fc.constant(true) },
          { weight: 1, arbitrary: fc.constant(false) },
        ),
        payload: fc.oneof(
          fc.uint8Array({ maxLength: 200 }),
          fc.string({ maxLength: 60 }).map(text),
          fc.constantFrom('{"type":"resync"}', '{"type":"frame"}', '{').map(text),
        ),
        lie: fc.option(
          fc.record({
            form: fc.constantFrom(7 as const, 16 as const, 64 as const),
            declared: fc.oneof(
              fc.bigInt({ min: 0n, max: 125n }),
              fc.bigInt({ min: 0n, max: 65_535n }),
              fc.constantFrom(126n, 127n, 8n * 1024n * 1024n + 1n, 2n ** 53n, 2n ** 63n, 2n ** 64n - 1n),
              fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }),
            ),
          }),
          { nil: undefined },
        ),
      })
      .map(
        ({ masked, lie, ...f }): RawFrame => ({
          ...f,
          mask: masked ? MASK : null,
          ...(lie ? { form: lie.form, declared: lie.declared } : {}),
        }),
      );
    await fc.assert(
      fc.asyncProperty(
        fc.array(frame, { minLength: 1, maxLength: 3 }),
        fc.boolean(),
        budgeted(25_000, async (frames, together) => {
          const bytes = frames.map(encodeFrame);
          await rawCase(`${frames.length} random frame(s)`, together ? [Buffer.concat(bytes)] : bytes, 80);
        }),
      ),
      runs(100),
    );
    await noLateDeaths();
  }, 90_000);

  it.each(handshakeCases)(
    'survives an upgrade with $name',
    async ({ name, target, headers, early }) => {
      await handshakeCase(name, upgradeRequest(fill(target), headers), early);
      await noLateDeaths();
    },
    30_000,
  );

  it('survives random upgrade requests', async () => {
    const arb = fc.record({
      target: fc.oneof(
        { weight: 3, arbitrary: fc.constant('/ws?game={CAM}') },
        {
          weight: 1,
          arbitrary: fc.constantFrom(
            '/ws?game=',
            '/ws/?game={CAM}',
            '/WS?game={CAM}',
            '/ws?game={CAM}&game=x',
            '//x/ws?game={CAM}',
            '*',
          ),
        },
        { weight: 1, arbitrary: fc.string({ unit: pathChar, maxLength: 40 }).map((s) => `/${s}`) },
        { weight: 1, arbitrary: fc.string({ unit: pathChar, maxLength: 20 }).map((s) => `/ws?game=${s}`) },
      ),
      key: mostly(GOOD_KEY, fc.constantFrom(null, '', '====', GOOD_KEY + GOOD_KEY), headerValue(30)),
      version: mostly('13', fc.constantFrom(null, '8', '', '13, 8', 'x'), headerValue(8)),
      upgrade: mostly('websocket', fc.constantFrom('WebSocket', 'h2c', '', null)),
      connection: mostly('Upgrade', fc.constantFrom('upgrade, keep-alive', 'keep-alive', null)),
      extensions: mostly(null, fc.constant('permessage-deflate'), headerValue(40)),
      protocol: fc.option(headerValue(30), { nil: null }),
      early: fc.option(fc.uint8Array({ maxLength: 64 }), { nil: undefined }),
    });
    await fc.assert(
      fc.asyncProperty(
        arb,
        budgeted(20_000, async (c) => {
          const target = fill(c.target);
          const request = upgradeRequest(target, {
            Upgrade: c.upgrade,
            Connection: c.connection,
            'Sec-WebSocket-Key': c.key,
            'Sec-WebSocket-Version': c.version,
            'Sec-WebSocket-Extensions': c.extensions,
            'Sec-WebSocket-Protocol': c.protocol,
          });
          await handshakeCase(`GET ${short(target)}`, request, c.early ? Buffer.from(c.early) : undefined);
        }),
      ),
      runs(100),
    );
    await noLateDeaths();
  }, 90_000);
});
