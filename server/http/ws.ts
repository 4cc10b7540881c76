/**
 * WebSocket `/ws?game=ID`: a full snapshot on connect and after every change, a heartbeat, `seq` counting up per
 * connection so a client sees a gap, and camera frames from the browser (with the scorekeeper's token).
 */
import type { IncomingMessage, Server } from 'node:http';
import { type WebSocket, WebSocketServer } from 'ws';
import { ServiceError } from '../games/errors.ts';
import type { GameService } from '../games/service.ts';
import { parseClientMessage, type ServerMessage } from '../protocol/index.ts';

/** Largest message a browser may send (a camera frame as base64). */
const MAX_MESSAGE = 8 * 1024 * 1024;

export function attachWebSocket(
  server: Server,
  service: GameService,
  heartbeatMs: number,
): { close(): void } {
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE });
  server.on('upgrade', (req: IncomingMessage, socket, head) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const id = url.searchParams.get('game');
    if (url.pathname !== '/ws' || !id) {
      socket.end('HTTP/1.1 404 Not Found\r\n\r\n');
      return;
    }
    let session: ReturnType<GameService['get']>;
    try {
      session = service.get(id);
    } catch {
      socket.end('HTTP/1.1 404 Not Found\r\n\r\n');
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => serve(ws, session, service));
  });

  function serve(ws: WebSocket, session: ReturnType<GameService['get']>, svc: GameService): void {
    let seq = 0;
    const send = (m: Omit<ServerMessage, 'seq'>) => {
      if (ws.readyState === ws.OPEN) ws.send(JSON.stringify({ ...m, seq: ++seq }));
    };
    send({ type: 'snapshot', data: session.snapshot() });
    const unsubscribe = session.subscribe((snapshot) => send({ type: 'snapshot', data: snapshot }));
    const unthumb = session.onThumbnail((thumb) => send({ type: 'thumbnail', data: thumb }));
    const beat = setInterval(() => send({ type: 'heartbeat', data: { at: Date.now() } }), heartbeatMs);
    ws.on('close', () => {
      clearInterval(beat);
      unsubscribe();
      unthumb();
    });
    ws.on('message', async (raw) => {
      const parsed = parseClientMessage(raw.toString());
      if (!parsed.ok) return send({ type: 'error', data: { code: 'bad-request', message: parsed.message } });
      const message = parsed.message;
      if (message.type === 'resync') return send({ type: 'snapshot', data: session.snapshot() });
      try {
        svc.authorize(session.id, message.data.token);
        await session.submitFrame(Buffer.from(message.data.jpeg, 'base64'), message.data.endTurn === true, {
          camera: message.data.camera ?? 0,
        });
      } catch (err) {
        if (err instanceof ServiceError)
          return send({ type: 'error', data: { code: err.code, message: err.message } });
        console.error(err);
        send({ type: 'error', data: { code: 'internal', message: 'something went wrong on the server' } });
      }
    });
  }

  return {
    close: () => {
      for (const client of wss.clients) client.terminate();
      wss.close();
    },
  };
}
