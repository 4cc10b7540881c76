/**
 * Move inference: from the board before and the board after, the move that was played — or a typed rejection
 * naming the squares. This is where a camera reading meets the rules: nothing here trusts the reading.
 */
import { type Board, EMPTY, type Placement, place, removeTiles } from './board.ts';
import type { Direction, Position } from './coords.ts';
import { type Layout, standardLayout } from './layout.ts';
import type { Failure, Result, Square } from './result.ts';
import { isBlankTile } from './tilesets.ts';
import { checkPlacement, type PlacementFailure, runThrough, type WordSpan, wordsFormed } from './words.ts';

/** A legal placement of tiles: where, in which direction, and the words it forms (main word first). */
export interface Move {
  readonly placements: readonly Placement[];
  readonly direction: Direction;
  /** First square of the main word, as GCG writes it. */
  readonly position: Position;
  readonly words: readonly WordSpan[];
}

export type Inferred =
  | { readonly kind: 'play'; readonly move: Move; readonly named: readonly Placement[] }
  /** Exactly the tiles of the last move disappeared (a phony taken back), possibly followed by the next move. */
  | {
      readonly kind: 'withdrawal';
      readonly withdrawn: readonly Placement[];
      readonly next?: Move;
      readonly named: readonly Placement[];
    };

export type InferFailure = PlacementFailure | Failure<'tile-changed' | 'tile-removed' | 'size-mismatch'>;

export interface InferOptions {
  readonly layout?: Layout;
  /** Tiles of the last move committed, to recognise its withdrawal. */
  readonly lastMove?: readonly Placement[];
}

/** Builds the move for placements on `before`, or says why they are not a legal placement. */
export function makeMove(
  before: Board,
  placements: readonly Placement[],
  layout: Layout = standardLayout,
): Result<{ move: Move; after: Board }, PlacementFailure> {
  const check = checkPlacement(before, placements, layout);
  if (!check.ok) return check;
  const after = place(before, placements);
  const words = wordsFormed(after, placements, check.direction);
  const main = runThrough(after, placements[0]!, check.direction);
  const position: Position = { ...main.start, direction: check.direction };
  return { ok: true, move: { placements, direction: check.direction, position, words }, after };
}

/** The move that turns `before` into `after`. */
export function inferMove(
  before: Board,
  after: Board,
  options: InferOptions = {},
): Result<Inferred, InferFailure> {
  if (before.size !== after.size) {
    return { ok: false, reason: 'size-mismatch', message: 'the boards are not the same size' };
  }
  const layout = options.layout ?? standardLayout;
  const added: Placement[] = [];
  const removed: Placement[] = [];
  const changed: Square[] = [];
  const named: Placement[] = [];
  for (let i = 0; i < before.cells.length; i++) {
    const was = before.cells[i]!;
    const now = after.cells[i]!;
    if (was === now) continue;
    const row = Math.floor(i / before.size);
    const col = i % before.size;
    if (was === EMPTY) added.push({ row, col, tile: now });
    else if (now === EMPTY) removed.push({ row, col, tile: was });
    else if (isBlankTile(was) && isBlankTile(now)) {
      // The same blank seen again: `?` → letter names it; a named blank read as `?` keeps its letter.
      if (was === '?') named.push({ row, col, tile: now });
    } else changed.push({ row, col });
  }
  if (changed.length > 0) {
    return {
      ok: false,
      reason: 'tile-changed',
      message: 'a tile already on the board changed letter',
      squares: changed,
    };
  }
  if (removed.length > 0) {
    if (!sameTiles(removed, options.lastMove)) {
      return {
        ok: false,
        reason: 'tile-removed',
        message: 'a tile already on the board was removed',
        squares: removed,
      };
    }
    if (added.length === 0) return { ok: true, kind: 'withdrawal', withdrawn: removed, named };
    const made = makeMove(removeTiles(before, removed), added, layout);
    if (!made.ok) return made;
    return { ok: true, kind: 'withdrawal', withdrawn: removed, next: made.move, named };
  }
  if (added.length === 0)
    return { ok: false, reason: 'no-change', message: 'no tile was placed', squares: [] };
  const made = makeMove(before, added, layout);
  if (!made.ok) return made;
  return { ok: true, kind: 'play', move: made.move, named };
}

function sameTiles(removed: readonly Placement[], last: readonly Placement[] | undefined): boolean {
  if (!last || last.length !== removed.length) return false;
  return removed.every((r) =>
    last.some(
      (l) =>
        l.row === r.row &&
        l.col === r.col &&
        (l.tile === r.tile || (isBlankTile(l.tile) && isBlankTile(r.tile))),
    ),
  );
}

/**
 * Two moves in one reading (a player forgot to end the turn): every way the tiles added since `before` split into
 * a first legal move and a second one legal after it. Each move must place two tiles or more: a single tile more
 * is as likely a stray or a misreading as a move, and is not split off. Any run of the added tiles along a row or
 * a column is tried as the first move. Empty when the tiles are one move, or no such pair. Pure; the tiles already
 * on `before` must be unchanged on `after`.
 */
export function splitTwoMoves(
  before: Board,
  after: Board,
  layout: Layout = standardLayout,
): { first: Move; second: Move }[] {
  const added: Placement[] = [];
  for (let i = 0; i < before.cells.length; i++) {
    if (before.cells[i] === after.cells[i]) continue;
    if (before.cells[i] !== EMPTY || after.cells[i] === EMPTY) return [];
    added.push({ row: Math.floor(i / before.size), col: i % before.size, tile: after.cells[i]! });
  }
  if (added.length < 4) return [];
  const lines = new Map<string, Placement[]>();
  for (const p of added) {
    for (const key of [`r${p.row}`, `c${p.col}`]) lines.set(key, [...(lines.get(key) ?? []), p]);
  }
  const seen = new Set<string>();
  const out: { first: Move; second: Move }[] = [];
  for (const [key, line] of lines) {
    const sorted = [...line].sort((a, b) => (key[0] === 'r' ? a.col - b.col : a.row - b.row));
    for (let from = 0; from < sorted.length; from++) {
      for (let to = from + 2; to <= sorted.length; to++) {
        const group = sorted.slice(from, to);
        const rest = added.filter((p) => !group.includes(p));
        const id = group.map((p) => `${p.row},${p.col}`).join(' ');
        if (rest.length < 2 || seen.has(id)) continue;
        seen.add(id);
        const first = makeMove(before, group, layout);
        if (!first.ok) continue;
        const second = makeMove(first.after, rest, layout);
        if (second.ok) out.push({ first: first.move, second: second.move });
      }
    }
  }
  return out;
}
