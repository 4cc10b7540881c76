/** A phone's MJPEG stream pulled by the server into a game, and a turn ended from the scorekeeper's page. */
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../server/http/app.ts';
import type { GameSnapshot } from '../server/protocol/index.ts';
import { parseGameConfig } from '../server/service/validate.ts';

const demo = fileURLToPath(new URL('../fixtures/demo_game/', import.meta.url));
let server: RunningServer;
let camera: Server;
let cameraUrl: string;
/** Which demo photo the fake phone is showing. */
let showing = 0;

beforeAll(async () => {
  server = await startServer({
    port: 0,
    host: '127.0.0.1',
    // The fake phone is on this machine: loopback is refused unless the policy allows any address.
    sources: 'any',
    db: join(mkdtempSync(join(tmpdir(), 'tilecam-mjpeg-')), 'db.sqlite'),
  });
  camera = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'multipart/x-mixed-replace; boundary=frame' });
    const timer = setInterval(() => {
      const jpeg = readFileSync(join(demo, `${showing}.jpg`));
      res.write(`--frame\r\nContent-Type: image/jpeg\r\nContent-Length: ${jpeg.length}\r\n\r\n`);
      res.write(jpeg);
      res.write('\r\n');
    }, 100);
    res.on('close', () => clearInterval(timer));
  });
  await new Promise<void>((r) => camera.listen(0, '127.0.0.1', r));
  cameraUrl = `http://127.0.0.1:${(camera.address() as AddressInfo).port}/video`;
});
afterAll(async () => {
  await server.close();
  camera.closeAllConnections();
  await new Promise((r) => camera.close(r));
});

describe('an MJPEG camera', () => {
  it('is pulled into the game, and "end turn" commits what it shows', async () => {
    const base = `http://127.0.0.1:${server.port}`;
    const { id, token } = await server.service.create(parseGameConfig({ players: ['Ann', 'Ben'] }));
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const bad = await fetch(`${base}/api/games/${id}/source`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ url: 'file:///etc/passwd' }),
    });
    expect(bad.status).toBe(400);
    showing = 2; // two moves at once on the board, but the scorekeeper only ends a turn later
    const started = await fetch(`${base}/api/games/${id}/source`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ url: cameraUrl }),
    });
    expect(started.status).toBe(202);
    showing = 1;
    await new Promise((r) => setTimeout(r, 2500)); // the server reads a frame a second
    const ended = await fetch(`${base}/api/games/${id}/actions`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ type: 'end-turn' }),
    });
    const body = (await ended.json()) as { status: string; snapshot: GameSnapshot };
    expect(['committed', 'needs-confirmation']).toContain(body.status);
    if (body.status === 'committed') expect(body.snapshot.players[0]!.score).toBe(32);
    else {
      // Held because some squares are in doubt: every difference from the truth is among them.
      const truth = readFileSync(join(demo, '1.txt'), 'utf8').trimEnd().split('\n');
      const { board, squares } = body.snapshot.pending!;
      for (let r = 0; r < 15; r++) {
        for (let c = 0; c < 15; c++) {
          if (board[r]![c] !== truth[r]![c]) expect(squares).toContainEqual({ row: r, col: c });
        }
      }
    }
    const stopped = await fetch(`${base}/api/games/${id}/source`, { method: 'DELETE', headers });
    expect(await stopped.json()).toEqual({ stopped: true });
  });
});
