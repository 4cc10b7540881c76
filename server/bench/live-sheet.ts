/**
 * The recorded games of ../shared/realdata/scrabscrap-de as `npm run bench:live` plays them: each game's score sheet
 * (game.csv), its players (game.ini) and, per move, the photo taken after it (image-N.jpg) with its label
 * (image-N.txt, board text). See ../shared/realdata/README.md for the format.
 *
 * The sheet's rows become moves:
 * - a row with a word is a play, `-` a pass; Button (green/red, any case) is the player who pressed, i.e. who moved;
 * - a move number repeated on several rows (buttons yellow, doubt0/doubt1) is a challenge of the play before it;
 *   `doubtN` names the challenger (0 green, 1 red: ScrabScrap's player numbers). The play was withdrawn when the
 *   sheet takes its points back (a `--` row, or the challenged player's total falling by the play's points),
 *   otherwise it stood. A challenge row's photo is not used: it shows the board at some moment of the challenge
 *   (game05's is the next move's photo, game06's the board before the tiles were taken back); the next move's
 *   photo shows the board without the withdrawn tiles.
 * - Score1 is green's running total, Score2 red's.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export type Colour = 'green' | 'red';

export interface SheetMove {
  /** The sheet's move number. */
  readonly number: number;
  readonly kind: 'play' | 'pass' | 'challenge';
  /** Who moved (play, pass) or who challenged (challenge). */
  readonly colour: Colour;
  /** A play: its square and word as the sheet writes them (`.` a tile already on the board, `_` a blank). */
  readonly coord?: string;
  readonly word?: string;
  readonly points?: number;
  /** A challenge: the play challenged was taken back. */
  readonly withdrawn?: boolean;
  /** The sheet's running totals after the move. */
  readonly totals: Readonly<Record<Colour, number>>;
  /** A play or pass: the photo of the board after it, and its label (15 rows of board text). */
  readonly photo?: string;
  readonly label?: readonly string[];
  /** Other photos of the same board, taken before `photo`: the camera sees them first. */
  readonly views?: readonly string[];
  /** A play no photo shows (made between two photos): the scorekeeper types it in from its label. */
  readonly typed?: boolean;
}

export interface SheetGame {
  readonly name: string;
  readonly names: Readonly<Record<Colour, string>>;
  /** Who made the sheet's first move: seat 0. */
  readonly first: Colour;
  readonly moves: readonly SheetMove[];
  /** What could not be mapped, in words. */
  readonly notes: readonly string[];
  /** The game's language (default German: the score-sheet games). */
  readonly lang?: 'en' | 'de';
  /** Photos of the empty board, which the camera sees as the players sit down, before the first move. */
  readonly setup?: readonly string[];
}

interface Row {
  move: number;
  button: string;
  coord: string;
  word: string;
  points: number;
  score1: number;
  score2: number;
}

/** The game folders (game01…) under `dir`, in order. */
export function gameFolders(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && /^game\d+$/.test(d.name) && existsSync(join(dir, d.name, 'game.csv')))
    .map((d) => d.name)
    .sort();
}

/** Reads one game folder into its moves. */
export function readGame(dir: string, name: string): SheetGame {
  const folder = join(dir, name);
  const ini = readFileSync(join(folder, 'game.ini'), 'utf8');
  const setting = (key: string) => new RegExp(`^\\s*${key}\\s*=\\s*(.+?)\\s*$`, 'm').exec(ini)?.[1];
  const names = { green: setting('name1') ?? 'Green', red: setting('name2') ?? 'Red' };
  const rows = readCsv(readFileSync(join(folder, 'game.csv'), 'utf8'));
  const notes: string[] = [];

  // Rows of one move number together, in sheet order.
  const groups: Row[][] = [];
  for (const row of rows) {
    const last = groups.at(-1);
    if (last && last[0]!.move === row.move) last.push(row);
    else groups.push([row]);
  }

  const moves: SheetMove[] = [];
  let totals: Record<Colour, number> = { green: 0, red: 0 };
  for (const group of groups) {
    const end = group.at(-1)!;
    const after = { green: end.score1, red: end.score2 };
    const number = group[0]!.move;
    const doubt = group.find((r) => /^doubt[01]$/i.test(r.button));
    if (doubt || group.length > 1) {
      // A challenge of the last play.
      const challenged = [...moves].reverse().find((m) => m.kind !== 'challenge');
      if (challenged?.kind !== 'play') {
        notes.push(`move ${number}: a challenge with no play before it, left out`);
        continue;
      }
      const opponent: Colour = challenged.colour === 'green' ? 'red' : 'green';
      const named = doubt ? (doubt.button.endsWith('0') ? 'green' : 'red') : opponent;
      if (named !== opponent)
        notes.push(`move ${number}: ${doubt!.button} names ${challenged.colour}, the player challenged`);
      const withdrawn =
        group.some((r) => r.coord === '--') ||
        after[challenged.colour] === totals[challenged.colour] - (challenged.points ?? 0);
      moves.push({ number, kind: 'challenge', colour: opponent, withdrawn, totals: after });
      totals = after;
      continue;
    }
    const colour = end.button.toLowerCase();
    if (colour !== 'green' && colour !== 'red') {
      notes.push(`move ${number}: button "${end.button}" is neither green nor red, left out`);
      continue;
    }
    const photo = join(folder, `image-${number}.jpg`);
    const labelFile = join(folder, `image-${number}.txt`);
    if (!existsSync(photo) || !existsSync(labelFile)) {
      notes.push(`move ${number}: no photo or label, left out (its totals are still compared)`);
      continue;
    }
    const label = readLabel(labelFile);
    const base = { number, colour: colour as Colour, totals: after, photo, label };
    if (end.coord === '-' || end.coord === '') moves.push({ ...base, kind: 'pass' });
    else moves.push({ ...base, kind: 'play', coord: end.coord, word: end.word, points: end.points });
    totals = after;
  }
  const first = moves[0]?.colour ?? 'green';
  return { name, names, first, moves, notes };
}

/** A label: 15 rows of 15 squares, NFC (German letters are one character each). */
function readLabel(file: string): string[] {
  const rows = readFileSync(file, 'utf8')
    .normalize('NFC')
    .split(/\r?\n/)
    .map((r) => r.trim())
    .filter((r) => r !== '');
  if (rows.length !== 15 || rows.some((r) => [...r].length !== 15))
    throw new Error(`${file}: a label must be 15 rows of 15 squares`);
  return rows;
}

/** The sheet's rows: `Move, Button, State, Coord, Word, Points, Score1, Score2`, quotes and blanks trimmed. */
function readCsv(text: string): Row[] {
  const rows: Row[] = [];
  for (const line of text.split(/\r?\n/)) {
    if (line.trim() === '' || /^\s*move\b/i.test(line)) continue;
    const f = line.split(',').map((s) => s.trim().replace(/^"(.*)"$/, '$1'));
    if (f.length < 8) throw new Error(`game.csv: a row needs 8 fields: ${line}`);
    const n = (s: string) => (s === '' ? 0 : Number(s));
    rows.push({
      move: n(f[0]!),
      button: f[1]!,
      coord: f[3]!,
      word: f[4]!,
      points: n(f[5]!),
      score1: n(f[6]!),
      score2: n(f[7]!),
    });
  }
  return rows;
}
