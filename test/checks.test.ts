/**
 * Checking a score over HTTP (`POST /api/checks` and the routes around it): a real server on an ephemeral port,
 * the rendered demo game's photos (fixtures/demo_game: 8D WINDY 32, then 9D AN 9, then H5 JOE(Y) 14).
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../server/http/app.ts';
import type { CheckView, GameSnapshot, GcgCheck, TurnCheck } from '../server/protocol/index.ts';
import { root } from './helpers.ts';

const demo = join(root, 'fixtures/demo_game');
const photo = (name: string) => new Blob([readFileSync(join(demo, name))], { type: 'image/jpeg' });

let server: RunningServer;
/** The first check this file makes: let go once `checksKept` newer ones are kept. */
let firstId = '';
let base: string;

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tilecam-checks-'));
  server = await startServer({
    port: 0,
    host: '127.0.0.1',
    db: join(dir, 'games.db'),
    limits: {
      ...(await import('../server/service/limits.ts')).defaultLimits,
      checksKept: 3,
      checksPerMinute: 20,
    },
  });
  base = `http://127.0.0.1:${server.port}`;
});
afterAll(() => server.close());

async function check(fields: Record<string, string | Blob>) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  const res = await fetch(`${base}/api/checks`, { method: 'POST', body: form });
  return {
    status: res.status,
    body: (await res.json()) as CheckView & { error?: { code: string; message: string } },
  };
}

describe('POST /api/checks', () => {
  it('checks the score between two photos, keeps it for its permalink, serves its photos and card', async () => {
    const res = await check({ before: photo('1.jpg'), after: photo('2.jpg'), claimed: '7', lang: 'en' });
    expect(res.status).toBe(201);
    firstId = res.body.id;
    const v = res.body.verification;
    expect(v).toMatchObject({ verdict: 'wrong', points: 9, claimed: 7 });
    expect(v.cause).toMatch(/the cross-word IN \(2\) was left out/);
    expect(v.boards?.after[8]).toBe('...AN..........');
    expect(res.body.links.page).toBe(`/check?id=${res.body.id}`);

    const again = await fetch(`${base}/api/checks/${res.body.id}`);
    expect(await again.json()).toEqual(res.body);
    const after = await fetch(base + res.body.photos.after);
    expect(after.headers.get('content-type')).toBe('image/jpeg');
    expect(Buffer.from(await after.arrayBuffer())).toEqual(readFileSync(join(demo, '2.jpg')));
    const card = await fetch(base + res.body.links.card);
    expect(card.headers.get('content-type')).toBe('image/png');
    const meta = await sharp(Buffer.from(await card.arrayBuffer())).metadata();
    expect([meta.width, meta.height]).toEqual([1200, 630]);
  });

  it('checks an announced move against one photo', async () => {
    const res = await check({ after: photo('2.jpg'), move: '9D AN 9' });
    expect(res.status).toBe(201);
    expect(res.body.verification).toMatchObject({ verdict: 'right', points: 9, claimed: 9 });
    expect(res.body.photos.before).toBeNull();
    expect((await fetch(`${base}/api/checks/${res.body.id}/before`)).status).toBe(404);
  });

  it('answers what cannot be settled with the reason, and refuses malformed forms with a clear error', async () => {
    const same = await check({ before: photo('2.jpg'), after: photo('2.jpg') });
    expect(same.status).toBe(201);
    expect(same.body.verification).toMatchObject({ verdict: 'unsure', points: null });
    expect(same.body.verification.message).toMatch(/no move/);

    const cases: [Record<string, string | Blob>, number, RegExp][] = [
      [{ before: photo('1.jpg') }, 400, /photo after/],
      [{ after: photo('2.jpg') }, 400, /photo before/],
      [{ before: photo('1.jpg'), after: photo('2.jpg'), claimed: 'many' }, 400, /claimed must be a score/],
      [{ before: photo('1.jpg'), after: photo('2.jpg'), lang: 'xx' }, 400, /lang must be one of/],
      [
        { before: photo('1.jpg'), after: photo('2.jpg'), colour: 'red' },
        400,
        /colour|unrecognized|malformed/i,
      ],
      [{ before: new Blob(['not an image']), after: photo('2.jpg') }, 415, /not a JPEG, PNG or WebP/],
      [{ after: photo('2.jpg'), move: 'QI' }, 400, /write a move/],
      [{ after: photo('2.jpg'), third: photo('1.jpg') }, 400, /unexpected file field 'third'/],
    ];
    for (const [fields, status, message] of cases) {
      const res = await check(fields);
      expect(res.status, JSON.stringify(Object.keys(fields))).toBe(status);
      expect(res.body.error?.message).toMatch(message);
    }
    const json = await fetch(`${base}/api/checks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(json.status).toBe(415);
    expect((await fetch(`${base}/api/checks/nope`)).status).toBe(404);
  });

  it('keeps only the newest checks', async () => {
    // checksKept is 3 here: after three more, the first check of this file is gone.
    expect((await fetch(`${base}/api/checks/${firstId}`)).status).toBe(200);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await check({ after: photo('2.jpg'), move: '9D AN' });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      ids.push(res.body.id);
    }
    for (const id of ids) expect((await fetch(`${base}/api/checks/${id}`)).status).toBe(200);
    expect((await fetch(`${base}/api/checks/${firstId}`)).status).toBe(404);
    expect((await fetch(`${base}/api/checks/${firstId}/after`)).status).toBe(404);
  });

  it('keeps a large photo at the size it is read at, as a JPEG', async () => {
    const large = await sharp(readFileSync(join(demo, '2.jpg')))
      .resize(2600, 2600)
      .png()
      .toBuffer();
    const res = await check({ after: new Blob([large], { type: 'image/png' }), move: '9D AN' });
    expect(res.status).toBe(201);
    const kept = Buffer.from(await (await fetch(base + res.body.photos.after)).arrayBuffer());
    const meta = await sharp(kept).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 2000, 2000]);
  });
});

describe('a live game and a record', () => {
  it("explains a live game's move, and refuses a turn that is no play", async () => {
    const created = (await (
      await fetch(`${base}/api/games`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ players: ['Ann', 'Ben'] }),
      })
    ).json()) as { id: string; token: string };
    for (const n of [1, 2]) {
      const res = await fetch(`${base}/api/games/${created.id}/frames?endTurn=1`, {
        method: 'POST',
        headers: { authorization: `Bearer ${created.token}`, 'content-type': 'image/jpeg' },
        body: readFileSync(join(demo, `${n}.jpg`)),
      });
      expect(res.status).toBe(200);
    }
    const snapshot = (await (await fetch(`${base}/api/games/${created.id}`)).json()) as GameSnapshot;
    expect(snapshot.turns).toHaveLength(2);
    const turn = (await (await fetch(`${base}/api/games/${created.id}/turns/1/check`)).json()) as TurnCheck;
    expect(turn).toMatchObject({ turn: 1, player: 'Ben', game: { players: ['Ann', 'Ben'] } });
    expect(turn.verification).toMatchObject({ verdict: 'right', points: snapshot.turns[1]!.points });
    expect(turn.verification.words.map((w) => w.word)).toEqual(snapshot.turns[1]!.words!.map((w) => w.word));
    expect((await fetch(`${base}/api/games/${created.id}/turns/5/check`)).status).toBe(404);
    expect((await fetch(`${base}/api/games/${created.id}/turns/x/check`)).status).toBe(400);
  });

  it('rescores a GCG record and explains its first wrong score', async () => {
    const gcg = [
      '#character-encoding UTF-8',
      '#player1 ann Ann',
      '#player2 ben Ben',
      '>ann: WINDYXX 8D WINDY +32 32',
      '>ben: ANXXXXX 9D AN +11 11',
      '>ann: JOEXXXX H5 JOE +14 46',
      '',
    ].join('\n');
    const res = await fetch(`${base}/api/checks/gcg`, { method: 'POST', body: gcg });
    expect(res.status).toBe(200);
    const body = (await res.json()) as GcgCheck;
    expect(body.first).toMatchObject({ line: 5, turn: 1, player: 'Ben', recorded: 11, computed: 9 });
    expect(body.first?.verification).toMatchObject({ verdict: 'wrong', points: 9, claimed: 11 });
    const bad = await fetch(`${base}/api/checks/gcg`, { method: 'POST', body: '>ann: ZZZ 99Z ZZZ +1 1\n' });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { message: string } }).error.message).toMatch(/line 1/);
  });
});

describe('limits', () => {
  it('limits how often one address checks (checks and GCG records alike)', async () => {
    // 20 a minute here; this file has made fewer than 20 so far.
    let limited = 0;
    let tries = 0;
    for (; tries < 25 && limited === 0; tries++) {
      const res = await fetch(`${base}/api/checks/gcg`, { method: 'POST', body: '#player1 a A\n' });
      if (res.status === 429) limited++;
    }
    expect(limited).toBe(1);
    expect(tries).toBeGreaterThan(1);
    expect((await check({ after: photo('2.jpg'), move: '9D AN' })).status).toBe(429);
  });
});
