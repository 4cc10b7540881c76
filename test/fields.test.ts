/**
 * A game's broadcast fields for stream overlays: each as text, all as JSON, and as a server-sent-events stream that
 * follows the game. A real server on an ephemeral port; moves entered as the scorekeeper's confirmed boards.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../server/http/app.ts';

let server: RunningServer;
let base: string;
beforeAll(async () => {
  server = await startServer({
    port: 0,
    host: '127.0.0.1',
    db: join(mkdtempSync(join(tmpdir(), 'tilecam-fields-')), 'g.db'),
  });
  base = `http://127.0.0.1:${server.port}`;
});
afterAll(() => server.close());

const rows = (r: Record<number, string>) =>
  Array.from({ length: 15 }, (_, i) => (r[i] ?? '').padEnd(15, '.'));

async function newGame() {
  const res = await fetch(`${base}/api/games`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ players: ['Ann', 'Ben'] }),
  });
  return (await res.json()) as { id: string; token: string };
}
const act = (id: string, token: string, body: object) =>
  fetch(`${base}/api/games/${id}/actions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
const text = async (path: string) => {
  const res = await fetch(base + path);
  return { status: res.status, type: res.headers.get('content-type'), body: await res.text() };
};

describe('broadcast fields', () => {
  it('serves each field as text and all of them as JSON', async () => {
    const { id, token } = await newGame();
    expect((await text(`/api/games/${id}/fields/turn.txt`)).body).toBe('Ann to play\n');
    expect((await act(id, token, { type: 'confirm', board: rows({ 7: '...WINDY' }) })).status).toBe(200);
    const score = await text(`/api/games/${id}/fields/score.txt`);
    expect(score).toMatchObject({ status: 200, body: 'Ann 32 – Ben 0\n' });
    expect(score.type).toMatch(/^text\/plain; charset=utf-8/);
    expect((await text(`/api/games/${id}/fields/last.txt`)).body).toBe('Ann: WINDY 8D 32\n');
    expect((await text(`/api/games/${id}/fields/turn.txt`)).body).toBe('Ben to play\n');
    expect((await text(`/api/games/${id}/fields/board.txt`)).body.split('\n')[7]).toBe('...WINDY.......');
    const all = (await (await fetch(`${base}/api/games/${id}/fields`)).json()) as Record<string, string>;
    expect(Object.keys(all).sort()).toEqual(['best', 'board', 'clock', 'last', 'score', 'turn', 'unseen']);
    // The clock: Ann's move took under a minute here, and Ben's turn is running.
    expect((await text(`/api/games/${id}/fields/clock.txt`)).body).toMatch(/^Ann 0:\d\d – Ben 0:\d\d\n$/);
    expect(all.unseen).toMatch(/^95 unseen/);
    expect((await text(`/api/games/${id}/fields/nope.txt`)).status).toBe(404);
    expect((await text(`/api/games/${id}/fields/score`)).status).toBe(404);
    expect((await text('/api/games/zzzz/fields/score.txt')).status).toBe(404);
  });

  it('streams the fields on connect, after every change and as the clock runs, as server-sent events', async () => {
    const { id, token } = await newGame();
    const controller = new AbortController();
    const res = await fetch(`${base}/api/games/${id}/events`, { signal: controller.signal });
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    const nextEvent = async () => {
      for (;;) {
        const end = buffer.indexOf('\n\n');
        if (end >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (block.startsWith(':')) continue;
          const data = /^data: (.*)$/m.exec(block)?.[1];
          return {
            event: /^event: (.*)$/m.exec(block)?.[1],
            fields: JSON.parse(data!) as Record<string, string>,
          };
        }
        const { value, done } = await reader.read();
        if (done) throw new Error('the stream ended');
        buffer += decoder.decode(value, { stream: true });
      }
    };
    const first = await nextEvent();
    expect(first).toMatchObject({ event: 'fields', fields: { score: 'Ann 0 – Ben 0', turn: 'Ann to play' } });
    // A listener keeps the game loaded, as a viewer does.
    expect((await server.service.session(id)).watchers).toBeGreaterThan(0);
    // While Ann's turn runs, her clock counts up, a second at a time, with nothing else changed.
    const tick = await nextEvent();
    expect(tick.fields.clock).not.toBe(first.fields.clock);
    expect(tick.fields.clock).toMatch(/^Ann 0:0[1-9] – Ben 0:00$/);
    expect({ ...tick.fields, clock: '' }).toEqual({ ...first.fields, clock: '' });
    await act(id, token, { type: 'confirm', board: rows({ 7: '...WINDY' }) });
    let second = await nextEvent();
    while (second.fields.score === first.fields.score) second = await nextEvent();
    expect(second.fields).toMatchObject({ score: 'Ann 32 – Ben 0', last: 'Ann: WINDY 8D 32' });
    controller.abort();
    // The server lets the listener go once it has gone.
    for (let i = 0; i < 50 && (await server.service.session(id)).watchers > 0; i++)
      await new Promise((r) => setTimeout(r, 20));
    expect((await server.service.session(id)).watchers).toBe(0);
  });
});
