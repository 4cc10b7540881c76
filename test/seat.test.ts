/**
 * The camera at a player's seat, on the rendered seat views of fixtures/seat (models/training/seat.py: a board on a
 * table seen from its edge, 45–75° from straight above, tiles as boxes with height, racks, hands and cups; never
 * trained on). Real cases the seat issue names: a tile's face read on its own square, a grid off the board refused,
 * printed premium words not read as letters.
 */
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { correctLabel, errataFor, parseErrata } from '../server/cli/errata.ts';
import { parseBoard } from '../server/engine/index.ts';
import { readFrame } from '../server/service/game/frames.ts';
import { handSquares } from '../server/service/game/interpret.ts';
import { cornersMoved, gridHomography, project, unproject } from '../vision/homography.ts';
import {
  type BoardReading,
  type Corners,
  decodeImage,
  loadModel,
  readRack,
  recognize,
} from '../vision/index.ts';
import { locateGrid, movedGrid, readFrame as readPhoto } from '../vision/recognize.ts';

const seat = fileURLToPath(new URL('../fixtures/seat/', import.meta.url));
const scenes = JSON.parse(readFileSync(join(seat, 'scenes.json'), 'utf8')).scenes as Record<
  string,
  {
    size: [number, number];
    grid_corners: [number, number][];
    rack_letters: string;
    hand: boolean;
    hidden_by_hand: string[];
  }
>;
/** A real photo of the red Hasbro board from its steepest side, whose grid is found over its SCRABBLE panel. */
const steep = fileURLToPath(
  new URL('../../shared/realdata/jheidel-en/photos/IMG_20151016_170746.jpg', import.meta.url),
);
/** A real photo of the same board from the same side, whose grid is found a row off along the far tiles. */
const rowOff = fileURLToPath(
  new URL('../../shared/realdata/jheidel-en/photos/IMG_20151016_170750.jpg', import.meta.url),
);
/** A real photo of the vintage board from a corner, its near half over the tablecloth's edge (labelled). */
const corner = fileURLToPath(
  new URL('../../shared/realdata/jheidel-en/photos/IMG_20141025_163920.jpg', import.meta.url),
);
const jheidelLabels = fileURLToPath(new URL('../fixtures/labels/jheidel-en/', import.meta.url));
const jheidelPhoto = (name: string) =>
  new URL(`../../shared/realdata/jheidel-en/photos/${name}.jpg`, import.meta.url);
/** jheidel-en photos whose blank at 10O, on the red board, read empty without a question before session 46. */
const paleBlank = ['IMG_20151016_165954', 'IMG_20151016_170714', 'IMG_20151016_170757'];
const cornerLabel = join(jheidelLabels, 'IMG_20141025_163920.txt');
/** A real photo of the vintage board blurred by the camera's motion (labelled from the photos beside it). */
const blurred = fileURLToPath(
  new URL('../../shared/realdata/jheidel-en/photos/IMG_20141025_164048.jpg', import.meta.url),
);
/** A real photo of a board of ceramic tiles set in a table, seen across it (unlabelled). */
const tiledTable = fileURLToPath(new URL('../../shared/realdata/kwwangkw-en/photos/s2.jpg', import.meta.url));
/** kwwangkw-en's raw photos from above: s5, the vintage board, its grid found a column onto the side panel (its
 *  board is kwwangkw-en/warped's w27); s14, its grid found a row and a column off (w19). */
const kwPhoto = (name: string) =>
  fileURLToPath(new URL(`../../shared/realdata/kwwangkw-en/photos/${name}.jpg`, import.meta.url));
const sidePanel = kwPhoto('s5');

/** A kwwangkw-en/warped board's label as models/label-errata.txt corrects it, row by row. */
function kwLabel(name: string): string[] {
  const path = fileURLToPath(
    new URL(`../../shared/realdata/kwwangkw-en/warped/${name}.txt`, import.meta.url),
  );
  const parsed = parseErrata(readFileSync(new URL('../models/label-errata.txt', import.meta.url), 'utf8'));
  if (!parsed.ok) throw new Error(parsed.message);
  const cells = [...readFileSync(path, 'utf8').replace(/\s/g, '')];
  const corrected = correctLabel(cells, errataFor(parsed.errata, path), path);
  if (!corrected.ok) throw new Error(corrected.message);
  return Array.from({ length: 15 }, (_, r) => corrected.cells.slice(r * 15, r * 15 + 15).join(''));
}
const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
/** A view's file: in its band's folder (the name says the band: `18_55-65deg_modern`). */
const file = (name: string, ext: string) => join(seat, /_(\d+-\d+)deg_/.exec(name)![1]!, `${name}.${ext}`);
const label = (name: string) => readFileSync(file(name, 'txt'), 'utf8').trimEnd().split('\n');
const read = (name: string, tileHeight?: number, model?: string) =>
  recognize(readFileSync(file(name, 'jpg')), {
    letters,
    blanks: 2,
    ...(tileHeight === undefined ? {} : { tileHeight }),
    ...(model === undefined ? {} : { model }),
  });

/**
 * How far the found corners lie from the view's true ones, in squares of the true grid: each found corner taken into
 * the true grid's coordinates and measured to the nearest of its corners (the board's orientation is settled later),
 * the farthest.
 */
function nearest(name: string, width: number, corners: readonly (readonly [number, number])[]): number {
  const k = width / scenes[name]!.size[0];
  const h = gridHomography(scenes[name]!.grid_corners.map(([x, y]) => [x * k, y * k] as const));
  const ends = [0, 15];
  return Math.max(
    ...corners.map(([x, y]) => {
      const [u, v] = unproject(h, x, y);
      return Math.min(...ends.flatMap((eu) => ends.map((ev) => Math.hypot(u - eu, v - ev))));
    }),
  );
}

/**
 * A photo read through the first grid the search finds, judged as a grid searched for but given no other grid to
 * turn to (`readFrame` with the grid's corners): what the checks make of that grid.
 */
async function throughFirstGrid(bytes: Uint8Array): Promise<BoardReading> {
  const photo = await decodeImage(bytes);
  const corners = await locateGrid(photo);
  const at = performance.now();
  const state = await readPhoto(
    bytes,
    { letters, blanks: 2 },
    undefined,
    { photo, since: at, decoded: at, corners },
    false,
    true,
  );
  return state.reading;
}

/** The first grid the search finds, as seen (its corners in the order `locateGrid` gives them). */
async function firstCorners(bytes: Uint8Array): Promise<Corners> {
  return locateGrid(await decodeImage(bytes));
}

/** How far two grids' corners lie apart (cornersMoved), whichever corner either starts at: a reading's corners start
 *  at the upright board's top-left. */
const apart = (a: Corners, b: Corners) =>
  Math.min(
    ...[0, 1, 2, 3].map((t) =>
      cornersMoved(
        a,
        [0, 1, 2, 3].map((i) => b[(i + t) % 4]!),
      ),
    ),
  );

/** The squares read otherwise than the label says, and those of them not reported unsure. */
function compare(reading: BoardReading, truth: readonly string[]) {
  const unsure = new Set(reading.unsure.map((s) => s.row * 15 + s.col));
  const wrong: number[] = [];
  for (let i = 0; i < 225; i++) {
    const [row, col] = [Math.floor(i / 15), i % 15];
    if (reading.board[row]![col] !== truth[row]![col]) wrong.push(i);
  }
  return { wrong, silent: wrong.filter((i) => !unsure.has(i)) };
}

describe('the camera at a player’s seat (rendered seat views)', () => {
  it('reads each tile’s face on its own square, from 56° and from 72° off vertical', async () => {
    for (const name of ['18_55-65deg_modern', '30_65-75deg_vintage']) {
      const truth = label(name);
      const tiles = [...truth.join('')].flatMap((t, i) => (t === '.' ? [] : [i]));
      const lifted = compare(await read(name), truth);
      // Every tile read on its square or asked about, and nothing wrong that is not reported unsure.
      expect(lifted.wrong.filter((i) => tiles.includes(i)).length, name).toBeLessThanOrEqual(4);
      expect(lifted.silent, name).toEqual([]);
      // Read on the board's plane, the far tiles' faces cover the squares behind them: tiles read one square off.
      const flat = compare(await read(name, 0), truth);
      expect(flat.wrong.length, name).toBeGreaterThan(lifted.wrong.length + 30);
      expect(flat.silent.length, name).toBeGreaterThan(10);
    }
  });

  it('finds the grid of a board small in the picture, with the rack and the table in view', async () => {
    // The half-size search put these grids rows off the board (corners 56–223 px off, over the near border, the rack
    // and the table); the board's far rows are a few pixels tall there. Searched again at full size, each grid lies
    // within a fifth of a square of the truth, and reads with few questions.
    for (const name of [
      '00_45-55deg_modern',
      '01_45-55deg_vintage',
      '02_45-55deg_plain',
      '12_55-65deg_vintage',
      '33_65-75deg_plain',
    ]) {
      const photo = await decodeImage(readFileSync(file(name, 'jpg')));
      expect(nearest(name, photo.width, await locateGrid(photo)), name).toBeLessThan(0.2);
      const reading = await read(name);
      expect(reading.gridDoubt, name).toBeUndefined();
      expect(compare(reading, label(name)).silent.length, name).toBeLessThanOrEqual(2);
    }
  });

  it('refines a grid from a hint only, when asked, and says no board where the hint’s lines are gone', async () => {
    const name = '05_45-55deg_modern';
    const photo = await decodeImage(readFileSync(file(name, 'jpg')));
    const k = photo.width / scenes[name]!.size[0];
    const truth = scenes[name]!.grid_corners.map(
      ([x, y]) => [x * k, y * k] as [number, number],
    ) as unknown as Corners;
    // From a hint a few pixels off, the grid is refined onto the board's lines.
    const near = truth.map(([x, y]) => [x + 3, y - 2] as [number, number]) as unknown as Corners;
    expect(nearest(name, photo.width, await locateGrid(photo, near, true))).toBeLessThan(0.2);
    // From a hint off the board (a camera turned away), only from the hint: no board; else the picture is searched.
    const away = truth.map(([x, y]) => [x * 0.5, y * 0.5] as [number, number]) as unknown as Corners;
    await expect(locateGrid(photo, away, true)).rejects.toMatchObject({ code: 'no-board' });
    expect(nearest(name, photo.width, await locateGrid(photo, away))).toBeLessThan(0.2);
  });

  it('finds a board whose outline runs into the table’s planks, through its vanishing points', async () => {
    // No outline of these boards is found (the planks' lines join the board's edges); their rows and columns, met at
    // two vanishing points and straightened, give the grid.
    for (const name of [
      '10_45-55deg_vintage',
      '11_45-55deg_plain',
      '13_55-65deg_plain',
      '24_65-75deg_plain',
    ]) {
      const photo = await decodeImage(readFileSync(file(name, 'jpg')));
      expect(nearest(name, photo.width, await locateGrid(photo)), name).toBeLessThan(0.2);
      expect((await read(name)).gridDoubt, name).toBeUndefined();
    }
  });

  it('finds a board seen at 70–72°, whose far rows cross few lines and whose first grid never fitted', async () => {
    // 32: the rows' and columns' crossings lie in the board's near half and the rack, and the window around them
    // missed the far rows; the window grown towards the far side takes them in. 25: the second search's grid was
    // right (0.84) but under the 1 asked of a grid replacing a fitted one; the first one here never fitted (no board).
    for (const [name, within] of [
      ['32_65-75deg_modern', 0.3],
      // Its far corners a square out in the board's own measure (a few pixels in the picture): read with questions.
      ['25_65-75deg_modern', 1.5],
    ] as const) {
      const photo = await decodeImage(readFileSync(file(name, 'jpg')));
      expect(nearest(name, photo.width, await locateGrid(photo)), name).toBeLessThan(within);
      const reading = await read(name);
      expect(reading.gridDoubt, name).toBeUndefined();
      expect(compare(reading, label(name)).silent.length, name).toBeLessThanOrEqual(1);
    }
  });

  it('finds a grid that runs past its outline, where the rack or the near tiles cut the outline short', async () => {
    // The outline found of these boards ends a row or so inside the grid (the rack stands over the near border; the
    // black tiles of the near rows merge with it), and no grid of 16 lines fits inside it: no board was found. Tried
    // grown by GROW too, and the best few grids refined and judged again, each is found within a fifth of a square.
    for (const name of ['08_45-55deg_vintage', '15_55-65deg_plain']) {
      const photo = await decodeImage(readFileSync(file(name, 'jpg')));
      expect(nearest(name, photo.width, await locateGrid(photo)), name).toBeLessThan(0.2);
      const reading = await read(name);
      expect(reading.gridDoubt, name).toBeUndefined();
      expect(compare(reading, label(name)).silent, name).toEqual([]);
    }
  });

  it.skipIf(!existsSync(corner))(
    'passes over a grid that runs off the picture for the board’s own, in a real photo taken from a corner',
    async () => {
      // jheidel-en 163920: the first search's one grid lay over the board's near half and the tablecloth below the
      // picture, and no board was reported. Now passed over, the second search finds the board's grid, read perfectly.
      const photo = await decodeImage(readFileSync(corner));
      const found = await locateGrid(photo);
      for (const [x, y] of found) {
        expect(x).toBeGreaterThanOrEqual(0);
        expect(y).toBeGreaterThanOrEqual(0);
        expect(x).toBeLessThanOrEqual(photo.width);
        expect(y).toBeLessThanOrEqual(photo.height);
      }
      const reading = await recognize(readFileSync(corner), { letters, blanks: 2 });
      expect(reading.gridDoubt).toBeUndefined();
      const truth = readFileSync(cornerLabel, 'utf8').trimEnd().split('\n');
      expect(compare(reading, truth).wrong).toEqual([]);
    },
  );

  it.skipIf(!existsSync(tiledTable))(
    'finds the grid of a real tiled-table board seen at a steep angle',
    async () => {
      // kwwangkw-en/photos/s2: a board of ceramic tiles set in a table, photographed across it. Its grid was put a row
      // and more off, over the table's apron; now it lies on the squares. The corners below are the grid's outer
      // corners as seen on the photo (checked by eye on crops of the four corners, in the decoded photo's 736×552
      // pixels); a square there is 28 to 45 pixels wide.
      const photo = await decodeImage(readFileSync(tiledTable));
      const truth = [
        [155, 48],
        [573, 53],
        [712, 375],
        [74, 381],
      ];
      const found = await locateGrid(photo);
      for (const [i, [x, y]] of truth.entries()) {
        expect(Math.hypot(found[i]![0] - x!, found[i]![1] - y!), `corner ${i}`).toBeLessThan(6);
      }
    },
  );

  it.skipIf(!existsSync(steep))(
    'does not read through a grid found off the board, and reads the board through the grid found beside it',
    async () => {
      // The red Hasbro board seen from its steepest side: the first grid is stretched over the SCRABBLE panel. The
      // checks put every square of it in doubt, and say why.
      const bytes = readFileSync(steep);
      const first = await throughFirstGrid(bytes);
      expect(first.gridDoubt).toMatch(/do not show the board's premium squares/);
      expect(first.unsure).toHaveLength(225);
      // The closer search's other grid lies on the board's squares: the photo is read through it (138 squares wrong,
      // every one unsure, before 2026-11-30), every square right but the blank at 10O, asked about.
      const reading = await recognize(bytes, { letters, blanks: 2 });
      expect(reading.gridDoubt).toBeUndefined();
      const truth = readFileSync(join(jheidelLabels, 'IMG_20151016_170746.txt'), 'utf8')
        .trimEnd()
        .split('\n');
      const { wrong, silent } = compare(reading, truth);
      expect(silent).toEqual([]);
      expect(wrong.length).toBeLessThanOrEqual(2);
      // A grid on the board, rack in view, is not doubted.
      expect((await read('05_45-55deg_modern')).gridDoubt).toBeUndefined();
    },
  );

  it.skipIf(!paleBlank.every((name) => existsSync(jheidelPhoto(name))))(
    'reads the pale blank on the red board, whose squares are nearly its colour, as a blank or asks, never empty unasked',
    async () => {
      // The red Hasbro board's grey-beige squares are 6.5 (CIE ΔE, lightness halved) from its pale wooden tiles:
      // the colour check took them for one colour, and the blank at 10O, which the model reads empty, read empty
      // without a question in 16 photos. Its colour, nearer the tiles', now reads it as a blank or puts it in doubt.
      for (const name of paleBlank) {
        const reading = await recognize(readFileSync(jheidelPhoto(name)), { letters, blanks: 2 });
        const truth = readFileSync(join(jheidelLabels, `${name}.txt`), 'utf8')
          .trimEnd()
          .split('\n');
        expect(truth[9]![14], name).toBe('?');
        const { silent } = compare(reading, truth);
        expect(silent, name).toEqual([]);
      }
    },
  );

  it.skipIf(!existsSync(blurred))(
    'does not read through another grid where the reading through it is mostly in doubt',
    async () => {
      // jheidel-en 164048, blurred by the camera's motion: its first grid is in doubt; the closer search's other grid lies on the board, but the reading through it leaves 123
      // squares unsure and 6 tiles read empty without a question. It is not taken: the photo stays in doubt.
      const reading = await recognize(readFileSync(blurred), { letters, blanks: 2 });
      expect(reading.gridDoubt).toBeDefined();
      expect(reading.unsure).toHaveLength(225);
    },
  );

  it.skipIf(!existsSync(rowOff))(
    'reads a grid found a row off the board’s through the grid moved a square, where the premium squares show it',
    async () => {
      // jheidel-en 170750 (the red board from its far side): its grid found a row off, on a line of the far tiles'
      // edges. Its empty squares still show the premium layout well enough (0.74, over the 0.6 a grid on the board
      // must show), so 36 squares were read wrong without a question; one half of the grid moved a square across
      // (as the photo shows it, its right-hand half a column to the left) shows it more clearly.
      const first = await throughFirstGrid(readFileSync(rowOff));
      expect(first.gridDoubt).toMatch(/show more clearly a square beside it/);
      expect(first.unsure).toHaveLength(225);
      // Read as a whole, through the grid moved so (a refusal, as "no board", before): no doubt, no square read wrong
      // without a question (7 asked about: the red board's blanks, two tiles at the picture's edge).
      const reading = await recognize(readFileSync(rowOff), { letters, blanks: 2 });
      expect(reading.gridDoubt).toBeUndefined();
      // Through that grid, not another the closer search found.
      const moved = movedGrid(await firstCorners(readFileSync(rowOff)), {
        rows: 0,
        cols: -1,
        half: 'second',
      });
      expect(apart(moved, reading.corners)).toBeLessThan(0.05);
      const truth = readFileSync(join(jheidelLabels, 'IMG_20151016_170750.txt'), 'utf8')
        .replace(/[a-z]/g, '?')
        .trimEnd()
        .split('\n');
      const result = compare(reading, truth);
      expect(result.silent).toEqual([]);
      expect(result.wrong.length).toBeLessThanOrEqual(8);
      // The service reads it too.
      const served = await readFrame(readFileSync(rowOff), 'en');
      expect(served.reading.gridDoubt).toBeUndefined();
    },
  );

  it.skipIf(!existsSync(sidePanel))(
    'reads a grid found a column onto the board’s side panel through the grid moved back, half by half',
    async () => {
      // kwwangkw-en s5: its grid found a column to the right, over the vintage board's printed side panel; its empty
      // squares show the premium layout too faintly to pass (under 0.6), and it was refused. Its right half moved a
      // column back shows the layout more clearly, and then its left half: read through that grid, the board is
      // read as its labels say (w27's, corrected by models/label-errata.txt), two squares asked about.
      const photo = readFileSync(sidePanel);
      const first = await throughFirstGrid(photo);
      expect(first.gridDoubt).toMatch(/do not show the board's premium squares/);
      const reading = await recognize(photo, { letters, blanks: 2 });
      expect(reading.gridDoubt).toBeUndefined();
      const corners = await firstCorners(photo);
      const moved = movedGrid(movedGrid(corners, { rows: 0, cols: -1, half: 'second' }), {
        rows: 0,
        cols: -1,
        half: 'first',
      });
      expect(apart(moved, reading.corners)).toBeLessThan(0.05);
      expect(compare(reading, kwLabel('w27')).wrong).toEqual([]);
    },
  );

  it.skipIf(!existsSync(kwPhoto('s14')))(
    'reads a grid found a row and a column off through the grid moved a square diagonally',
    async () => {
      // kwwangkw-en s14: its grid found over the border's printed name and a column in, its layout too faint to
      // pass; the grid moved a square diagonally shows it clearly, and reads the board as its labels say (w19's).
      const photo = readFileSync(kwPhoto('s14'));
      const first = await throughFirstGrid(photo);
      expect(first.gridDoubt).toMatch(/do not show the board's premium squares/);
      const reading = await recognize(photo, { letters, blanks: 2 });
      expect(reading.gridDoubt).toBeUndefined();
      const corners = await firstCorners(photo);
      const diagonal = [-1, 1].flatMap((rows) => [-1, 1].map((cols) => movedGrid(corners, { rows, cols })));
      expect(Math.min(...diagonal.map((d) => apart(d, reading.corners)))).toBeLessThan(0.05);
      // But 15O, below the W: the errata leave it as labelled, empty (a tile or a worn empty square, they could not
      // tell; this set labels a blank empty too), and this photo shows a plain tile there, read as a blank.
      const wrong = compare(reading, kwLabel('w19')).wrong;
      expect(wrong.filter((i) => i !== 224)).toEqual([]);
      expect(wrong.length === 0 || reading.board[14]![14] === '?').toBe(true);
    },
  );

  it('reads a grid a row off at one edge only through the grid whose half is moved a square', async () => {
    // Rendered view 27 (65–75°): its grid lies on the board's lines at one edge and a row off at the other; the
    // whole grid moved shows the layout less clearly, but the half a row off shows it more clearly moved a row back.
    // 33 squares were read wrong without a question before the grid was put in doubt (session 38), 59 in doubt since.
    const name = '27_65-75deg_modern';
    const first = await throughFirstGrid(readFileSync(file(name, 'jpg')));
    expect(first.gridDoubt).toMatch(/show more clearly a square beside it/);
    expect(first.unsure).toHaveLength(225);
    const reading = await read(name);
    expect(reading.gridDoubt).toBeUndefined();
    // Through the grid whose far half is moved a row back (as the photo shows it), not another the search found.
    const moved = movedGrid(await firstCorners(readFileSync(file(name, 'jpg'))), {
      rows: -1,
      cols: 0,
      half: 'second',
    });
    expect(apart(moved, reading.corners)).toBeLessThan(0.05);
    // On the board's grid now, each corner within half a square (0.38 at the far left one; the first grid: a row off
    // at two of them).
    expect(nearest(name, 1280, reading.corners)).toBeLessThan(0.5);
    expect(nearest(name, 1280, first.corners)).toBeGreaterThan(0.6);
    const result = compare(reading, label(name));
    expect(result.silent).toEqual([]);
    expect(result.wrong.length).toBeLessThanOrEqual(2);
  });

  it('moves a grid by whole squares in its own perspective, or one edge of it only', () => {
    // A grid seen in perspective: its far edge 300 px wide, its near one 600.
    const grid: Corners = [
      [350, 100],
      [650, 100],
      [800, 700],
      [200, 700],
    ];
    const h = gridHomography(grid);
    const down = movedGrid(grid, { rows: 1, cols: 0 });
    // Each corner moved to where the grid puts the next row's: the far ones less than the near ones.
    expect(down[0][1]).toBeCloseTo(project(h, 0, 1)[1], 6);
    expect(down[3][0]).toBeCloseTo(project(h, 0, 16)[0], 6);
    expect(down[0][1] - grid[0][1]).toBeLessThan(down[3][1] - grid[3][1]);
    // Its left half only, a column further left: the right-hand corners stay.
    const half = movedGrid(grid, { rows: 0, cols: -1, half: 'first' });
    expect(half[0][0]).toBeCloseTo(project(h, -1, 0)[0], 6);
    expect(half[1]).toEqual(grid[1]);
    expect(half[2]).toEqual(grid[2]);
    expect(half[3][0]).toBeCloseTo(project(h, -1, 15)[0], 6);
    // Its near half only, a row back: the far corners stay.
    const near = movedGrid(grid, { rows: -1, cols: 0, half: 'second' });
    expect(near[0]).toEqual(grid[0]);
    expect(near[1]).toEqual(grid[1]);
    for (const [k, u] of [
      [2, 15],
      [3, 0],
    ] as const) {
      expect(near[k][0]).toBeCloseTo(project(h, u, 14)[0], 6);
      expect(near[k][1]).toBeCloseTo(project(h, u, 14)[1], 6);
    }
  });

  it('does not read through a grid over part of the board only, where too few squares read empty to judge it by', async () => {
    // fixtures/seat-planks/move-16: the recorded game of fixtures/seat-game rendered at 55° at 1920×1440 over a table
    // of wooden planks (models/training/seat_game.py … --seed 5 --angle 55 --size 1920x1440, then made 1280×960).
    // Its grid was found over two fifths of the board's width: of the premium squares under it, one kind only read
    // empty surely enough to judge by, so no layout check was made, and 20 squares were read wrong without a question.
    const frame = readFileSync(new URL('../fixtures/seat-planks/move-16.jpg', import.meta.url));
    const first = await throughFirstGrid(frame);
    expect(first.gridDoubt).toMatch(/too few of the squares under it read clearly as empty/);
    expect(first.unsure).toHaveLength(225);
    // Read as a whole, through the other grid the closer search finds, on the whole board: every square right.
    const reading = await recognize(frame, { letters, blanks: 2 });
    expect(reading.gridDoubt).toBeUndefined();
    // (A blank is labelled as its letter in small: read as the blank it is.)
    const truth = readFileSync(new URL('../fixtures/seat-planks/move-16.txt', import.meta.url), 'utf8');
    expect(compare(reading, truth.replace(/[a-z]/g, '?').trimEnd().split('\n')).wrong).toEqual([]);
  });

  it("does not read through a grid whose near edge lies on the board's border, seen from a seat at 64°", async () => {
    // fixtures/seat-border/move-19: Macondo's noah_vs_peter rendered at 64° (models/training/seat_game.py
    // ../shared/corpus/gcg/macondo/gcgio_testdata_noah_vs_peter.gcg --seed 31 --angle 64 --size 1920x1440). Its grid
    // was found with its near edge on the board's black border, a row too near, every row stretched: 40 squares
    // read wrong without a question, the near half too full of tiles for the layout to judge. Its last row shows the
    // border's one colour, neither tiles' nor squares'.
    const frame = readFileSync(new URL('../fixtures/seat-border/move-19.jpg', import.meta.url));
    const border = await throughFirstGrid(frame);
    expect(border.gridDoubt).toMatch(/one of its outer rows shows neither the board's squares nor tiles/);
    expect(border.unsure).toHaveLength(225);
    // Read as a whole, through the other grid the closer search finds: no square wrong without a question (59
    // squares wrong, every one unsure, before 2026-11-30; now 14, the far tiles, each asked about).
    const reading = await recognize(frame, { letters, blanks: 2 });
    expect(reading.gridDoubt).toBeUndefined();
    const truth = readFileSync(new URL('../fixtures/seat-border/move-19.txt', import.meta.url), 'utf8');
    const { wrong, silent } = compare(reading, truth.replace(/[a-z]/g, '?').trimEnd().split('\n'));
    expect(silent).toEqual([]);
    expect(wrong.length).toBeLessThan(20);
  });

  it("reads a grid found turned off the board's lines through the grid moved onto them, seen from a seat at 64°", async () => {
    // fixtures/seat-turned/move-21: the same rendered game two moves on. Its grid is found with its right side 0.7 of
    // a square too far (its top-right corner 14 pixels up, where a far row is 20 tall): read through it, M5's B read
    // at M6, M4's I at M5, O8's P at O9 and six more, all without a question; the layout checks pass it (the left two
    // thirds lie right). Between the empty squares of the thirds, the board's lines run 0.01, 0.18 and 0.35 of a
    // square below the grid's, left to right: the grid moved onto them reads every square right.
    const photo = new URL('../fixtures/seat-turned/move-21.jpg', import.meta.url);
    const turned = await recognize(readFileSync(photo), { letters, blanks: 2 });
    expect(turned.gridDoubt).toBeUndefined();
    // Read through the grid moved, not the one found: its right corners moved down, 6 and 23 pixels (the photo is
    // decoded at its own size, 1920 pixels wide), its left ones less than 5.
    const decoded = await decodeImage(readFileSync(photo));
    expect(decoded.width).toBe(1920);
    const found = await locateGrid(decoded);
    expect(turned.corners[1]![1] - found[1]![1]).toBeGreaterThan(4);
    expect(turned.corners[2]![1] - found[2]![1]).toBeGreaterThan(15);
    for (const k of [0, 3]) expect(Math.abs(turned.corners[k]![1] - found[k]![1])).toBeLessThan(5);
    const truth = readFileSync(new URL('../fixtures/seat-turned/move-21.txt', import.meta.url), 'utf8');
    // Its two blanks (labelled as the letters they stand for, in lower case) read as blanks.
    const blanks = truth.replace(/[a-z]/g, '?');
    expect(compare(turned, blanks.trimEnd().split('\n')).wrong).toEqual([]);
  });

  it('sees the arm over the board at 49°, and no hand at 72° where there is none', async () => {
    /** The squares a game would take for a hand's (interpret.ts handSquares), as row * 15 + col. */
    const hands = async (name: string) => {
      const reading = await read(name);
      const board = parseBoard(reading.board);
      if (!board.ok) throw new Error(board.message);
      return [...handSquares({ ...reading, board: board.board }, 15)];
    };
    // View 00: an arm reaching in from the right over 37 squares (scenes.json's hidden_by_hand, "5I" = row 5, I).
    const under = new Set(
      scenes['00_45-55deg_modern']!.hidden_by_hand.map((q) => {
        const [, row, col] = /^(\d+)([A-O])$/.exec(q)!;
        return (Number(row) - 1) * 15 + 'ABCDEFGHIJKLMNO'.indexOf(col!);
      }),
    );
    const arm = await hands('00_45-55deg_modern');
    expect(arm.filter((i) => under.has(i)).length).toBeGreaterThan(25);
    // View 25: no hand; the model's hand share rose over 56 squares of it, which show their own colours.
    expect(scenes['25_65-75deg_modern']!.hand).toBe(false);
    expect(await hands('25_65-75deg_modern')).toEqual([]);
  });

  it("refuses a grid turned off the board's lines where they show no clear way onto them, seen from a seat at 64°", async () => {
    // fixtures/seat-lines-off/move-24: the game of fixtures/seat-turned three moves on. Its grid is found with a
    // corner two squares off; the board's lines between the empty squares of its middle third cannot be measured, so
    // the three thirds' offsets do not give a grid to move it onto. Moved on the other two thirds alone, it lined up
    // as well and read 51 squares wrong without a question (docs/measurements.md, session 41): it is refused instead.
    const refused = await recognize(
      readFileSync(new URL('../fixtures/seat-lines-off/move-24.jpg', import.meta.url)),
      { letters, blanks: 2 },
    );
    expect(refused.gridDoubt).toMatch(/lines run a quarter of a square or more off it/);
    expect(refused.unsure).toHaveLength(225);
  });

  it("puts in doubt the border's printed name read as a letter beside the far row, seen from a seat at 58°", async () => {
    // fixtures/seat-print/move-17: Macondo's noah_vs_mishu rendered at 58° (models/training/seat_game.py
    // ../shared/corpus/gcg/macondo/gcgio_testdata_noah_vs_mishu.gcg --seed 21 --angle 58 --size 1920x1440). The
    // board prints CROSSWORD on its border above the far row, as a Mattel board prints its name. Read through the
    // grid lifted to the tiles' faces, empty H1's crop reaches onto that print: the model read a W there, surely
    // (0.81). Where its face would be, H1 shows the board's green, not the cream of the frame's tiles.
    const photo = new URL('../fixtures/seat-print/move-17.jpg', import.meta.url);
    const reading = await recognize(readFileSync(photo), { letters, blanks: 2 });
    expect(reading.gridDoubt).toBeUndefined();
    const truth = readFileSync(new URL('../fixtures/seat-print/move-17.txt', import.meta.url), 'utf8');
    const result = compare(reading, truth.replace(/[a-z]/g, '?').trimEnd().split('\n'));
    expect(result.silent).toEqual([]);
    // H1 is read empty, or asked about.
    expect(reading.board[0]![7] === '.' || reading.unsure.some((q) => q.row === 0 && q.col === 7)).toBe(true);
  });

  it('does not read through a grid a row off seen from a seat at 68°', async () => {
    // The rendered game's move 16 (fixtures/seat-game-68), its grid found a row past the far edge. Its half moved a
    // square back runs off the board's lines elsewhere (a check the moved grid must pass too): it stays in doubt.
    const steep68 = await recognize(
      readFileSync(new URL('../fixtures/seat-game-68/move-16.jpg', import.meta.url)),
      { letters, blanks: 2 },
    );
    expect(steep68.gridDoubt).toMatch(/show more clearly a square beside it/);
    expect(steep68.unsure).toHaveLength(225);
  });

  describe('the seat reader', () => {
    const models = fileURLToPath(new URL('../models/', import.meta.url));
    const dir = mkdtempSync(join(tmpdir(), 'tilecam-no-seat-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));
    /** The committed model and its quick copy, without the seat reader: the model alone. */
    const alone = () => {
      for (const f of ['cells.onnx', 'cells.int8.onnx', 'cells.int8.json'])
        copyFileSync(join(models, f), join(dir, f));
      const meta = JSON.parse(readFileSync(join(models, 'cells.json'), 'utf8'));
      expect(meta.seat).toBeDefined();
      delete meta.seat;
      writeFileSync(join(dir, 'cells.json'), JSON.stringify(meta));
      return join(dir, 'cells.onnx');
    };

    it('reads the far rows’ squeezed letters by the seat reader too: what the model alone misread surely is asked or right', async () => {
      // Seen at 55–65°, the far rows' R and N read as H, S as B, E as I, surely, by the model alone; read by the seat
      // reader too, their shares averaged, every one of them is asked about or read right, and fewer are wrong.
      const path = alone();
      for (const name of ['13_55-65deg_plain', '19_55-65deg_vintage', '22_55-65deg_plain']) {
        const truth = label(name);
        const before = compare(await read(name, undefined, path), truth);
        const after = compare(await read(name), truth);
        expect(before.silent.length, name).toBeGreaterThanOrEqual(2);
        expect(after.silent, name).toEqual([]);
        expect(after.wrong.length, name).toBeLessThan(before.wrong.length);
      }
    });
  });

  it('never takes the printed words of a modern board’s premium squares for a letter without asking', async () => {
    for (const name of ['05_45-55deg_modern', '09_45-55deg_modern', '18_55-65deg_modern']) {
      const { wrong, silent } = compare(await read(name), label(name));
      expect(silent, name).toEqual([]);
      expect(wrong.length, name).toBeLessThanOrEqual(6);
    }
  });

  it('reads the rack standing in front of the board, and sees none where none stands or from above', async () => {
    const model = await loadModel();
    // Racks of the rendered views read whole (of the thirty views with a rack, some of them cut off by the picture's
    // edge, fourteen racks are found and nine of them read whole: docs/benchmarks.md). View 10's rack read whole
    // too until its grid's corners moved by 0.4–1.2 px (three of its seven tiles are now not seen).
    for (const name of [
      '20_55-65deg_plain',
      '25_65-75deg_modern',
      '33_65-75deg_plain',
      '35_65-75deg_vintage',
    ]) {
      const photo = await decodeImage(readFileSync(file(name, 'jpg')));
      const grid = await locateGrid(photo);
      const rack = await readRack(photo, grid, model, [...letters]);
      expect(rack?.tiles.map((t) => t.letter).join(''), name).toBe(scenes[name]!.rack_letters);
      // Looked for again where it stood (a steady camera's next look): the same tiles; three squares nearer the
      // board, where it does not stand, none.
      const near = await readRack(photo, grid, model, [...letters], rack!.distance);
      expect(near?.tiles.map((t) => t.letter).join(''), name).toBe(scenes[name]!.rack_letters);
      if (rack!.distance > 4)
        expect(await readRack(photo, grid, model, [...letters], rack!.distance - 3), name).toBeUndefined();
    }
    // Seat views with no rack in front of the board: none is read off the table or the board's near border.
    for (const name of ['01_45-55deg_vintage', '24_65-75deg_plain']) {
      const photo = await decodeImage(readFileSync(file(name, 'jpg')));
      expect(await readRack(photo, await locateGrid(photo), model, [...letters]), name).toBeUndefined();
    }
    // A photo from above has no rack in front of the board.
    const above = await decodeImage(readFileSync(join(seat, '..', 'photos', 'overhead_green_cream.jpg')));
    expect(await readRack(above, await locateGrid(above), model, [...letters])).toBeUndefined();
  });

  it.skipIf(!existsSync(steep))(
    'sees no rack in real photos taken at an angle, where none stands',
    async () => {
      // Photos whose board's printed letters (the red board's letter table, its SCRABBLE panel) once read as a rack.
      const model = await loadModel();
      for (const id of ['170737', '170750']) {
        const photo = await decodeImage(readFileSync(join(steep, '..', `IMG_20151016_${id}.jpg`)));
        expect(await readRack(photo, await locateGrid(photo), model, [...letters]), id).toBeUndefined();
      }
    },
  );
});
