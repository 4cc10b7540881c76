/**
 * Checks the rules data files in `data/` (format in `data/README.md`) once, when the engine loads them, and
 * turns them into typed values. Pure: it is handed parsed JSON and never reads a file itself.
 * A malformed file is a broken install, not a player's mistake: it throws, naming the file and the field.
 */
import type { Layout } from './layout.ts';
import type { LetterSpec, TileSet } from './tilesets.ts';

/** A data file that does not follow its format. `file` is relative to `server/engine/data/`. */
export class DataFileError extends Error {
  constructor(
    readonly file: string,
    readonly field: string,
    problem: string,
  ) {
    super(`server/engine/data/${file}: ${field} ${problem}`);
    this.name = 'DataFileError';
  }
}

/** tilecam reads 15×15 boards only: the vision's grid and the board text assume it. */
const BOARD_SIZE = 15;
const PREMIUM_CODES = new Set('.dDtT');

type Fields = Readonly<Record<string, unknown>>;

function shown(value: unknown): string {
  return value === undefined ? 'nothing' : JSON.stringify(value);
}

/** The small vocabulary both checkers are written in: each returns the value typed, or throws for `file`. */
function reader(file: string) {
  const fail = (field: string, problem: string): never => {
    throw new DataFileError(file, field, problem);
  };
  const object = (value: unknown, field: string): Fields =>
    typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Fields)
      : fail(field, `must be an object, got ${shown(value)}`);
  const array = (value: unknown, field: string): readonly unknown[] =>
    Array.isArray(value) ? value : fail(field, `must be an array, got ${shown(value)}`);
  const text = (value: unknown, field: string): string =>
    typeof value === 'string' && value !== ''
      ? value
      : fail(field, `must be a non-empty string, got ${shown(value)}`);
  const integer = (value: unknown, field: string, min: number): number =>
    Number.isInteger(value) && (value as number) >= min
      ? (value as number)
      : fail(field, `must be an integer ≥ ${min}, got ${shown(value)}`);
  return { fail, object, array, text, integer };
}

/** Every reader finds a set or a layout by its file name, so the id inside must be that name. */
function idOfFile(id: string, file: string, fail: (field: string, problem: string) => never): string {
  const base = file.slice(file.lastIndexOf('/') + 1).replace(/\.json$/, '');
  return id === base ? id : fail('id', `must be the file's name, ${shown(base)}, got ${shown(id)}`);
}

/**
 * A tile set from its parsed JSON. Letters must be single uppercase characters (lowercase means a blank in board
 * text, `?` an unnamed blank), each listed once, with a positive count and a non-negative value; every vowel must
 * be one of the letters.
 */
export function checkTileSet(json: unknown, file: string): TileSet {
  const { fail, object, array, text, integer } = reader(file);
  const data = object(json, 'the file');
  const id = idOfFile(text(data.id, 'id'), file, fail);
  const name = text(data.name, 'name');
  const blanks = integer(data.blanks, 'blanks', 0);
  const letters: LetterSpec[] = [];
  const seen = new Set<string>();
  array(data.letters, 'letters').forEach((entry, i) => {
    const spec = array(entry, `letters[${i}]`);
    if (spec.length !== 3) fail(`letters[${i}]`, `must be [letter, count, value], got ${shown(entry)}`);
    const letter = text(spec[0], `letters[${i}][0] (letter)`);
    if ([...letter].length !== 1 || letter !== letter.toUpperCase() || letter === '?')
      fail(
        `letters[${i}][0] (letter)`,
        `must be one uppercase character other than "?", got ${shown(letter)}`,
      );
    if (seen.has(letter)) fail(`letters[${i}][0] (letter)`, `repeats ${shown(letter)}`);
    seen.add(letter);
    const count = integer(spec[1], `letters[${i}][1] (count of ${letter})`, 1);
    const value = integer(spec[2], `letters[${i}][2] (value of ${letter})`, 0);
    letters.push([letter, count, value]);
  });
  if (letters.length === 0) fail('letters', 'must list at least one letter');
  const vowels = text(data.vowels, 'vowels');
  for (const vowel of vowels)
    if (!seen.has(vowel)) fail('vowels', `holds ${shown(vowel)}, which is not one of the set's letters`);
  return { id, name, blanks, letters, vowels };
}

/** A board layout from its parsed JSON: 15 rows of 15 premium codes (`.dDtT`) and a start square on the board. */
export function checkLayout(json: unknown, file: string): Layout {
  const { fail, object, array, text, integer } = reader(file);
  const data = object(json, 'the file');
  const id = idOfFile(text(data.id, 'id'), file, fail);
  const size = integer(data.size, 'size', 1);
  if (size !== BOARD_SIZE)
    fail('size', `must be ${BOARD_SIZE} (tilecam reads 15×15 boards only), got ${size}`);
  const rows = array(data.rows, 'rows').map((row, r) => {
    const line = text(row, `rows[${r}]`);
    if (line.length !== size) fail(`rows[${r}]`, `must have ${size} squares, got ${line.length}`);
    for (const [c, code] of [...line].entries())
      if (!PREMIUM_CODES.has(code)) fail(`rows[${r}][${c}]`, `must be one of . d D t T, got ${shown(code)}`);
    return line;
  });
  if (rows.length !== size) fail('rows', `must hold ${size} rows, got ${rows.length}`);
  const start = array(data.start, 'start');
  if (start.length !== 2) fail('start', `must be [row, col], got ${shown(data.start)}`);
  const row = integer(start[0], 'start[0] (row)', 0);
  const col = integer(start[1], 'start[1] (col)', 0);
  if (row >= size || col >= size)
    fail('start', `must be a square on the ${size}×${size} board, got ${shown(start)}`);
  return { id, size, rows, start: [row, col] };
}
