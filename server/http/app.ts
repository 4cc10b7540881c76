/**
 * The HTTP service: one express app on one port. At this stage it serves the health check and a landing page;
 * the game API, WebSocket and web UI mount here.
 */
import type { AddressInfo } from 'node:net';
import express from 'express';
import { tileSetIds } from '../engine/index.ts';

export interface ServerOptions {
  /** Port to listen on; 0 picks a free one. Default 3000. */
  port?: number;
  host?: string;
}

export interface RunningServer {
  port: number;
  close(): Promise<void>;
}

export function createApp(): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.get('/api/health', (_req, res) => {
    res.json({ ok: true, name: 'tilecam', tileSets: tileSetIds });
  });
  app.get('/', (_req, res) => {
    res
      .type('html')
      .send(
        '<!doctype html><meta charset="utf-8"><title>tilecam</title><h1>tilecam</h1>' +
          '<p>The service is running. The scoreboard, camera page and game API are being built.</p>',
      );
  });
  return app;
}

export async function startServer(options: ServerOptions = {}): Promise<RunningServer> {
  const app = createApp();
  return new Promise((resolve, reject) => {
    const server = app.listen(options.port ?? 3000, options.host ?? '0.0.0.0', () => {
      const { port } = server.address() as AddressInfo;
      resolve({ port, close: () => new Promise((done) => server.close(() => done())) });
    });
    server.on('error', reject);
  });
}
