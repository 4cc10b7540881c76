import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type Board,
  boardFromText,
  emptyBoard,
  formatPosition,
  type Inferred,
  inferMove,
  makeMove,
  type Placement,
  parseBoard,
  place,
  placementsFromNotation,
  splitTwoMoves,
} from './index.ts';

/** Puts plays in GCG notation on a board, in order. */
function boardWith(...plays: string[]): Board {
  let board = emptyBoard();
  for (const play of plays) {
    const p = placementsFromNotation(board, play);
    if (!p.ok) throw new Error(p.message);
    board = place(board, p.placements);
  }
  return board;
}

function expectRejected(result: ReturnType<typeof inferMove>, reason: string, squares?: string[]) {
  expect(result.ok).toBe(false);
  if (result.ok) return;
  expect(result.reason).toBe(reason);
  if (squares)
    expect(result.squares?.map((s) => `${s.row + 1}${'ABCDEFGHIJKLMNO'[s.col]}`).sort()).toEqual(
      squares.sort(),
    );
}

const played = (r: ReturnType<typeof inferMove>): Extract<Inferred, { kind: 'play' }> => {
  if (!r.ok || r.kind !== 'play') throw new Error(`expected a play, got ${JSON.stringify(r)}`);
  return r;
};

describe('inferMove', () => {
  const start = boardWith('8D WINDY');

  it('finds the tiles, direction and position of a play through a letter', () => {
    const after = boardWith('8D WINDY', 'F6 GA.E');
    const { move } = played(inferMove(start, after));
    expect(move.direction).toBe('down');
    expect(move.position).toEqual({ row: 5, col: 5, direction: 'down' });
    expect(move.placements.map((p) => p.tile).join('')).toBe('GAE');
  });

  it('reads a single tile that forms two words, across first', () => {
    const before = boardWith('8D WINDY', 'D8 .O');
    const after = place(before, [{ row: 8, col: 4, tile: 'F' }]); // 9E: OF across, IF down
    const { move } = played(inferMove(before, after));
    expect(move.direction).toBe('across');
    expect(move.words.map((w) => w.squares.map((s) => after.cells[s.row * 15 + s.col]).join(''))).toEqual([
      'OF',
      'IF',
    ]);
  });

  it('rejects a board with no change', () => {
    expectRejected(inferMove(start, start), 'no-change');
  });

  it('rejects tiles in more than one line, naming them', () => {
    const after = place(start, [
      { row: 8, col: 3, tile: 'A' },
      { row: 9, col: 4, tile: 'B' },
    ]);
    expectRejected(inferMove(start, after), 'not-in-line', ['9D', '10E']);
  });

  it('rejects a gap in the line, naming the empty squares', () => {
    const after = place(start, [
      { row: 8, col: 3, tile: 'A' },
      { row: 10, col: 3, tile: 'B' },
    ]);
    expectRejected(inferMove(start, after), 'gap', ['10D']);
  });

  it('rejects tiles not connected to the board', () => {
    const after = place(start, [
      { row: 0, col: 0, tile: 'A' },
      { row: 0, col: 1, tile: 'T' },
    ]);
    expectRejected(inferMove(start, after), 'not-connected', ['1A', '1B']);
  });

  it('rejects a first move that misses the centre', () => {
    expectRejected(inferMove(emptyBoard(), boardWith('7D WINDY')), 'first-move-off-centre');
  });

  it('rejects a first move of one tile', () => {
    const after = place(emptyBoard(), [{ row: 7, col: 7, tile: 'A' }]);
    expectRejected(inferMove(emptyBoard(), after), 'first-move-one-tile', ['8H']);
  });

  it('rejects a tile that changed letter', () => {
    const after = place(start, [{ row: 7, col: 4, tile: 'O' }]);
    expectRejected(inferMove(start, after), 'tile-changed', ['8E']);
  });

  it('rejects a tile removed that was not the last move', () => {
    const after = boardFromText(start.cells.join('').replace('Y', '.').match(/.{15}/g)!);
    expectRejected(inferMove(start, after, { lastMove: [] }), 'tile-removed', ['8H']);
  });

  it('recognises the withdrawal of exactly the last move', () => {
    const before = boardWith('8D WINDY', 'F6 GA.E');
    const last = placementsFromNotation(start, 'F6 GA.E');
    if (!last.ok) throw new Error();
    const r = inferMove(before, start, { lastMove: last.placements });
    expect(r).toMatchObject({ ok: true, kind: 'withdrawal' });
    if (r.ok && r.kind === 'withdrawal') expect(r.next).toBeUndefined();
  });

  it('recognises a withdrawal followed by the next player’s move in the same step', () => {
    const before = boardWith('8D WINDY', 'F6 GA.E');
    const last = placementsFromNotation(start, 'F6 GA.E');
    if (!last.ok) throw new Error();
    const after = boardWith('8D WINDY', 'G5 VEX.');
    const r = inferMove(before, after, { lastMove: last.placements });
    if (!r.ok || r.kind !== 'withdrawal') throw new Error(JSON.stringify(r));
    expect(r.withdrawn).toHaveLength(3);
    expect(r.next?.placements.map((p) => p.tile).join('')).toBe('VEX');
  });

  it('treats a blank read as ? and then named as the same tile', () => {
    const before = boardWith('8D WI?DY');
    const after = boardWith('8D WInDY');
    expectRejected(inferMove(before, after), 'no-change');
    const later = place(after, [{ row: 8, col: 3, tile: 'O' }]);
    const { named } = played(inferMove(before, later));
    expect(named).toEqual([{ row: 7, col: 5, tile: 'n' }]);
  });
});

/** A random legal move on `board`, from a seeded generator; undefined if none was found in a few tries. */
function randomMove(board: Board, rand: () => number): Placement[] | undefined {
  const letters = 'AEIOURSTLNDGBCMPFHVWYKJXQZ';
  const tile = () =>
    rand() < 0.05 ? letters[Math.floor(rand() * 26)]!.toLowerCase() : letters[Math.floor(rand() * 26)]!;
  const filled = board.cells.flatMap((c, i) => (c === '.' ? [] : [i]));
  for (let attempt = 0; attempt < 60; attempt++) {
    const across = rand() < 0.5;
    const len = 1 + Math.floor(rand() * 9);
    let row: number;
    let col: number;
    if (filled.length === 0) {
      row = across ? 7 : 7 - Math.floor(rand() * len);
      col = across ? 7 - Math.floor(rand() * len) : 7;
    } else {
      const anchor = filled[Math.floor(rand() * filled.length)]!;
      const shift = Math.floor(rand() * (len + 1)) - Math.floor(len / 2);
      row = Math.floor(anchor / 15) + (across ? (rand() < 0.5 ? 1 : 0) * (rand() < 0.5 ? -1 : 1) : shift);
      col = (anchor % 15) + (across ? shift : (rand() < 0.5 ? 1 : 0) * (rand() < 0.5 ? -1 : 1));
    }
    const placements: Placement[] = [];
    for (let k = 0; k < len; k++) {
      const r = row + (across ? 0 : k);
      const c = col + (across ? k : 0);
      if (r < 0 || c < 0 || r > 14 || c > 14) break;
      if (board.cells[r * 15 + c] === '.') placements.push({ row: r, col: c, tile: tile() });
    }
    if (placements.length === 0 || placements.length > 7) continue;
    if (makeMove(board, placements).ok) return placements;
  }
  return undefined;
}

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('inferMove, property', () => {
  it('gives back every random legal move from the board before and after it', () => {
    let checked = 0;
    fc.assert(
      fc.property(fc.integer(), fc.integer({ min: 1, max: 25 }), (seed, moves) => {
        const rand = mulberry32(seed);
        let board = emptyBoard();
        for (let m = 0; m < moves; m++) {
          const placements = randomMove(board, rand);
          if (!placements) break;
          const made = makeMove(board, placements);
          if (!made.ok) throw new Error('generator made an illegal move');
          const inferred = inferMove(board, made.after);
          const { move } = played(inferred);
          const key = (p: Placement) => `${p.row},${p.col},${p.tile}`;
          expect(move.placements.map(key).sort()).toEqual(placements.map(key).sort());
          expect(move.direction).toBe(made.move.direction);
          expect(move.position).toEqual(made.move.position);
          board = made.after;
          checked++;
        }
      }),
      { numRuns: 300 },
    );
    expect(checked).toBeGreaterThan(1500); // the generator really produces moves, many per game
  });
});

describe('splitTwoMoves', () => {
  const board = (rows: Record<number, string>) => {
    const parsed = parseBoard(Array.from({ length: 15 }, (_, r) => (rows[r] ?? '').padEnd(15, '.')));
    if (!parsed.ok) throw new Error(parsed.message);
    return parsed.board;
  };
  const orders = (before: Board, after: Board) =>
    splitTwoMoves(before, after).map(({ first, second }) => [
      formatPosition(first.position),
      formatPosition(second.position),
    ]);

  it('finds the one order two moves can have been played in', () => {
    // WINDY on an empty board, then AN under it: AN cannot come first (it is off the centre).
    expect(orders(board({}), board({ 7: '...WINDY', 8: '...AN' }))).toEqual([['8D', '9D']]);
  });

  it('finds both orders when each move stands alone, though a tile of one shares a row with the other', () => {
    const before = board({ 6: '..HORSES' });
    // CAT under HORSES (8D–8F) and AXE down under its last S (SAXE, from 7H): AXE's A is on row 8 too.
    const after = board({ 6: '..HORSES', 7: '...CAT.A', 8: '.......X', 9: '.......E' });
    expect(orders(before, after).sort()).toEqual(
      [
        ['8D', 'H7'],
        ['H7', '8D'],
      ].sort(),
    );
  });

  it('does not split off a single tile: a stray or a misreading is as likely', () => {
    const before = board({ 6: '..HORSE' });
    // CAT and a stray X under its C: no single tile is split off; AT + CX either way round is no one order.
    const found = orders(before, board({ 6: '..HORSE', 7: '...CAT', 8: '...X' }));
    expect(found.every(([a, b]) => a !== '9D' && b !== '9D')).toBe(true);
    expect(found).not.toHaveLength(1);
  });
});
