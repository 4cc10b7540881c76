/**
 * WebSocket `/ws?game=ID`: a full snapshot on connect and after every change, a heartbeat, `seq` counting up per
 * connection so a client sees a gap, camera frames from the browser, and the camera pictures (thumbnails) for a
 * connection that asks for them (both with the scorekeeper's token).
 *
 * Anyone on the network may open one (but not another site's page: an Origin must be this host's), so nothing a
 * client sends can hurt the service: a protocol fault closes that connection only; a connection may send so many
 * messages a second (frames also count against the game's frame limit, shared with HTTP); a message over the size
 * limit is refused by the protocol, and a large one must be a flat frame message before it is parsed. A viewer that
 * does not read is not buffered without bound: while its socket is behind, snapshots are coalesced into the latest
 * and thumbnails skipped; a viewer behind, or silent to pings, for too long is disconnected.
 */
import type { IncomingMessage, Server } from 'node:http';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import { type RawData, type WebSocket, WebSocketServer } from 'ws';
import { parseClientMessage, type ServerMessage, type Snapshot } from '../protocol/index.ts';
import { type GameService, type GameView, ServiceError } from '../service/index.ts';
import { sameOrigin, type TrustProxy } from './security.ts';

/** Messages over this size must be a frame: one flat object around one long base64 string. */
const SMALL_MESSAGE = 64 * 1024;

export function attachWebSocket(
  server: Server,
  service: GameService,
  heartbeatMs: number,
  /** Which proxies' X-Forwarded-Host names the host (express's `trust proxy fn`); none by default. */
  trust: TrustProxy = () => false,
): { close(): void } {
  const { limits } = service;
  const wss = new WebSocketServer({ noServer: true, maxPayload: limits.messageBytes });
  wss.on('error', (err) => console.error(`websocket server: ${err.message}`));
  const messages = new RateLimiterMemory({ points: limits.messagesPerSecond, duration: 1 });
  let connections = 0;
  // Each snapshot is serialised once for all its viewers.
  const encoded = new WeakMap<Snapshot, string>();
  const encode = (snapshot: Snapshot) => {
    let text = encoded.get(snapshot);
    if (text === undefined) {
      text = JSON.stringify(snapshot);
      encoded.set(snapshot, text);
    }
    return text;
  };

  server.on('upgrade', (req: IncomingMessage, socket, head) => {
    socket.on('error', () => socket.destroy());
    let url: URL | undefined;
    try {
      url = new URL(req.url ?? '/', 'http://localhost');
    } catch {
      // An address no URL can be made of: no such endpoint.
    }
    const id = url?.searchParams.get('game');
    if (url?.pathname !== '/ws' || !id) {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\n\r\n');
      return;
    }
    if (!sameOrigin(req, trust)) {
      socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\n\r\n');
      return;
    }
    service.get(id).then(
      (session) => wss.handleUpgrade(req, socket, head, (ws) => serve(ws, session, ++connections)),
      () => socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\n\r\n'),
    );
  });

  function serve(ws: WebSocket, session: GameView, connection: number): void {
    let seq = 0;
    /** A snapshot could not be sent while the socket was behind: send the latest once it catches up. */
    let stale = false;
    let behindSince: number | undefined;
    let lastPong = Date.now();
    let warned = 0;
    const behind = () => ws.bufferedAmount > limits.viewerBufferBytes;
    const sendText = (type: ServerMessage['type'], data: string) => {
      if (ws.readyState !== ws.OPEN) return;
      ws.send(`{"type":"${type}","seq":${++seq},"data":${data}}`);
    };
    const send = (m: Omit<ServerMessage, 'seq'>) => sendText(m.type, JSON.stringify(m.data));
    const sendSnapshot = (snapshot: Snapshot) => {
      if (behind()) {
        stale = true;
        return;
      }
      stale = false;
      sendText('snapshot', encode(snapshot));
    };
    ws.on('error', () => ws.terminate());
    ws.on('pong', () => {
      lastPong = Date.now();
    });
    sendSnapshot(session.snapshot());
    const unsubscribe = session.subscribe(sendSnapshot);
    /** Camera pictures go only to a connection that asked with the scorekeeper's token. */
    let unthumb = () => {};
    const watchCameras = (pictures: boolean) => {
      // Closed while the token was being checked: nobody to show them to (a listener now would never be removed).
      if (ws.readyState !== ws.OPEN) return;
      // The new way of watching first, then the old one stops: the cameras are never shown as unwatched between.
      const before = unthumb;
      unthumb = session.pictures.onThumbnail(
        (thumb) => {
          if (ws.bufferedAmount < limits.viewerBufferBytes / 4) send({ type: 'thumbnail', data: thumb });
        },
        { pictures },
      );
      before();
    };
    const beat = setInterval(() => {
      const now = Date.now();
      if (now - lastPong > Math.max(limits.viewerStallMs, 3 * heartbeatMs)) return void ws.terminate();
      if (behind()) {
        behindSince ??= now;
        if (now - behindSince > limits.viewerStallMs) return void ws.terminate();
        return;
      }
      behindSince = undefined;
      if (stale) sendSnapshot(session.snapshot());
      send({ type: 'heartbeat', data: { at: now } });
      ws.ping();
    }, heartbeatMs);
    ws.on('close', () => {
      clearInterval(beat);
      unsubscribe();
      unthumb();
    });
    ws.on('message', async (raw: RawData, isBinary: boolean) => {
      try {
        await messages.consume(connection);
      } catch {
        // Over the limit: dropped, with one error a second at most.
        if (Date.now() - warned > 1000) {
          warned = Date.now();
          send({
            type: 'error',
            data: {
              code: 'rate-limited',
              message: `at most ${limits.messagesPerSecond} messages a second: some were dropped`,
            },
          });
        }
        return;
      }
      const bytes = Array.isArray(raw) ? Buffer.concat(raw) : Buffer.from(raw as ArrayBuffer);
      if (isBinary) return send(badRequest('send text (JSON) messages'));
      if (bytes.length > SMALL_MESSAGE && !flat(bytes))
        return send(badRequest('a large message must be a frame: {"type":"frame","data":{…}}'));
      const parsed = parseClientMessage(bytes.toString('utf8'));
      if (!parsed.ok) return send(badRequest(parsed.message));
      const message = parsed.message;
      if (message.type === 'resync') return sendSnapshot(session.snapshot());
      try {
        // A rack camera's frame takes that player's rack key (or the scorekeeper's token); the rest, the token.
        const rack = message.type === 'frame' ? message.data.rack : undefined;
        if (rack === undefined) await service.authorize(session.id, message.data.token);
        else await service.authorizeRack(session.id, message.data.token, rack);
        if (message.type === 'camera-view') return watchCameras(message.data.pictures !== false);
        await service.admitFrame(session.id);
        if (rack !== undefined) {
          if (message.data.endTurn === true)
            return send(badRequest("a rack camera's frame cannot end a turn"));
          await service.submitRackFrame(session.id, Buffer.from(message.data.jpeg, 'base64'), rack);
          return;
        }
        await service.submitFrame(
          session.id,
          Buffer.from(message.data.jpeg, 'base64'),
          message.data.endTurn === true,
          { camera: message.data.camera ?? 0, version: message.data.version },
        );
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

function badRequest(message: string): Omit<ServerMessage, 'seq'> {
  return { type: 'error', data: { code: 'bad-request', message } };
}

/** No arrays and at most a few objects: cheap to parse whatever its length (a scan, no allocation). */
function flat(bytes: Buffer): boolean {
  if (bytes.includes(0x5b)) return false; // [
  let objects = 0;
  for (let i = bytes.indexOf(0x7b); i >= 0; i = bytes.indexOf(0x7b, i + 1)) if (++objects > 4) return false;
  return true;
}
