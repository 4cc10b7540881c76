/**
 * The board: a square grid of tiles, immutable, in the board-text contract of docs/design.md.
 * `.` empty, an uppercase letter a tile, `?` a blank of unknown letter, a lowercase letter a blank played as it.
 * Owns the representation and its text form; knows nothing of rules or scores.
 */
import { type Layout, standardLayout } from './layout.ts';
import type { Failure, Result, Square } from './result.ts';

export const EMPTY = '.';

export interface Board {
  readonly size: number;
  /** Row-major, `size * size` one-character strings. */
  readonly cells: readonly string[];
}

/** A tile put on a square in a move. `tile` is in board-text form (lowercase or `?` = blank). */
export interface Placement extends Square {
  readonly tile: string;
}

export function emptyBoard(layout: Layout = standardLayout): Board {
  return { size: layout.size, cells: new Array<string>(layout.size * layout.size).fill(EMPTY) };
}

export function tileAt(board: Board, row: number, col: number): string | undefined {
  if (row < 0 || col < 0 || row >= board.size || col >= board.size) return undefined;
  return board.cells[row * board.size + col];
}

export function isEmptyBoard(board: Board): boolean {
  return board.cells.every((c) => c === EMPTY);
}

/** A new board with the placements put on it (later placements win on the same square). */
export function place(board: Board, placements: readonly Placement[]): Board {
  const cells = board.cells.slice();
  for (const p of placements) cells[p.row * board.size + p.col] = p.tile;
  return { size: board.size, cells };
}

/** A new board with the given squares emptied. */
export function removeTiles(board: Board, squares: readonly Square[]): Board {
  const cells = board.cells.slice();
  for (const s of squares) cells[s.row * board.size + s.col] = EMPTY;
  return { size: board.size, cells };
}

/** Board text: one string per row. */
export function formatBoard(board: Board): string[] {
  const rows: string[] = [];
  for (let r = 0; r < board.size; r++)
    rows.push(board.cells.slice(r * board.size, (r + 1) * board.size).join(''));
  return rows;
}

const TILE = /^[\p{Lu}\p{Ll}?.]$/u;

/**
 * Parses board text (a string with newlines, or one string per row). Surrounding blank lines and trailing
 * whitespace are ignored; anything else that is not `size` rows of `size` tiles is an error naming the row.
 */
export function parseBoard(
  text: string | readonly string[],
  size = 15,
): Result<{ board: Board }, Failure<'bad-board-text'>> {
  const rows = (typeof text === 'string' ? text.split(/\r?\n/) : [...text]).map((r) =>
    r.replace(/\s+$/u, ''),
  );
  while (rows.length > 0 && rows[rows.length - 1] === '') rows.pop();
  while (rows.length > 0 && rows[0] === '') rows.shift();
  const fail = (message: string) => ({ ok: false as const, reason: 'bad-board-text' as const, message });
  if (rows.length !== size) return fail(`expected ${size} rows, got ${rows.length}`);
  const cells: string[] = [];
  for (const [i, row] of rows.entries()) {
    const chars = [...row.normalize('NFC')];
    if (chars.length !== size) return fail(`row ${i + 1}: expected ${size} squares, got ${chars.length}`);
    for (const [j, ch] of chars.entries()) {
      if (!TILE.test(ch)) return fail(`row ${i + 1}, column ${j + 1}: '${ch}' is not a tile, '.' or '?'`);
      cells.push(ch);
    }
  }
  return { ok: true, board: { size, cells } };
}

/** Shorthand for tests and fixtures: parses or throws. */
export function boardFromText(text: string | readonly string[], size = 15): Board {
  const parsed = parseBoard(text, size);
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.board;
}
