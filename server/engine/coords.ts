/**
 * GCG coordinates: `8D` = row 8, column D, across; `D8` = column D, row 8, down.
 * Owns parsing and formatting of positions only.
 */
import type { Square } from './result.ts';

export type Direction = 'across' | 'down';

export interface Position extends Square {
  readonly direction: Direction;
}

const COLS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** Column letter of a 0-based column index. */
export function colName(col: number): string {
  return COLS[col] ?? '?';
}

/** Human name of a square in GCG style, row first (`8H`). */
export function squareName(square: Square): string {
  return `${square.row + 1}${colName(square.col)}`;
}

/** Parses `8D` (across) or `D8` (down); old lowercase (`8d`, `d8`) is accepted. `undefined` if malformed. */
export function parsePosition(text: string, size = 15): Position | undefined {
  const across = /^(\d{1,2})([a-zA-Z])$/.exec(text);
  const down = /^([a-zA-Z])(\d{1,2})$/.exec(text);
  const m = across ?? down;
  if (!m) return undefined;
  const [rowText, colText] = across ? [m[1]!, m[2]!] : [m[2]!, m[1]!];
  const row = Number(rowText) - 1;
  const col = COLS.indexOf(colText.toUpperCase());
  if (row < 0 || row >= size || col < 0 || col >= size) return undefined;
  return { row, col, direction: across ? 'across' : 'down' };
}

/** Formats a position in GCG style: `8D` across, `D8` down. */
export function formatPosition(pos: Position): string {
  const row = String(pos.row + 1);
  const col = colName(pos.col);
  return pos.direction === 'across' ? row + col : col + row;
}
