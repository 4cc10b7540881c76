/**
 * GCG text to a document: pragmas and move lines in file order, nothing resolved against a board yet.
 * Tolerates old conventions (lowercase coordinates, through-letters spelled out or in parentheses, missing racks,
 * DOS line endings, trailing text); anything else malformed is an error naming the line and what was expected.
 */
import { type Position, parsePosition } from '../coords.ts';
import type { Failure, Result } from '../result.ts';

export interface GcgPlayer {
  readonly nick: string;
  readonly name: string;
}

interface EntryBase {
  /** 1-based line number in the file. */
  readonly line: number;
  readonly nick: string;
  /** The rack before the move, if recorded (`?` for a blank). */
  readonly rack?: string;
  /** The points written for this line (signed). */
  readonly score: number;
  /** The running total written for this player. */
  readonly total: number;
  /** Anything after the total, kept verbatim. */
  readonly trailing?: string;
}

export type GcgEntry = EntryBase &
  (
    | { readonly kind: 'play'; readonly position: Position; readonly word: string }
    | { readonly kind: 'pass' }
    | { readonly kind: 'exchange'; readonly tiles: string }
    | { readonly kind: 'withdraw' }
    | { readonly kind: 'challenge-bonus' }
    | { readonly kind: 'time-penalty' }
    /** `(RACK) +n`: points from an opponent's rack (went out); `(RACK) -n`: own rack deducted. */
    | { readonly kind: 'end-rack'; readonly letters: string }
  );

export type GcgLine =
  /** `#key value`; `text` is the whole line as written, which the writer gives back. */
  | {
      readonly type: 'pragma';
      readonly line: number;
      readonly key: string;
      readonly value: string;
      readonly text: string;
    }
  | { readonly type: 'entry'; readonly entry: GcgEntry }
  | { readonly type: 'text'; readonly line: number; readonly text: string };

export interface GcgDocument {
  readonly players: readonly GcgPlayer[];
  readonly lines: readonly GcgLine[];
}

export type GcgFailure = Failure<'bad-gcg'> & { readonly line: number };

const RACK = /^[\p{L}?]+$/u;
const WORD = /^[\p{L}.()]+$/u;
const SCORE = /^[+-]\d+$/;
const TOTAL = /^-?\d+$/;

/**
 * The most move lines a record may hold. A real game has well under a hundred (the 44 recorded games of the shared
 * corpus: at most 53); a record of more is refused before anything is replayed, so that rescoring one stays cheap.
 */
export const MAX_GCG_MOVES = 1000;

export function readGcg(text: string): Result<{ document: GcgDocument }, GcgFailure> {
  const lines: GcgLine[] = [];
  const players: GcgPlayer[] = [];
  const rows = text.replace(/^\uFEFF/, '').split(/\r?\n|\r/);
  let moves = 0;
  for (const [i, raw] of rows.entries()) {
    const line = i + 1;
    const row = raw.normalize('NFC');
    if (row.startsWith('#')) {
      const m = /^#(\S+)[ \t]?(.*)$/u.exec(row)!;
      const key = m[1]!;
      const value = m[2]!.trim();
      lines.push({ type: 'pragma', line, key, value, text: row.replace(/\r$/, '') });
      const seat = /^player([1-9])$/.exec(key);
      if (seat) {
        const [nick, ...name] = value.split(/\s+/);
        if (!nick) return bad(line, `'#${key}' needs a nickname`);
        if (Number(seat[1]) !== players.length + 1) return bad(line, `'#${key}' is out of order`);
        players.push({ nick, name: name.join(' ') || nick });
      }
    } else if (row.startsWith('>')) {
      if (++moves > MAX_GCG_MOVES)
        return bad(line, `a game record holds at most ${MAX_GCG_MOVES} move lines; this one holds more`);
      const entry = readEntry(row, line);
      if (!entry.ok) return entry;
      lines.push({ type: 'entry', entry: entry.entry });
    } else {
      lines.push({ type: 'text', line, text: row.replace(/\s+$/u, '') });
    }
  }
  while (lines.length > 0 && lines.at(-1)?.type === 'text' && (lines.at(-1) as { text: string }).text === '')
    lines.pop();
  return { ok: true, document: { players, lines } };
}

function readEntry(row: string, line: number): Result<{ entry: GcgEntry }, GcgFailure> {
  const head = /^>([^:\s]+):(.*)$/u.exec(row);
  if (!head) return bad(line, `expected '>nickname: …', got '${row}'`);
  const nick = head[1]!;
  const tokens = head[2]!.trim().split(/\s+/).filter(Boolean);
  // Score, total and trailing text: the first signed number followed by a plain number.
  const at = tokens.findIndex((t, k) => SCORE.test(t) && TOTAL.test(tokens[k + 1] ?? ''));
  if (at < 0) return bad(line, "expected a score and a running total (like '+24 79')");
  const score = Number(tokens[at]);
  const total = Number(tokens[at + 1]);
  const trailing = tokens.slice(at + 2).join(' ') || undefined;
  let move = tokens.slice(0, at);
  let rack: string | undefined;
  const first = move[0];
  if (first !== undefined && RACK.test(first) && (move.length > 1 || !isMoveToken(first))) {
    rack = first;
    move = move.slice(1);
  }
  const base = {
    line,
    nick,
    score,
    total,
    ...(rack === undefined ? {} : { rack }),
    ...(trailing ? { trailing } : {}),
  };
  const [a, b, ...rest] = move;
  if (a === undefined) return bad(line, 'expected a move after the rack');
  if (rest.length > 0) return bad(line, `unexpected '${rest.join(' ')}' after the move`);
  if (b !== undefined) {
    const position = parsePosition(a);
    if (!position) return bad(line, `expected a position like 8D or D8, got '${a}'`);
    if (!WORD.test(b)) return bad(line, `expected a word of letters, '.' or '(…)', got '${b}'`);
    return { ok: true, entry: { ...base, kind: 'play', position, word: b } };
  }
  if (a === '-') return { ok: true, entry: { ...base, kind: 'pass' } };
  if (a === '--') return { ok: true, entry: { ...base, kind: 'withdraw' } };
  if (/^-[\p{L}?]+$/u.test(a) || /^-\d+$/.test(a))
    return { ok: true, entry: { ...base, kind: 'exchange', tiles: a.slice(1) } };
  if (a === '(challenge)') return { ok: true, entry: { ...base, kind: 'challenge-bonus' } };
  if (a === '(time)') return { ok: true, entry: { ...base, kind: 'time-penalty' } };
  const letters = /^\(([\p{L}?]*)\)$/u.exec(a);
  if (letters) return { ok: true, entry: { ...base, kind: 'end-rack', letters: letters[1]! } };
  return bad(
    line,
    `expected a position and word, '-', '-TILES', '--', '(challenge)', '(time)' or '(RACK)', got '${a}'`,
  );
}

function isMoveToken(t: string): boolean {
  return t === '-' || t === '--' || t.startsWith('(') || t.startsWith('-');
}

function bad(line: number, message: string): { ok: false; reason: 'bad-gcg'; line: number; message: string } {
  return { ok: false, reason: 'bad-gcg', line, message: `line ${line}: ${message}` };
}
