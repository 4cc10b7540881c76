/**
 * The HTTP service: one express app and one WebSocket endpoint on one port. Thin: it validates requests at the edge,
 * calls the game service and maps expected failures to `{ error: { code, message } }` with their status.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import express, { type NextFunction, type Request, type Response } from 'express';
import { tileSetIds } from '../engine/index.ts';
import {
  analyzeGame,
  analyzeTurn,
  type CaptureTiming,
  CheckService,
  defaultLimits,
  type ErrorCode,
  errorStatus,
  type GameBus,
  GameService,
  type Limits,
  parseAnalysisRequest,
  parseGameConfig,
  parseListQuery,
  parseSourceRequest,
  parseVersion,
  photoCaps,
  RedisBus,
  ServiceError,
  SharedSources,
  type SourcePolicy,
  WorkQueue,
} from '../service/index.ts';
import { PostgresStore } from '../store/postgres.ts';
import { SqliteStore } from '../store/sqlite.ts';
import type { GameStore, PhotoCaps } from '../store/types.ts';
import { checkRoutes } from './checks.ts';
import { fieldRoutes } from './fields.ts';
import { securityHeaders, servedFromWeb } from './security.ts';
import { trustProxyOf } from './trust.ts';
import { bundleWeb } from './web-bundle.ts';
import { attachWebSocket } from './ws.ts';

export interface ServerOptions {
  /** Port to listen on; 0 picks a free one. Default 3000. */
  port?: number;
  host?: string;
  /** A PostgreSQL URL (`postgres://…`), or a SQLite file (photos go beside it). Default: DATABASE_URL, else
   *  data/tilecam.db. */
  db?: string;
  /** Redis (`redis://HOST:PORT`) shared with the other instances of the service. Default: REDIS_URL, else none. */
  redis?: string;
  /** Frames and actions are decided by `tilecam worker` processes through a queue on that Redis (work.ts), not
   *  here. Default: TILECAM_QUEUE=1. */
  queue?: boolean;
  /** Auto capture: identical readings needed before a commit. */
  timing?: CaptureTiming;
  /** Heartbeat period in milliseconds (default 5000). */
  heartbeatMs?: number;
  /** What one client, viewer, game and camera stream may cost (docs/operations.md, "Security"). */
  limits?: Limits;
  /** Which addresses a camera stream URL may reach (default `lan`). */
  sources?: SourcePolicy;
  /** The load balancers whose X-Forwarded-For names the client (trust.ts `trustProxyOf`). Default: none. */
  trustProxy?: number | string;
}

export interface RunningServer {
  port: number;
  service: GameService;
  close(): Promise<void>;
}

const FRAME_LIMIT = 10 * 1024 * 1024;
const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp'];

export function createApp(
  service: GameService,
  scripts: Map<string, string>,
  /** The interface the server listens on: the LAN addresses are offered only when it listens on all of them. */
  {
    host = '0.0.0.0',
    trustProxy,
  }: {
    host?: string;
    /** The load balancers whose X-Forwarded-For names the client: the limits per client count `req.ip`. */
    trustProxy?: number | string | undefined;
  } = {},
): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.use(securityHeaders());
  // Checked here too: a server started from code gets the command line's check.
  if (trustProxy !== undefined) app.set('trust proxy', trustProxyOf(trustProxy));
  const webDir = fileURLToPath(new URL('../../web/', import.meta.url));
  app.get('/app/:name', (req, res, next) => {
    const script = scripts.get(req.params.name!);
    if (!script) return next();
    res.type('text/javascript').send(script);
  });
  const web = express.static(webDir, { index: 'index.html', extensions: ['html'], redirect: false });
  app.use((req, res, next) => (servedFromWeb(req.path) ? web(req, res, next) : next()));
  // Browsers that ask for the old name get the SVG icon every page links to.
  app.get('/favicon.ico', (_req, res) => res.redirect(301, '/favicon.svg'));

  app.get('/api/health', (req, res) => {
    // Where a phone on the same network reaches this server (for the pages' links and QR codes).
    const everywhere = host === '0.0.0.0' || host === '::';
    const lan = everywhere
      ? Object.values(networkInterfaces())
          .flat()
          .flatMap((a) =>
            a && a.family === 'IPv4' && !a.internal ? [`http://${a.address}:${req.socket.localPort}`] : [],
          )
      : [];
    res.json({ ok: true, name: 'tilecam', tileSets: tileSetIds, lan });
  });
  app.get('/api/games', async (req, res) => {
    res.json(await service.list(parseListQuery(req.query)));
  });
  app.post(
    '/api/games',
    async (req, _res, next) => {
      await service.admitCreate(req.ip ?? 'unknown');
      next();
    },
    express.json({ limit: '64kb' }),
    async (req, res) => {
      const created = await service.create(parseGameConfig(req.body));
      res.status(201).json(created);
    },
  );
  app.get('/api/games/:id', async (req, res) => {
    res.json((await service.get(req.params.id!)).snapshot());
  });
  // The racks kept with the moves are the scorekeeper's: written only for their token.
  app.get('/api/games/:id/gcg', async (req, res) => {
    const token = bearer(req);
    const session = token
      ? await service.authorize(req.params.id!, token)
      : await service.get(req.params.id!);
    res
      .type('text/plain; charset=utf-8')
      .attachment(`tilecam-${session.id}.gcg`)
      .send(session.gcg({ racks: token !== undefined }));
  });
  app.post(
    '/api/games/:id/frames',
    async (req, _res, next) => {
      // A rack camera's frame takes that player's rack key (or the scorekeeper's token); any other, the token.
      const rack = rackParam(req.query.rack);
      if (rack === undefined) await service.authorize(req.params.id!, bearer(req));
      else await service.authorizeRack(req.params.id!, bearer(req), rack);
      const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim();
      if (!IMAGE_TYPES.includes(type))
        throw new ServiceError('unsupported-media', 'send the frame as image/jpeg, image/png or image/webp');
      await service.admitFrame(req.params.id!);
      next();
    },
    express.raw({ type: IMAGE_TYPES, limit: FRAME_LIMIT }),
    async (req, res) => {
      const body = req.body as Buffer;
      if (!Buffer.isBuffer(body) || body.length === 0)
        throw new ServiceError('bad-image', 'the frame is empty');
      const endTurn = req.query.endTurn === '1' || req.query.endTurn === 'true';
      const rack = rackParam(req.query.rack);
      if (rack !== undefined) {
        if (endTurn) throw new ServiceError('bad-request', "a rack camera's frame cannot end a turn");
        res.json(await service.submitRackFrame(req.params.id!, body, rack));
        return;
      }
      const result = await service.submitFrame(req.params.id!, body, endTurn, {
        camera: cameraParam(req.query.camera),
        version: parseVersion(req.query.version),
      });
      res.json(result);
    },
  );
  // The rack cameras' keys, one per player: the scorekeeper's to hand out (each opens one rack camera only).
  app.get('/api/games/:id/rack-keys', async (req, res) => {
    res.json({ keys: await service.rackKeys(req.params.id!, bearer(req)) });
  });
  app.post('/api/games/:id/actions', express.json({ limit: '64kb' }), async (req, res) => {
    const session = await service.authorize(req.params.id!, bearer(req));
    // The game validates the action against its kind's declaration in server/protocol.
    const body = req.body as { type?: unknown; version?: unknown } | undefined;
    if (body?.type === 'end-turn') await service.admitFrame(session.id);
    const result = await service.act(session.id, body, parseVersion(body?.version));
    res.json({ ...result, snapshot: session.snapshot() });
  });
  // Archiving a game that has ended (or was abandoned) takes it out of the listing; DELETE brings it back.
  app.post('/api/games/:id/archive', async (req, res) => {
    await service.archive(req.params.id!, bearer(req), true);
    res.json({ archived: true });
  });
  app.delete('/api/games/:id/archive', async (req, res) => {
    await service.archive(req.params.id!, bearer(req), false);
    res.json({ archived: false });
  });
  // The racks left at the end as the racks kept with the last moves tell them, for the scorekeeper's End game.
  app.get('/api/games/:id/racks', async (req, res) => {
    const session = await service.authorize(req.params.id!, bearer(req));
    res.json({ left: session.racksLeft() });
  });
  // The whole game against the best plays of the racks kept, for the scorekeeper only (the post-game page).
  app.get('/api/games/:id/analysis', async (req, res) => {
    const session = await service.authorize(req.params.id!, bearer(req));
    res.json(await analyzeGame(session));
  });
  // The best plays of a move, for the scorekeeper only: from the rack sent, or else the one kept with the move.
  app.post('/api/games/:id/analysis', express.json({ limit: '4kb' }), async (req, res) => {
    const session = await service.authorize(req.params.id!, bearer(req));
    const { turn, rack } = parseAnalysisRequest(req.body);
    res.json(await analyzeTurn(session, turn, rack));
  });
  // A camera that serves MJPEG (a phone's IP-camera app): the server pulls it into the game.
  app.post('/api/games/:id/source', express.json({ limit: '4kb' }), async (req, res) => {
    await service.authorize(req.params.id!, bearer(req));
    const { url, camera } = parseSourceRequest(req.body);
    await service.startSource(req.params.id!, url, 1000, camera);
    res.status(202).json({ pulling: url, camera });
  });
  // Why each stream stopped, for the scorekeeper only: the snapshot tells every viewer no more than that it did.
  app.get('/api/games/:id/source', async (req, res) => {
    const session = await service.authorize(req.params.id!, bearer(req));
    res.json({ sources: session.sources.detail() });
  });
  app.delete('/api/games/:id/source', async (req, res) => {
    await service.authorize(req.params.id!, bearer(req));
    res.json({ stopped: await service.stopSource(req.params.id!, cameraParam(req.query.camera)) });
  });
  app.get('/api/games/:id/photos/:name', async (req, res) => {
    const id = req.params.id!;
    await service.get(id);
    const name = req.params.name!;
    if (!/^[\w.-]+\.jpg$/.test(name)) throw new ServiceError('not-found', 'no such photo');
    const photo = await service.store.getPhoto(id, name);
    if (!photo) throw new ServiceError('not-found', 'no such photo');
    res.type('image/jpeg').send(Buffer.from(photo));
  });
  app.use(checkRoutes(new CheckService(service.store, service)));
  app.use(fieldRoutes(service));
  app.use('/api', (_req, _res, next) => next(new ServiceError('not-found', 'no such endpoint')));
  app.use((_req, _res, next) => next(new ServiceError('not-found', 'no such page')));
  app.use((err: unknown, _req: Request, res: Response, _next: NextFunction) => {
    const { status, code, message } = clientFault(err) ?? {
      status: 500,
      code: 'internal',
      message: 'something went wrong on the server',
    };
    if (status === 500) console.error(err);
    if (res.headersSent) return void res.destroy();
    // When to try again, in whole seconds (a client that paces itself, as `tilecam feed`, waits that long).
    if (err instanceof ServiceError && err.retryAfterMs !== undefined)
      res.set('Retry-After', String(Math.max(1, Math.ceil(err.retryAfterMs / 1000))));
    res.status(status).json({ error: { code, message } });
  });
  return app;
}

/** Messages for the faults express and its body parsers report (http-errors' `type`), by type. */
const faultMessages: Record<string, string> = {
  'entity.too.large': 'the request body is too large',
  'entity.parse.failed': 'the body is not valid JSON',
  'entity.verify.failed': 'the body could not be verified',
  'encoding.unsupported':
    'that content-encoding is not supported: send the body as it is, or gzip or deflate',
  'charset.unsupported': 'that charset is not supported: send JSON as UTF-8',
  'request.aborted': 'the request was aborted',
  'request.size.invalid': 'the body is not as long as its content-length says',
  'stream.encoding.set': 'the request could not be read',
};

/**
 * The one mapping of errors to client faults at the edge: expected failures of the service, and the 4xx faults of
 * express, its router (a malformed percent-escape in a path) and its body parsers (a bad charset or encoding, a
 * corrupt compressed body). Anything else is a bug: undefined, and answered 500.
 */
function clientFault(err: unknown): { status: number; code: string; message: string } | undefined {
  if (err instanceof ServiceError) return { status: err.status, code: err.code, message: err.message };
  const e = err as { status?: unknown; statusCode?: unknown; type?: unknown; message?: unknown } | null;
  const status =
    typeof e?.status === 'number' ? e.status : typeof e?.statusCode === 'number' ? e.statusCode : 0;
  if (status < 400 || status > 499) return undefined;
  const code =
    (Object.entries(errorStatus).find(([, s]) => s === status)?.[0] as ErrorCode | undefined) ??
    'bad-request';
  const byType = typeof e?.type === 'string' ? faultMessages[e.type] : undefined;
  const message =
    byType ??
    (err instanceof URIError || /URI|decode param/i.test(String(e?.message))
      ? 'the address has a malformed %-escape'
      : status === 404
        ? 'not found'
        : 'the request is malformed');
  return { status, code, message };
}

/** A camera's seat from a query value (default 0); the game checks it against its players. */
function cameraParam(value: unknown): number {
  if (value === undefined) return 0;
  if (typeof value !== 'string' || !/^\d{1,2}$/.test(value))
    throw new ServiceError('bad-request', 'camera must be a seat number');
  return Number(value);
}

/** `?rack=N`: the frame is a rack camera's, at player N's place (0-based). */
function rackParam(value: unknown): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !/^[0-3]$/.test(value))
    throw new ServiceError('bad-request', 'rack must be a player: 0 for the first, 1 for the second, …');
  return Number(value);
}

function bearer(req: Request): string | undefined {
  const m = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '');
  return m?.[1];
}

/** The database named could not be opened: a clear message for the command line, the URL's password left out. */
export class StoreOpenError extends Error {}

/** The store `db` names: a PostgreSQL URL, or a SQLite file (default: DATABASE_URL, else data/tilecam.db). */
export async function openStore(db: string | undefined, caps: PhotoCaps): Promise<GameStore> {
  if (db !== undefined && db.trim() === '')
    throw new StoreOpenError('--db needs a SQLite file or a postgres:// URL, not an empty name');
  // An empty DATABASE_URL is no setting (an empty SQLite name would be a database that vanishes on exit).
  const chosen = db || process.env.DATABASE_URL?.trim() || join(process.cwd(), 'data', 'tilecam.db');
  if (/^postgres(ql)?:\/\//i.test(chosen)) {
    let shown = 'postgres://…';
    try {
      const url = new URL(chosen);
      url.password = '';
      shown = url.toString();
    } catch {
      throw new StoreOpenError('the database URL is not a URL: postgres://USER@HOST:PORT/DATABASE');
    }
    try {
      return await PostgresStore.open(chosen, caps);
    } catch (err) {
      throw new StoreOpenError(`cannot open the database ${shown}: ${(err as Error).message}`);
    }
  }
  if (/^[a-z][\w+.-]*:\/\//i.test(chosen))
    throw new StoreOpenError(
      `the database must be postgres://… or a SQLite file, not ${chosen.split(':')[0]}://…`,
    );
  try {
    return new SqliteStore(chosen, caps);
  } catch (err) {
    throw new StoreOpenError(`cannot open the database file ${chosen}: ${(err as Error).message}`);
  }
}

/** The bus to the other instances `redis` names (default: REDIS_URL), or none: one process. */
/** The Redis `redis` names (default: REDIS_URL), checked; undefined when none is set. */
export function redisUrl(redis: string | undefined): string | undefined {
  if (redis !== undefined && redis.trim() === '') throw new StoreOpenError('--redis needs a redis:// URL');
  const url = redis || process.env.REDIS_URL?.trim() || undefined;
  if (url && !/^rediss?:\/\//i.test(url)) throw new StoreOpenError('the Redis URL must be redis://HOST:PORT');
  return url;
}

/** Opens `open(url)`, saying which Redis could not be reached (without its password). */
export async function reach<T>(url: string, open: (url: string) => Promise<T>): Promise<T> {
  try {
    return await open(url);
  } catch (err) {
    throw new StoreOpenError(
      `cannot reach Redis at ${url.replace(/\/\/[^@/]*@/, '//')}: ${(err as Error).message}`,
    );
  }
}

async function openBus(redis: string | undefined): Promise<GameBus | undefined> {
  const url = redisUrl(redis);
  return url ? reach(url, RedisBus.open) : undefined;
}

/** The work queue, when frames go to workers: it needs Redis and a database every process shares. */
async function openQueue(options: ServerOptions): Promise<WorkQueue | undefined> {
  if (!(options.queue ?? process.env.TILECAM_QUEUE === '1')) return undefined;
  const url = redisUrl(options.redis);
  if (!url)
    throw new StoreOpenError(
      '--queue hands frames to `tilecam worker` processes over Redis: set --redis or REDIS_URL',
    );
  return reach(url, WorkQueue.open);
}

export async function startServer(options: ServerOptions = {}): Promise<RunningServer> {
  // Checked before anything is opened (createApp checks it again, for those who call it themselves).
  const trustProxy = options.trustProxy === undefined ? undefined : trustProxyOf(options.trustProxy);
  const limits = options.limits ?? defaultLimits;
  const store = await openStore(options.db, photoCaps(limits));
  let bus: GameBus | undefined;
  let work: WorkQueue | undefined;
  try {
    bus = await openBus(options.redis);
    work = await openQueue(options);
  } catch (err) {
    await bus?.close();
    await store.close();
    throw err;
  }
  const service = new GameService(store, {
    ...(bus ? { bus } : {}),
    // The camera streams pulled by the instances of a hall are one list: one dying hands its streams to another.
    ...(bus?.redis ? { sharedSources: new SharedSources(bus.redis, bus.instance) } : {}),
    ...(work ? { work } : {}),
    ...(options.timing ? { timing: options.timing } : {}),
    limits,
    ...(options.sources ? { sources: options.sources } : {}),
  });
  const app = createApp(service, await bundleWeb(), {
    host: options.host ?? '0.0.0.0',
    trustProxy,
  });
  const server = createServer(app);
  // A client that sends its headers slowly, or a socket that fails, must not hold or crash anything.
  server.headersTimeout = 20_000;
  server.requestTimeout = 120_000;
  server.on('clientError', (_err, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
    else socket.destroy();
  });
  const ws = attachWebSocket(server, service, options.heartbeatMs ?? 5000, app.get('trust proxy fn'));
  try {
    await new Promise<void>((done, fail) => {
      server.once('error', fail);
      server.listen(options.port ?? 3000, options.host ?? '0.0.0.0', () => done());
    });
  } catch (err) {
    // Nothing listens (a port taken, an address not this machine's): nothing is left open.
    service.stopAll();
    ws.close();
    await work?.close();
    await bus?.close();
    await store.close();
    throw err;
  }
  const { port } = server.address() as AddressInfo;
  return {
    port,
    service,
    close: async () => {
      await service.stopAll();
      ws.close();
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
      await work?.close();
      await bus?.close();
      await store.close();
    },
  };
}
