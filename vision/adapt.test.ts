/**
 * Learning the set being played: a square is compared with the game's committed squares by the model's features,
 * and their vote weighs the model's scores. Synthetic features for the rules; a real case from the shared English
 * wooden tiles (a font the model never saw) for the effect.
 */
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { labelledPhotos } from '../server/bench/labelled.ts';
import { TileMemory } from './adapt.ts';
import { Camera } from './camera.ts';
import { type CellModel, readCells, uprightGrid } from './classify.ts';
import { readFrame } from './recognize.ts';

/** A feature near one of a few directions, with some noise. */
function near(direction: number, noise: number, seed: number): Float32Array {
  let s = seed;
  const rand = () => {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    return s / 2 ** 31 - 0.5;
  };
  return Float32Array.from({ length: 16 }, (_, j) => (j === direction ? 1 : 0) + noise * rand());
}

describe('TileMemory', () => {
  const keys = ['.', '?', 'I', 'L', 'T'];

  it('votes for the reading whose examples the square looks like', () => {
    const memory = new TileMemory({ k: 5 });
    for (let n = 0; n < 10; n++) {
      memory.add('I', near(2, 0.2, n + 1), 0);
      memory.add('L', near(3, 0.2, n + 100), 0);
      memory.add('T', near(4, 0.2, n + 200), 0);
      memory.add('.', near(0, 0.2, n + 300), 0);
    }
    const w = memory.weigh(near(2, 0.2, 999), keys)!;
    // Five I's voted: I's factor is (5 + ½) / (5 + ½), the others' ½ / 5½.
    expect(w[2]).toBeCloseTo(1);
    expect(w[3]).toBeCloseTo(0.5 / 5.5);
    expect(w[0]).toBeCloseTo(0.5 / 5.5);
    // No blank has been seen, but empty squares have: blank votes with them.
    expect(w[1]).toBeCloseTo(0.5 / 5.5);
    // A letter the game has no example of is not voted against.
    expect(memory.weigh(near(2, 0.2, 999), [...keys, 'Q'])![5]).toBe(1);
  });

  it('lets empty and blank vote together: which of the two it is, is the colours’ to say', () => {
    const memory = new TileMemory({ k: 3 });
    for (let n = 0; n < 5; n++) {
      memory.add('.', near(0, 0.1, n + 1), 0);
      for (const l of ['I', 'L', 'T']) memory.add(l, near(5 + (l.charCodeAt(0) % 5), 0.1, n + 50), 0);
    }
    const w = memory.weigh(near(0, 0.1, 77), keys)!;
    expect(w[0]).toBeCloseTo(1);
    expect(w[1]).toBeCloseTo(1);
  });

  it('does not vote before it has seen three letters, and forgets examples seen facing another way', () => {
    const memory = new TileMemory();
    memory.add('I', near(2, 0.1, 1), 0);
    memory.add('L', near(3, 0.1, 2), 0);
    expect(memory.weigh(near(2, 0.1, 3), keys)).toBeUndefined();
    memory.add('T', near(4, 0.1, 4), 0);
    expect(memory.weigh(near(2, 0.1, 3), keys)).toBeDefined();
    memory.add('T', near(4, 0.1, 5), 1);
    expect(memory.size).toBe(1);
    expect(memory.turns).toBe(1);
    expect(memory.ready).toBe(false);
  });

  it('keeps the newest examples of each letter up to its limit', () => {
    const memory = new TileMemory({ perLetter: 3, plain: 4 });
    for (let n = 0; n < 10; n++) {
      memory.add('I', near(2, 0.1, n), 0);
      memory.add('.', near(0, 0.1, n), 0);
      memory.add('?', near(0, 0.1, n), 0);
    }
    expect(memory.size).toBe(3 + 4);
  });

  it('keeps a steep view’s squeezed squares apart, where a reading needs every nearest vote to take the lead', () => {
    const memory = new TileMemory({ k: 5 });
    const part = memory.squeezed!;
    expect(part).toBeDefined();
    expect(part.squeezed).toBeUndefined();
    expect(new TileMemory({ squeezed: false }).squeezed).toBeUndefined();
    // Three I's, ten L's and three T's in each; a fourth I in the part.
    for (const m of [memory, part]) {
      for (let n = 0; n < 3; n++) m.add('I', near(2, 0.02, n + 1), 0);
      for (let n = 0; n < 10; n++) m.add('L', near(3, 0.02, n + 100), 0);
      for (let n = 0; n < 3; n++) m.add('T', near(4, 0.02, n + 200), 0);
    }
    part.add('I', near(2, 0.02, 500), 0);
    // Apart: the part's examples are not the memory's.
    expect(memory.size).toBe(16);
    expect(part.size).toBe(17);
    // A square nearer the I's than the L's: of its five nearest, the memory's three I's and two L's, the part's four
    // I's and an L.
    const between = Float32Array.from({ length: 16 }, (_, j) => (j === 2 ? 1 : j === 3 ? 0.5 : 0));
    const forI = (m: TileMemory) => m.weigh(between, keys)![2]!;
    expect(forI(memory)).toBeCloseTo(3.5 / 5.5, 6);
    expect(forI(part)).toBeCloseTo(4.5 / 5.5, 6);
    // A majority is enough for the memory; the squeezed part needs all five.
    expect(memory.backs(forI(memory))).toBe(true);
    expect(part.backs(forI(part))).toBe(false);
    expect(part.backs(1)).toBe(true);
    // Cleared together.
    memory.clear();
    expect(part.size).toBe(0);
  });
});

describe('uprightGrid', () => {
  it('turns a board seen a quarter, a half and three quarters turned back upright', () => {
    const seen = Array.from({ length: 225 }, (_, i) => i);
    const at = (grid: number[], r: number, c: number) => grid[r * 15 + c];
    // Seen a quarter turn clockwise, the upright top-left square is the seen top-right one, and so on round.
    expect(uprightGrid(seen, 0)).toEqual(seen);
    const quarter = uprightGrid(seen, 1);
    expect([at(quarter, 0, 0), at(quarter, 0, 14), at(quarter, 14, 14), at(quarter, 14, 0)]).toEqual([
      14, 224, 210, 0,
    ]);
    expect(at(quarter, 2, 5)).toBe(5 * 15 + 12);
    const half = uprightGrid(seen, 2);
    expect(half).toEqual([...seen].reverse());
    // Three quarter turns undo one.
    expect(uprightGrid(uprightGrid(seen, 1), 3)).toEqual(seen);
    let back = seen;
    for (let k = 0; k < 4; k++) back = uprightGrid(back, 1);
    expect(back).toEqual(seen);
    expect(() => uprightGrid(seen, 4)).toThrow(RangeError);
  });
});

describe('reading with the game’s examples (readCells)', () => {
  const classes = ['.', '?', '#', 'I0', 'L0', 'T0'];
  const model = { classes, size: 32, margin: 0.2, features: 16 } as unknown as CellModel;
  /** 225 cells: cell 0 the model reads L 0.55 / I 0.35, every other cell plainly empty. */
  const probs = () => {
    const p = new Float32Array(225 * classes.length);
    for (let i = 0; i < 225; i++) p[i * classes.length] = 0.995;
    p.set([0.05, 0.02, 0.03, 0.35, 0.55, 0], 0);
    return p;
  };
  const features = (direction: number) => {
    const f = new Float32Array(225 * 16);
    f.set(near(direction, 0.1, 5), 0);
    return f;
  };
  /** A model of `names` and its reading of 225 cells: cell 0 read with `shares`, every other cell plainly empty. */
  const oneSquare = (names: string[], shares: number[]) => {
    const x = { classes: names, size: 32, margin: 0.2, features: 16 } as unknown as CellModel;
    const p = new Float32Array(225 * names.length);
    for (let i = 0; i < 225; i++) p[i * names.length] = 0.995;
    p.set(shares, 0);
    return { x, p };
  };
  const memory = (voters: string[]) => {
    const m = new TileMemory({ k: 5 });
    m.add('T', near(4, 0.1, 1), 0);
    // Three L's: a reading is voted on only with as many examples as a majority of the vote.
    for (const seed of [2, 3, 4]) m.add('L', near(3, 0.1, seed), 0);
    voters.forEach((label, n) => {
      m.add(label, near(2, 0.1, n + 10), 0);
    });
    return m;
  };

  it('reads what most of the nearest examples show, never surer than the model alone is of it', () => {
    const look = { memory: memory(['I', 'I', 'I', 'I', 'I']), features: features(2), size: 16 };
    const alone = readCells(model, probs());
    const taught = readCells(model, probs(), undefined, look);
    expect(alone.chars[0]).toBe('L');
    expect(taught.chars[0]).toBe('I');
    // The model's own share of I: 0.35 of the readings' 1.
    expect(taught.confidence[0]).toBeCloseTo(0.35, 5);
    for (const o of taught.options[0]!) {
      const own = { I: 0.35, L: 0.55, '.': 0.05, '?': 0.02, '#': 0.03, T: 0 }[o.tile]!;
      expect(o.p).toBeLessThanOrEqual(own + 1e-6);
    }
    // Plainly empty squares are left alone.
    expect(taught.chars[1]).toBe('.');
    expect(taught.confidence[1]).toBe(alone.confidence[1]);
  });

  it('weighs a squeezed square by the squeezed part’s examples only, and only where every nearest one agrees', () => {
    const squeezed = new Set([0]);
    const read = (m: TileMemory) =>
      readCells(model, probs(), undefined, { memory: m, features: features(2), size: 16, squeezed }).chars[0];
    // The memory full of I's near the square, its squeezed part empty: the square is not weighed.
    expect(read(memory(['I', 'I', 'I', 'I', 'I']))).toBe('L');
    // The squeezed part: four I's of the five nearest lead elsewhere, not here; all five do.
    const part = (voters: string[]) => {
      const m = new TileMemory({ k: 5 });
      const into = m.squeezed!;
      into.add('T', near(4, 0.1, 1), 0);
      for (const seed of [2, 3, 4]) into.add('L', near(3, 0.1, seed), 0);
      voters.forEach((label, n) => {
        into.add(label, near(2, 0.1, n + 10), 0);
      });
      return m;
    };
    expect(read(part(['I', 'I', 'I', 'I', 'T']))).toBe('L');
    expect(
      readCells(model, probs(), undefined, {
        memory: part(['I', 'I', 'I', 'I', 'T']).squeezed!,
        features: features(2),
        size: 16,
      }).chars[0],
    ).toBe('L');
    expect(read(part(['I', 'I', 'I', 'I', 'I']))).toBe('I');
    // Without a squeezed part, as before: not weighed.
    const none = new TileMemory({ k: 5, squeezed: false });
    for (const seed of [2, 3, 4]) none.add('L', near(3, 0.1, seed), 0);
    none.add('T', near(4, 0.1, 1), 0);
    for (let n = 0; n < 5; n++) none.add('I', near(2, 0.1, n + 10), 0);
    expect(read(none)).toBe('L');
    expect(
      readCells(model, probs(), undefined, { memory: none, features: features(2), size: 16 }).chars[0],
    ).toBe('I');
  });

  it('leaves the model’s reading when the examples do not agree among themselves', () => {
    // Near the square: two I's among five examples: I leads only by the L's being voted down, and that is no
    // majority for I. A third I lies opposite the square, never among its nearest: the game has I's enough to vote
    // on (three, a majority of five), and the vote is what keeps the L.
    const m = memory(['I', 'I', 'T', 'T']);
    m.add(
      'I',
      Float32Array.from({ length: 16 }, (_, j) => (j === 2 ? -1 : 0)),
      0,
    );
    expect(m.knows('I')).toBe(true);
    const look = { memory: m, features: features(2), size: 16 };
    const read = readCells(model, probs(), undefined, look);
    expect(read.chars[0]).toBe('L');
    expect(read.options[0]).toEqual(readCells(model, probs()).options[0]);
  });

  it('never gives the lead to a reading the game has no example of, however the others are voted down', () => {
    // The square's features lie nearest the T's (the game also has an L, an I, empty squares and a blank): L, the
    // model's reading, is voted down to ½ / 5½, and X, of which the game has no example, would lead by its factor of 1. Seen from a seat, a far row's E voted down by the near
    // rows' E's, unlike it, was read so as an L the game had never committed (the rendered seat game's move 2).
    const m = new TileMemory({ k: 5 });
    for (let n = 0; n < 5; n++) {
      m.add('T', near(4, 0.1, n + 1), 0);
      m.add('.', near(0, 0.1, n + 20), 0);
    }
    for (const seed of [40, 43, 44]) m.add('L', near(3, 0.1, seed), 0);
    m.add('?', near(1, 0.1, 41), 0);
    m.add('I', near(5, 0.1, 42), 0);
    // L 0.55, X 0.35: the features lie nearest the T's, so L's factor is ½ / 5½ and X's (no example) 1.
    const { x, p } = oneSquare(['.', '?', '#', 'L0', 'T0', 'X0'], [0.05, 0.02, 0.03, 0.55, 0, 0.35]);
    const look = { memory: m, features: features(4), size: 16 };
    expect(m.weigh(look.features.subarray(0, 16), ['L', 'X'])).toEqual(Float64Array.from([0.5 / 5.5, 1]));
    const read = readCells(x, p, undefined, look);
    expect(read.chars[0]).toBe('L');
    expect(read.options[0]).toEqual(readCells(x, p).options[0]);
  });

  it('neither votes down nor gives the lead to a reading with fewer examples than a majority of the vote', () => {
    // Early in a game: five C's committed, one G. A G looks more like the C's than like the one G (a set's G and C
    // differ by a bar): seven nearest examples are the five C's and two others, so G would be voted down to ½ / 7½
    // and C up to 5½ / 7½, and the model's G read as C (kwwangkw-en from two boards' examples, three such squares).
    const m = new TileMemory();
    for (let n = 0; n < 5; n++) {
      m.add('C', near(2, 0.1, n + 1), 0);
      m.add('.', near(0, 0.1, n + 20), 0);
    }
    m.add('G', near(3, 0.1, 40), 0);
    m.add('T', near(4, 0.1, 41), 0);
    const { x, p } = oneSquare(['.', '?', '#', 'C0', 'G0', 'T0'], [0.03, 0.01, 0.01, 0.3, 0.65, 0]);
    const look = { memory: m, features: features(2), size: 16 };
    expect(m.knows('C')).toBe(true);
    expect(m.knows('G')).toBe(false);
    const w = m.weigh(look.features.subarray(0, 16), ['C', 'G', 'T'])!;
    expect(w[0]).toBeCloseTo(5.5 / 7.5);
    expect(w[1]).toBe(1);
    expect(w[2]).toBe(1);
    expect(readCells(x, p, undefined, look).chars[0]).toBe('G');
    // With four G's (a majority of seven) they are voted on: a square nearest the C's votes its G down.
    for (const seed of [42, 43, 44]) m.add('G', near(3, 0.1, seed), 0);
    expect(m.knows('G')).toBe(true);
    expect(m.weigh(look.features.subarray(0, 16), ['G'])![0]).toBeLessThan(0.5);
  });
});

const wooden = new URL('../../shared/realdata/kwwangkw-en/warped/', import.meta.url);
const present = existsSync(wooden);
const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
/** The labelled boards (labels corrected by models/label-errata.txt), by name. */
const boards = present
  ? new Map([...labelledPhotos(wooden.pathname)].map((b) => [b.file.replace(/\.txt$/, ''), b]))
  : new Map();
const photo = (name: string) => boards.get(name)!.photo;
const label = (name: string) =>
  Array.from({ length: 15 }, (_, r) =>
    boards
      .get(name)!
      .truth.slice(r * 15, r * 15 + 15)
      .join(''),
  );

describe.skipIf(!present)('learning a set the model never saw (kwwangkw-en wooden tiles)', () => {
  it('reads the I the model took for an L as the I’s this camera committed read, and still asks', async () => {
    // w19's square 2A holds an I that the model alone reads as L (in doubt). The warped set is already cut to the
    // grid and straightened: its tiles are read on the board's plane (a lift through a pose has no meaning there).
    const flat = { letters, tileHeight: 0 };
    const alone = (await readFrame(photo('w19'), flat)).reading;
    expect(alone.board[1]![0]).toBe('L');
    expect(alone.unsure).toContainEqual({ row: 1, col: 0 });
    // The same camera's earlier boards, committed as their labels say, teach it this set's tiles.
    const memory = new TileMemory();
    const camera = new Camera({ ...flat, memory });
    let learnt = 0;
    for (const name of ['w11', 'w12', 'w13', 'w15', 'w16', 'w17']) {
      await camera.read(photo(name));
      learnt += camera.learn(label(name));
    }
    expect(learnt).toBeGreaterThan(6 * 200);
    const taught = (await readFrame(photo('w19'), { ...flat, memory })).reading;
    expect(taught.board[1]![0]).toBe('I');
    // The examples chose the I against the model: the square stays in doubt, with I its likeliest reading.
    expect(taught.unsure).toContainEqual({ row: 1, col: 0 });
    expect(taught.alternatives.find((a) => a.row === 1 && a.col === 0)?.options[0]?.tile).toBe('I');
    // Everything else it read as it did alone, or better.
    const truth = label('w19').join('');
    const wrong = (board: readonly string[]) => [...board.join('')].filter((t, i) => t !== truth[i]).length;
    expect(wrong(taught.board)).toBeLessThan(wrong(alone.board));
    // Unlearnt (a correction): the examples are gone, and the next frame's readings are all made again without
    // them, from what the model saw (the pixels did not change: only the guard's few squares are classified again).
    const before = await camera.read(photo('w19'));
    expect(before.board[1]![0]).toBe('I');
    camera.unlearn();
    expect(memory.size).toBe(0);
    const again = await camera.read(photo('w19'));
    expect(again.path).toBe('changed');
    expect(again.cellsRead).toBeLessThan(10);
    expect(again.board).toEqual(alone.board);
    expect(again.board[1]![0]).toBe('L');
    // And the frame after that is the same still frame again.
    expect((await camera.read(photo('w19'))).path).toBe('still');
  });
});

describe.skipIf(!present)('no more blanks than the set has (kwwangkw-en wooden tiles)', () => {
  it('reads the pale empty squares of w16 empty and keeps its two blanks, all in doubt', async () => {
    // w16 has two blank tiles (14D, 14H: read surely) and three pale, worn squares in the top-right corner that the
    // model and the colour check take for blanks too (4N, 5N, 5O).
    const at = (name: string) => {
      const [, col, row] = /^([A-O])(\d+)$/.exec(name)!;
      return { row: Number(row) - 1, col: col!.charCodeAt(0) - 65 };
    };
    const square = (board: readonly string[], name: string) => board[at(name).row]![at(name).col];
    const unlimited = (await readFrame(photo('w16'), { letters })).reading;
    for (const name of ['D14', 'H14', 'N4', 'N5', 'O5']) expect(square(unlimited.board, name)).toBe('?');
    const limited = (await readFrame(photo('w16'), { letters, blanks: 2 })).reading;
    expect(square(limited.board, 'D14')).toBe('?');
    expect(square(limited.board, 'H14')).toBe('?');
    // In doubt too: the game, which knows its committed blanks, says which squares hold the set's two.
    expect(limited.unsure).toContainEqual(at('D14'));
    expect(limited.unsure).toContainEqual(at('H14'));
    for (const name of ['N4', 'N5', 'O5']) {
      expect(square(limited.board, name)).toBe('.');
      expect(limited.unsure).toContainEqual(at(name));
      // The blank stays among the readings offered for a person or the game's context to choose.
      expect(
        limited.alternatives
          .find((a) => a.row === at(name).row && a.col === at(name).col)
          ?.options.map((o) => o.tile),
      ).toContain('?');
    }
    const truth = label('w16').join('');
    const wrong = (board: readonly string[]) => [...board.join('')].filter((t, i) => t !== truth[i]).length;
    expect(wrong(limited.board)).toBe(wrong(unlimited.board) - 3);
  });
});
