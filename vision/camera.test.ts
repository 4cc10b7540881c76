/**
 * A steady camera reads again only what changed: the same frame costs no reading, a frame with a square changed
 * reads that square (and a few in turn), a moved camera is read whole; and what it reads is what a reading of the
 * whole frame says.
 */
import { existsSync, readFileSync } from 'node:fs';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { TileMemory } from './adapt.ts';
import { Camera, type CameraOptions } from './camera.ts';
import { type CellModel, readCells } from './classify.ts';
import { decodeImage } from './decode.ts';
import { gridHomography, project } from './homography.ts';
import { inNewLight } from './light.ts';
import { recognize } from './recognize.ts';
import { changedSquares, movedWholeSquares, sampleSquares } from './sampling.ts';

const frame = readFileSync(new URL('../fixtures/demo_game/2.jpg', import.meta.url));
const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** The frame with tiles painted over squares (row, col): a K put down on each. */
async function withTiles(squares: readonly (readonly [number, number])[]): Promise<Buffer> {
  const { corners } = await recognize(frame, { letters });
  const h = gridHomography(corners);
  const at = (u: number, v: number) => project(h, u, v);
  const tiles = squares.map(([row, col]) => {
    const [x0, y0] = at(col + 0.1, row + 0.1);
    const [x1, y1] = at(col + 0.9, row + 0.9);
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${Math.ceil(x1 - x0)}" height="${Math.ceil(y1 - y0)}"><rect width="100%" height="100%" fill="#f1dfb4"/><text x="50%" y="80%" font-family="DejaVu Sans" font-weight="bold" font-size="${0.8 * (y1 - y0)}" text-anchor="middle" fill="#222">K</text></svg>`;
    return { input: Buffer.from(svg), left: Math.round(x0), top: Math.round(y0) };
  });
  return sharp(frame).composite(tiles).jpeg({ quality: 95 }).toBuffer();
}
const withTile = (row: number, col: number) => withTiles([[row, col]]);

/** `bytes` pushed `px` pixels to the right (grey coming in on the left), the same size. */
async function pushedRight(bytes: Buffer, px: number): Promise<Buffer> {
  const meta = await sharp(bytes).metadata();
  // (Two steps: in one pipeline sharp would extract before it extends, and the picture would be larger.)
  const wide = await sharp(bytes).extend({ left: px, background: '#777' }).toBuffer();
  return sharp(wide)
    .extract({ left: 0, top: 0, width: meta.width!, height: meta.height! })
    .jpeg({ quality: 95 })
    .toBuffer();
}
/** 48 squares of the top rows. */
const many48 = Array.from({ length: 48 }, (_, k) => [1 + Math.floor(k / 12), 1 + (k % 12)] as const);

describe('a steady camera', () => {
  it('reads a frame whole first, then a frame the same as the last one not at all', async () => {
    const camera = new Camera({ letters });
    const first = await camera.read(frame);
    expect(first).toMatchObject({ path: 'search', cellsRead: 225 });
    expect(first.board).toEqual((await recognize(frame, { letters })).board);
    const again = await camera.read(frame);
    expect(again).toMatchObject({ path: 'still', cellsRead: 0, board: first.board });
  });

  it('reads again only the squares that changed, and reads them as a whole reading would', async () => {
    const camera = new Camera({ letters });
    await camera.read(frame);
    const changed = await withTile(11, 11);
    const next = await camera.read(changed);
    expect(next.path).toBe('changed');
    expect(next.cellsRead).toBeGreaterThan(0);
    expect(next.cellsRead).toBeLessThan(15);
    const whole = await recognize(changed, { letters });
    expect(next.board).toEqual(whole.board);
    expect(next.board[11]![11]).toBe('K');
  });

  it('reads only the squares that changed when many did but the grid is where it was (moves taken back, a hand)', async () => {
    const camera = new Camera({ letters });
    await camera.read(frame);
    // 48 squares of the top rows change at once: more than a turn's few, on a grid that has not moved.
    const many = Array.from({ length: 48 }, (_, k) => [1 + Math.floor(k / 12), 1 + (k % 12)] as const);
    const changed = await withTiles(many);
    const next = await camera.read(changed);
    expect(next.path).toBe('changed');
    // The grid's lines said it stayed: it was not looked for again.
    expect(next.gridBy).toBe('lines');
    expect(next.cellsRead).toBeGreaterThanOrEqual(48);
    expect(next.cellsRead).toBeLessThan(60);
    expect(next.board).toEqual((await recognize(changed, { letters })).board);
    expect(next.board[1]!.slice(1, 13)).toBe('KKKKKKKKKKKK');
  });

  it('reads only the squares that changed when the light changed too (a lamp, a cloud, the exposure)', async () => {
    const camera = new Camera({ letters });
    await camera.read(frame);
    // A tile put down as the light dims by a seventh: every square's grey changed, one square's tile.
    const dimmed = (bytes: Buffer) => sharp(bytes).linear(0.86, -4).jpeg({ quality: 95 }).toBuffer();
    const one = await dimmed(await withTile(11, 11));
    const next = await camera.read(one);
    expect(next).toMatchObject({ path: 'changed', gridBy: 'lines' });
    expect(next.cellsRead).toBeLessThan(15);
    expect(next.board).toEqual((await recognize(one, { letters })).board);
    expect(next.board[11]![11]).toBe('K');
    // In that light from now on: the next tile is again the only square read, with no grid to make sure of.
    const two = await dimmed(
      await withTiles([
        [11, 11],
        [12, 11],
      ]),
    );
    const after = await camera.read(two);
    expect(after.path).toBe('changed');
    expect(after.gridBy).toBeUndefined();
    expect(after.cellsRead).toBeLessThan(15);
    expect(after.board).toEqual((await recognize(two, { letters })).board);
    expect(after.board[12]![11]).toBe('K');
  });

  it('reads only the squares that changed when one side of the board is lit less than the other', async () => {
    const camera = new Camera({ letters });
    await camera.read(frame);
    // A tile put down as the light fades towards the right: unchanged on the left edge, a third darker on the right.
    const meta = await sharp(frame).metadata();
    const fade = Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" width="${meta.width}" height="${meta.height}"><defs><linearGradient id="f"><stop offset="0" stop-color="#fff"/><stop offset="1" stop-color="#aaa"/></linearGradient></defs><rect width="100%" height="100%" fill="url(#f)"/></svg>`,
    );
    const faded = await sharp(await withTile(11, 11))
      .composite([{ input: fade, blend: 'multiply' }])
      .jpeg({ quality: 95 })
      .toBuffer();
    const next = await camera.read(faded);
    expect(next).toMatchObject({ path: 'changed', gridBy: 'lines' });
    // The tile's square and the five read in turn as a guard, give or take one.
    expect(next.cellsRead).toBeLessThanOrEqual(7);
    expect(next.board).toEqual((await recognize(faded, { letters })).board);
    expect(next.board[11]![11]).toBe('K');
  });

  it('leaves a square unread for the light only when the light explains it closely (no tone curve hides a tile)', () => {
    // 225 squares of 25 samples, greys spread as a board's are, a little noise: a pseudo-random sequence, the same
    // every run.
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    // Ten squares change by a tile nearly as pale as what was there (20 grey levels up, or down), at greys from
    // dark to light, as the light changes too.
    const tiles = [17, 38, 59, 80, 101, 122, 143, 164, 185, 206];
    const reference = new Float32Array(225 * 25);
    for (let cell = 0; cell < 225; cell++) {
      const tile = tiles.indexOf(cell);
      const grey = tile < 0 ? 50 + 170 * random() : 60 + 30 * Math.floor(tile / 2);
      for (let k = 0; k < 25; k++) reference[cell * 25 + k] = grey + 20 * (random() - 0.5);
    }
    const read = (light: (g: number, cell: number) => number) => {
      const samples = reference.map((g, k) => {
        const tile = tiles.indexOf(Math.floor(k / 25));
        return light(g, Math.floor(k / 25)) + (tile < 0 ? 0 : tile % 2 ? -20 : 20) + 2 * (random() - 0.5);
      });
      const changed = changedSquares(reference, samples);
      const lit = inNewLight(reference, samples, changed);
      return { fitted: lit?.light, read: lit ? lit.squares : changed };
    };
    // The light as one gain and offset: fitted, and only the tiles read.
    const even = read((g) => 0.85 * g - 6);
    expect(even.fitted?.gain[0]).toBeCloseTo(0.85, 1);
    expect(even.read).toEqual(tiles);
    // Brighter to the right and darker to the bottom (a gain and an offset changing evenly across the board): the
    // same.
    const uneven = read(
      (g, cell) => (0.85 + 0.15 * ((cell % 15) / 7 - 1)) * g - 6 - 8 * (Math.floor(cell / 15) / 7 - 1),
    );
    expect(uneven.fitted?.gain[1]).toBeCloseTo(0.15, 1);
    expect(uneven.fitted?.offset[2]).toBeCloseTo(-8, 0);
    expect(uneven.read).toEqual(tiles);
    // The light as tone curves, which a gain and an offset only come near: every tile is still read.
    for (const gamma of [0.75, 1.2, 1.4]) {
      const curved = read((g) => 255 * (g / 255) ** gamma);
      expect(curved.read).toEqual(expect.arrayContaining(tiles));
    }
  });

  it('reads the frame whole when many squares changed and the board moved a little too (its lines tell)', async () => {
    const camera = new Camera({ letters });
    const first = await camera.read(frame);
    const c = first.corners;
    const square = Math.hypot(c[1][0] - c[0][0], c[1][1] - c[0][1]) / 15;
    // The board with 48 new tiles, pushed a sixth of a square to the right.
    const shift = Math.ceil(square / 6);
    const pushed = await pushedRight(await withTiles(many48), shift);
    const read = await camera.read(pushed);
    expect(read).toMatchObject({ path: 'hint', cellsRead: 225, gridBy: 'search' });
    expect(read.corners[0][0]).toBeGreaterThan(c[0][0] + shift / 2);
    expect(read.board).toEqual((await recognize(pushed, { letters })).board);
  });

  it('finds the grid again when the board moved by a whole square, where its lines alone would say it stayed', async () => {
    const camera = new Camera({ letters });
    const first = await camera.read(frame);
    const c = first.corners;
    const square = Math.round(Math.hypot(c[1][0] - c[0][0], c[1][1] - c[0][1]) / 15);
    const pushed = await pushedRight(frame, square);
    const read = await camera.read(pushed);
    expect(read).toMatchObject({ path: 'hint', cellsRead: 225, gridBy: 'search' });
    expect(Math.abs(read.corners[0][0] - (c[0][0] + square))).toBeLessThan(square / 5);
    expect(read.board).toEqual((await recognize(pushed, { letters })).board);
    // The squares' samples say so, whatever the lines say: they look as the last frame's did a square away.
    const photo = await decodeImage(frame);
    const samples = sampleSquares(photo, c);
    expect(movedWholeSquares(samples, sampleSquares(await decodeImage(pushed), c))).toBe(true);
    // With 48 new tiles as well, and four squares away.
    const tiled = await withTiles(many48);
    for (const squares of [1, 4]) {
      const away = await decodeImage(await pushedRight(tiled, squares * square));
      expect(movedWholeSquares(samples, sampleSquares(away, c))).toBe(true);
    }
    // And with the light changed as well (a third darker, a third brighter).
    for (const light of [0.66, 1.33]) {
      const lit = await sharp(pushed).linear(light, 0).jpeg().toBuffer();
      expect(movedWholeSquares(samples, sampleSquares(await decodeImage(lit), c))).toBe(true);
    }
    expect(movedWholeSquares(samples, sampleSquares(await decodeImage(await withTiles(many48)), c))).toBe(
      false,
    );
  });

  it('after forgetting what it learnt, makes every reading again from what the model saw, reading no frame whole', async () => {
    const memory = new TileMemory();
    const camera = new Camera({ letters, memory });
    const first = await camera.read(frame);
    expect(camera.learn(first.board)).toBeGreaterThan(200);
    camera.unlearn();
    expect(memory.size).toBe(0);
    // A frame that cannot be read leaves the readings to be made again by the next one.
    const blank = await sharp({ create: { width: 400, height: 400, channels: 3, background: '#777' } })
      .jpeg()
      .toBuffer();
    await expect(camera.read(blank)).rejects.toThrow();
    await camera.read(frame);
    camera.unlearn();
    const again = await camera.read(frame);
    expect(again.path).toBe('changed');
    expect(again.cellsRead).toBeLessThanOrEqual(5);
    expect(again.board).toEqual((await recognize(frame, { letters })).board);
    expect((await camera.read(frame)).path).toBe('still');
  });

  it('reads a frame whole after a read that failed once it had drawn on the straightened board', async () => {
    // The second frame fails after its changed squares were drawn (patchBoard): its `inspect` comes after that.
    let frames = 0;
    const camera = new Camera({
      letters,
      inspect: () => {
        if (++frames === 2) throw new Error('failed after drawing');
      },
    } as CameraOptions);
    await camera.read(frame);
    const changed = await withTile(11, 11);
    await expect(camera.read(changed)).rejects.toThrow('failed after drawing');
    const next = await camera.read(changed);
    expect(next).toMatchObject({ path: 'hint', cellsRead: 225 });
    expect(next.board).toEqual((await recognize(changed, { letters })).board);
  });

  it('reads a frame whole while another read of the camera runs: the last board is not drawn on by both', async () => {
    const camera = new Camera({ letters });
    await camera.read(frame);
    const [one, two] = [await withTile(11, 11), await withTile(3, 3)];
    const [a, b] = await Promise.all([camera.read(one), camera.read(two)]);
    expect(a.path).toBe('changed');
    expect(b).toMatchObject({ path: 'hint', cellsRead: 225 });
    expect(a.board).toEqual((await recognize(one, { letters })).board);
    expect(b.board).toEqual((await recognize(two, { letters })).board);
  });

  it('follows a board moved by part of a square while the light changed too', async () => {
    // The board pushed 0.6 of a square and the picture a quarter darker: under the last grid and under the one found
    // again alike, every square looks changed. The grid found again must win: under it the squares look as they did,
    // whatever the light.
    const camera = new Camera({ letters, fullEvery: 3 });
    const first = await camera.read(frame);
    const c = first.corners;
    const square = Math.hypot(c[1][0] - c[0][0], c[1][1] - c[0][1]) / 15;
    const moved = await sharp(await pushedRight(frame, Math.round(0.6 * square)))
      .linear(0.75, 0)
      .jpeg({ quality: 95 })
      .toBuffer();
    const truth = await recognize(moved, { letters });
    for (let k = 0; k < 4; k++) {
      const read = await camera.read(new Uint8Array(moved));
      expect(Math.abs(read.corners[0][0] - truth.corners[0][0]), `frame ${k}`).toBeLessThan(square / 10);
      expect(read.board, `frame ${k}`).toEqual(truth.board);
    }
  });

  it('reads a frame whole again when the camera moved, and every `fullEvery` frames', async () => {
    const camera = new Camera({ letters, fullEvery: 3 });
    await camera.read(frame);
    // The picture shifted by 24 pixels: every square changed.
    const moved = await shifted(frame);
    expect((await sharp(moved).metadata()).width).toBe((await sharp(frame).metadata()).width);
    const read = await camera.read(moved);
    // Looked for from the last grid, found 24 pixels away: read whole there.
    expect(read.path).toBe('hint');
    expect(read.cellsRead).toBe(225);
    expect(read.board).toEqual((await recognize(moved, { letters })).board);
    const paths = [];
    for (let i = 0; i < 4; i++) paths.push((await camera.read(moved)).path);
    expect(paths).toEqual(['still', 'still', 'still', 'hint']);
  });
});

/** `photo` with its picture shifted 24 pixels right and down, at the same size (every square changed). */
async function shifted(photo: Buffer): Promise<Buffer> {
  const meta = await sharp(photo).metadata();
  // Two steps: in one pipeline sharp would extract before it extends, and the frame would be larger.
  const extended = await sharp(photo).extend({ left: 24, top: 24, background: '#777' }).toBuffer();
  return sharp(extended)
    .extract({ left: 0, top: 0, width: meta.width!, height: meta.height! })
    .jpeg()
    .toBuffer();
}

describe('the whole read a steady camera makes every `fullEvery` frames', () => {
  it('is put off while frames are waited for (End turns), to the next one nobody waits for, or three times as long', async () => {
    const camera = new Camera({ letters, fullEvery: 2 });
    expect((await camera.read(frame)).path).toBe('search');
    const paths = async (n: number, urgent: boolean) => {
      const out: string[] = [];
      for (let i = 0; i < n; i++) out.push((await camera.read(frame, { urgent })).path);
      return out;
    };
    // Waited for: the whole read due after 2 frames waits, up to 6.
    expect(await paths(7, true)).toEqual(['still', 'still', 'still', 'still', 'still', 'still', 'hint']);
    // Nobody waits: every 2 frames, as before.
    expect(await paths(3, false)).toEqual(['still', 'still', 'hint']);
    // Due while frames were waited for: made on the first frame nobody waits for.
    expect(await paths(3, true)).toEqual(['still', 'still', 'still']);
    expect(await paths(1, false)).toEqual(['hint']);
    // A whole read the frame itself calls for (the picture shifted: every square changed) is never put off.
    expect((await camera.read(await shifted(frame), { urgent: true })).path).toBe('hint');
  });
});

describe('what a steady camera must not reuse', () => {
  it('searches a frame of another size afresh (another view), without the last grid', async () => {
    const camera = new Camera({ letters });
    await camera.read(frame);
    const smaller = await sharp(frame).resize(800).jpeg().toBuffer();
    const read = await camera.read(smaller);
    expect(read).toMatchObject({ path: 'search', cellsRead: 225 });
    expect(read.board).toEqual((await recognize(smaller, { letters })).board);
  });

  it('reads every square again when the letters now face another way', () => {
    const classes = ['.', '?', '#', 'A0', 'A1', 'A2', 'A3'];
    const model = { classes, size: 32, margin: 0.2 } as unknown as CellModel;
    const facing = (turn: number) => {
      const probs = new Float32Array(225 * classes.length);
      for (let i = 0; i < 225; i++) probs[i * classes.length + 3 + turn] = 0.9;
      return probs;
    };
    const before = readCells(model, facing(0));
    expect(before.turns).toBe(0);
    // Only square 0 read again, but the vote now says the letters face a quarter turn on: nothing is kept.
    const after = readCells(model, facing(1), undefined, undefined, new Set([0]), before);
    expect(after.turns).toBe(1);
    expect(after.chars.every((c) => c === 'A')).toBe(true);
    expect(after.confidence.every((p) => p > 0.5)).toBe(true);
    // Facing the same way, the squares not read again are the last reading's.
    const same = readCells(model, facing(0), undefined, undefined, new Set([0]), before);
    expect(same.options[5]).toBe(before.options[5]);
  });

  const jheidel = new URL('../../shared/realdata/jheidel-en/photos/', import.meta.url);
  it.skipIf(!existsSync(jheidel))(
    'looks for the grid afresh when the last one, followed, lands on other lines (the board photographed from elsewhere)',
    async () => {
      // jheidel-en: the empty board, then the first move photographed from another side. The last grid's lines,
      // followed, fitted other lines of the board (a square off): every row read as tiles.
      const photo = (name: string) => readFileSync(new URL(`IMG_20151016_${name}.jpg`, jheidel));
      const camera = new Camera({ letters });
      await camera.read(photo('165320'));
      const read = await camera.read(photo('165401'));
      const cold = await recognize(photo('165401'), { letters });
      read.corners.forEach(([x, y], i) => {
        expect(Math.hypot(x - cold.corners[i]![0], y - cold.corners[i]![1])).toBeLessThan(3);
      });
      expect(read.board.filter((row) => /[A-Z]/.test(row)).length).toBeLessThanOrEqual(2);
    },
    60_000,
  );
});
