/**
 * The HTTP service: one express app and one WebSocket endpoint on one port. Thin: it validates requests at the edge,
 * calls the game service and maps expected failures to `{ error: { code, message } }` with their status.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import express, { type NextFunction, type Request, type Response } from 'express';
import { tileSetIds } from '../engine/index.ts';
import { ServiceError } from '../games/errors.ts';
import { MeSession } from '../games/me-session.ts';
import { GameService } from '../games/service.ts';
import type { CaptureTiming } from '../games/session.ts';
import { parseAction, parseGameConfig, parseMeAction } from '../games/validate.ts';
import { SqliteStore } from '../store/sqlite.ts';
import { bundleWeb } from './web-bundle.ts';
import { attachWebSocket } from './ws.ts';

export interface ServerOptions {
  /** Port to listen on; 0 picks a free one. Default 3000. */
  port?: number;
  host?: string;
  /** SQLite file; photos go beside it. Default data/tilecam.db. */
  db?: string;
  /** Auto capture: identical readings needed before a commit. */
  timing?: CaptureTiming;
  /** Heartbeat period in milliseconds (default 5000). */
  heartbeatMs?: number;
}

export interface RunningServer {
  port: number;
  service: GameService;
  close(): Promise<void>;
}

const FRAME_LIMIT = 10 * 1024 * 1024;
const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp'];
/** Frames per game per second, at most. */
const FRAME_RATE = 8;

export function createApp(service: GameService, scripts: Map<string, string>): express.Express {
  const app = express();
  app.disable('x-powered-by');
  const webDir = fileURLToPath(new URL('../../web/', import.meta.url));
  app.get('/app/:name', (req, res, next) => {
    const script = scripts.get(req.params.name!);
    if (!script) return next();
    res.type('text/javascript').send(script);
  });
  app.use(express.static(webDir, { index: 'index.html', extensions: ['html'] }));

  app.get('/api/health', (_req, res) => {
    res.json({ ok: true, name: 'tilecam', tileSets: tileSetIds });
  });
  app.get('/api/games', (_req, res) => {
    res.json({ games: service.list() });
  });
  app.post('/api/games', express.json({ limit: '64kb' }), (req, res) => {
    const created = service.create(parseGameConfig(req.body));
    res.status(201).json(created);
  });
  app.get('/api/games/:id', (req, res) => {
    res.json(service.get(req.params.id!).snapshot());
  });
  app.get('/api/games/:id/gcg', (req, res) => {
    const session = service.get(req.params.id!);
    res.type('text/plain; charset=utf-8').attachment(`tilecam-${session.id}.gcg`).send(session.gcg());
  });
  const recent = new Map<string, number[]>();
  app.post(
    '/api/games/:id/frames',
    (req, _res, next) => {
      const session = service.authorize(req.params.id!, bearer(req));
      const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim();
      if (!IMAGE_TYPES.includes(type))
        throw new ServiceError('unsupported-media', 'send the frame as image/jpeg, image/png or image/webp');
      const now = Date.now();
      const times = (recent.get(session.id) ?? []).filter((t) => now - t < 1000);
      if (times.length >= FRAME_RATE)
        throw new ServiceError('rate-limited', `at most ${FRAME_RATE} frames a second per game`);
      recent.set(session.id, [...times, now]);
      next();
    },
    express.raw({ type: IMAGE_TYPES, limit: FRAME_LIMIT }),
    async (req, res) => {
      const session = service.get(req.params.id!);
      const body = req.body as Buffer;
      if (!Buffer.isBuffer(body) || body.length === 0)
        throw new ServiceError('bad-image', 'the frame is empty');
      const endTurn = req.query.endTurn === '1' || req.query.endTurn === 'true';
      const result = await session.submitFrame(body, endTurn, { camera: cameraParam(req.query.camera) });
      res.json(result);
    },
  );
  app.post('/api/games/:id/actions', express.json({ limit: '64kb' }), async (req, res) => {
    const session = service.authorize(req.params.id!, bearer(req));
    const result =
      session instanceof MeSession
        ? await session.act(parseMeAction(req.body, session.players))
        : await session.act(parseAction(req.body));
    res.json({ ...result, snapshot: session.snapshot() });
  });
  // A camera that serves MJPEG (a phone's IP-camera app): the server pulls it into the game.
  app.post('/api/games/:id/source', express.json({ limit: '4kb' }), (req, res) => {
    service.authorize(req.params.id!, bearer(req));
    const url = (req.body as { url?: unknown } | undefined)?.url;
    if (typeof url !== 'string' || !/^https?:\/\/\S+$/.test(url))
      throw new ServiceError('bad-request', 'url must be an http(s) address of an MJPEG stream');
    const camera = cameraParam((req.body as { camera?: unknown }).camera);
    service.startSource(req.params.id!, url, 1000, camera);
    res.status(202).json({ pulling: url, camera });
  });
  app.delete('/api/games/:id/source', (req, res) => {
    service.authorize(req.params.id!, bearer(req));
    res.json({ stopped: service.stopSource(req.params.id!, cameraParam(req.query.camera)) });
  });
  app.get('/api/games/:id/photos/:name', (req, res) => {
    service.get(req.params.id!);
    const name = req.params.name!;
    if (!/^[\w.-]+\.jpg$/.test(name)) throw new ServiceError('not-found', 'no such photo');
    res.sendFile(resolve(service.photoDir(req.params.id!), name), (err) => {
      if (err && !res.headersSent)
        res.status(404).json({ error: { code: 'not-found', message: 'no such photo' } });
    });
  });
  app.use('/api', (_req, _res, next) => next(new ServiceError('not-found', 'no such endpoint')));
  app.use((err: unknown, _req: Request, res: Response, _next: NextFunction) => {
    const e = err as { type?: string; status?: number; message?: string };
    if (err instanceof ServiceError)
      return void res.status(err.status).json({ error: { code: err.code, message: err.message } });
    if (e.type === 'entity.too.large') {
      return void res
        .status(413)
        .json({ error: { code: 'too-large', message: 'the request body is too large' } });
    }
    if (e.type === 'entity.parse.failed') {
      return void res
        .status(400)
        .json({ error: { code: 'bad-request', message: 'the body is not valid JSON' } });
    }
    console.error(err);
    res.status(500).json({ error: { code: 'internal', message: 'something went wrong on the server' } });
  });
  return app;
}

/** A camera's seat from a query or body value (default 0); the game checks it against its players. */
function cameraParam(value: unknown): number {
  if (value === undefined) return 0;
  const n =
    typeof value === 'number'
      ? value
      : typeof value === 'string' && /^\d{1,2}$/.test(value)
        ? Number(value)
        : NaN;
  if (!Number.isInteger(n)) throw new ServiceError('bad-request', 'camera must be a seat number');
  return n;
}

function bearer(req: Request): string | undefined {
  const m = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '');
  return m?.[1];
}

export async function startServer(options: ServerOptions = {}): Promise<RunningServer> {
  const db = options.db ?? join(process.cwd(), 'data', 'tilecam.db');
  const store = new SqliteStore(db);
  const service = new GameService(store, dirname(db), options.timing);
  const app = createApp(service, await bundleWeb());
  const server = createServer(app);
  const ws = attachWebSocket(server, service, options.heartbeatMs ?? 5000);
  await new Promise<void>((done, fail) => {
    server.once('error', fail);
    server.listen(options.port ?? 3000, options.host ?? '0.0.0.0', () => done());
  });
  const { port } = server.address() as AddressInfo;
  return {
    port,
    service,
    close: async () => {
      service.stopAll();
      ws.close();
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
      store.close();
    },
  };
}
