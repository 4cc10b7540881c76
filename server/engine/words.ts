/**
 * Placement geometry: whether tiles put on a board form a legal placement (one line, no gap, connected, first
 * move on the start square), and which words it forms. No scoring and no lexicon here.
 */
import { type Board, EMPTY, type Placement, tileAt } from './board.ts';
import type { Direction } from './coords.ts';
import { type Layout, standardLayout } from './layout.ts';
import type { Failure, Result, Square } from './result.ts';

export type PlacementFailure = Failure<
  | 'no-change'
  | 'occupied'
  | 'not-in-line'
  | 'gap'
  | 'not-connected'
  | 'first-move-off-centre'
  | 'first-move-one-tile'
>;

/** A word on the board: its squares in reading order. */
export interface WordSpan {
  readonly start: Square;
  readonly direction: Direction;
  readonly squares: readonly Square[];
}

const STEP: Record<Direction, readonly [number, number]> = { across: [0, 1], down: [1, 0] };

function filled(board: Board, row: number, col: number): boolean {
  const t = tileAt(board, row, col);
  return t !== undefined && t !== EMPTY;
}

/** The maximal run of tiles through `sq` along `direction` on `board` (which already holds the new tiles). */
export function runThrough(board: Board, sq: Square, direction: Direction): WordSpan {
  const [dr, dc] = STEP[direction];
  let r = sq.row;
  let c = sq.col;
  while (filled(board, r - dr, c - dc)) {
    r -= dr;
    c -= dc;
  }
  const start = { row: r, col: c };
  const squares: Square[] = [];
  while (filled(board, r, c)) {
    squares.push({ row: r, col: c });
    r += dr;
    c += dc;
  }
  return { start, direction, squares };
}

/**
 * Checks that `placements` may be put on `before`: on empty squares, in one line, without a gap, touching the
 * tiles already there (or, on the first move, covering the start square with two tiles or more).
 * The direction of a single tile is the one in which it forms a word (across when it forms two).
 */
export function checkPlacement(
  before: Board,
  placements: readonly Placement[],
  layout: Layout = standardLayout,
): Result<{ direction: Direction }, PlacementFailure> {
  const all = placements.map(({ row, col }) => ({ row, col }));
  if (placements.length === 0) return fail('no-change', 'no tile was placed', []);
  const seen = new Set<number>();
  for (const p of placements) {
    if (filled(before, p.row, p.col) || seen.has(p.row * before.size + p.col)) {
      return fail('occupied', 'a tile was placed on a square that already holds one', [p]);
    }
    seen.add(p.row * before.size + p.col);
  }
  const first = placements[0]!;
  const sameRow = placements.every((p) => p.row === first.row);
  const sameCol = placements.every((p) => p.col === first.col);
  if (!sameRow && !sameCol) return fail('not-in-line', 'the tiles placed are not in one row or column', all);

  const boardEmpty = before.cells.every((c) => c === EMPTY);
  let direction: Direction = sameRow ? 'across' : 'down';
  if (placements.length === 1) {
    const across = hasNeighbour(before, first, 'across');
    direction = across || !hasNeighbour(before, first, 'down') ? 'across' : 'down';
  }

  // No gap: every square between the first and last new tile is new or already filled.
  const [dr, dc] = STEP[direction];
  const key = (s: Square) => (direction === 'across' ? s.col : s.row);
  const sorted = [...placements].sort((a, b) => key(a) - key(b));
  const lo = sorted[0]!;
  const hi = sorted[sorted.length - 1]!;
  const gaps: Square[] = [];
  let touchesOld = false;
  for (let r = lo.row, c = lo.col; r <= hi.row && c <= hi.col; r += dr, c += dc) {
    if (seen.has(r * before.size + c)) continue;
    if (filled(before, r, c)) touchesOld = true;
    else gaps.push({ row: r, col: c });
  }
  if (gaps.length > 0) return fail('gap', 'the tiles placed leave a gap in their line', gaps);

  if (boardEmpty) {
    const [sr, sc] = layout.start;
    if (!placements.some((p) => p.row === sr && p.col === sc)) {
      return fail('first-move-off-centre', 'the first move must cover the centre square', all);
    }
    if (placements.length < 2)
      return fail('first-move-one-tile', 'the first move must place two tiles or more', all);
    return { ok: true, direction };
  }
  if (!touchesOld && !placements.some((p) => touchesFilled(before, p))) {
    return fail('not-connected', 'the tiles placed do not touch any tile on the board', all);
  }
  return { ok: true, direction };
}

/** Words formed by the placements on `after` (the board with them): the main word, then each cross-word. */
export function wordsFormed(
  after: Board,
  placements: readonly Placement[],
  direction: Direction,
): WordSpan[] {
  const first = placements[0];
  if (!first) return [];
  const words: WordSpan[] = [];
  const main = runThrough(after, first, direction);
  if (main.squares.length > 1) words.push(main);
  const cross: Direction = direction === 'across' ? 'down' : 'across';
  for (const p of placements) {
    const w = runThrough(after, p, cross);
    if (w.squares.length > 1) words.push(w);
  }
  return words;
}

function hasNeighbour(board: Board, sq: Square, direction: Direction): boolean {
  const [dr, dc] = STEP[direction];
  return filled(board, sq.row - dr, sq.col - dc) || filled(board, sq.row + dr, sq.col + dc);
}

function touchesFilled(board: Board, sq: Square): boolean {
  return hasNeighbour(board, sq, 'across') || hasNeighbour(board, sq, 'down');
}

function fail(reason: PlacementFailure['reason'], message: string, squares: readonly Square[]) {
  return { ok: false as const, reason, message, squares };
}
