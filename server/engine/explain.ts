/**
 * Where each point of a play comes from, in a form one can point at across a table: every word formed, each
 * letter's value, each premium square used (and each one already covered by an older tile, so not counted), blanks
 * at 0, the bingo bonus, the total, and one sentence per word. Given a claimed score, the likeliest cause of a
 * difference, when one common slip explains it exactly (a premium counted under an old tile, a cross-word left out,
 * a blank scored as its letter, a bingo missed…). Pure arithmetic over the engine's own scoring.
 */
import { type Board, EMPTY, emptyBoard, type Placement, place, removeTiles, tileAt } from './board.ts';
import { type Direction, formatPosition, type Position, parsePosition, squareName } from './coords.ts';
import type { GameState } from './game.ts';
import { type Move, makeMove } from './infer.ts';
import { type Premium, premiumAt } from './layout.ts';
import type { Failure, Result, Square } from './result.ts';
import type { GameRules } from './rules.ts';
import { type PlayScore, scorePlay } from './score.ts';
import { isBlankTile, tileValue } from './tilesets.ts';

/** A premium square by its usual name: double/triple letter, double/triple word. */
export type PremiumName = 'DL' | 'TL' | 'DW' | 'TW';

export interface ExplainedLetter extends Square {
  readonly tile: string;
  /** Face value; 0 for a blank. */
  readonly value: number;
  /** The premium counted for this letter: only under a tile placed this turn. */
  readonly premium: PremiumName | null;
  /** A premium under a tile from an earlier turn: already used, not counted again. */
  readonly covered: PremiumName | null;
  readonly placed: boolean;
}

export interface ExplainedWord {
  readonly word: string;
  readonly start: Square;
  readonly direction: Direction;
  /** The word along the move's line; the others are cross-words. */
  readonly main: boolean;
  readonly letters: readonly ExplainedLetter[];
  readonly wordMultiplier: number;
  readonly score: number;
  /** `QUIZ: Q 10 + U 1 + I 1 × 2 (double letter 9I) + Z 10 = 23, × 3 (triple word 8O) = 69`. */
  readonly sentence: string;
}

export interface Explanation {
  readonly move: {
    /** GCG position of the main word's first square: `8H` across, `H8` down. */
    readonly position: string;
    readonly direction: Direction;
    readonly tiles: readonly Placement[];
  };
  readonly words: readonly ExplainedWord[];
  readonly bingo: number;
  readonly points: number;
  /** The total as a sentence: `QUIZ 69 + ZA 22 + bingo 50 = 141`. */
  readonly sentence: string;
}

/** A common slip that turns the right score into the claimed one. */
export interface Cause {
  readonly code:
    | 'premium-under-old-tile'
    | 'premium-missed'
    | 'multiplier-twice'
    | 'cross-word-missed'
    | 'main-word-missed'
    | 'word-counted-twice'
    | 'blank-as-letter'
    | 'bingo-missed'
    | 'bingo-added'
    | 'multiplier-on-cross-word';
  /** What the claim would be with this slip. */
  readonly points: number;
  readonly message: string;
}

const PREMIUM_WORDS: Record<PremiumName, string> = {
  DL: 'double letter',
  TL: 'triple letter',
  DW: 'double word',
  TW: 'triple word',
};

/** The name of a square's premium, or null for a plain square. */
export function premiumName(premium: Premium): PremiumName | null {
  if (premium.word === 3) return 'TW';
  if (premium.word === 2) return 'DW';
  if (premium.letter === 3) return 'TL';
  if (premium.letter === 2) return 'DL';
  return null;
}

const factor = (name: PremiumName): number => (name[0] === 'T' ? 3 : 2);
const isWordPremium = (name: PremiumName | null): boolean => name === 'DW' || name === 'TW';

/** Explains a legal move, already on `after`. */
export function explainMove(after: Board, move: Move, rules: GameRules): Explanation {
  const play = scorePlay(after, move.placements, move.direction, rules);
  return explainScore(move, play, rules);
}

function explainScore(move: Move, play: PlayScore, rules: GameRules): Explanation {
  const words = play.words.map((w, k): ExplainedWord => {
    const letters = w.letters.map((l): ExplainedLetter => {
      const name = premiumName(premiumAt(rules.layout, l.row, l.col));
      return {
        row: l.row,
        col: l.col,
        tile: l.tile,
        value: l.value,
        premium: l.placed ? name : null,
        covered: l.placed ? null : name,
        placed: l.placed,
      };
    });
    const main = k === 0 && w.direction === move.direction;
    const explained = {
      word: w.word,
      start: w.start,
      direction: w.direction,
      main,
      letters,
      wordMultiplier: w.wordMultiplier,
      score: w.score,
    };
    return { ...explained, sentence: wordSentence(explained) };
  });
  const parts = words.map((w) => `${w.word} ${w.score}`);
  if (play.bingo > 0) parts.push(`bingo ${play.bingo}`);
  const sentence = parts.length > 1 ? `${parts.join(' + ')} = ${play.score}` : `${play.score}`;
  return {
    move: {
      position: formatPosition(move.position),
      direction: move.direction,
      tiles: move.placements.map((p) => ({ row: p.row, col: p.col, tile: p.tile })),
    },
    words,
    bingo: play.bingo,
    points: play.score,
    sentence,
  };
}

function wordSentence(w: Omit<ExplainedWord, 'sentence'>): string {
  const terms = w.letters.map((l) => {
    const letter = isBlankTile(l.tile) ? `${l.tile} 0 (blank)` : `${l.tile} ${l.value}`;
    if (l.premium && !isWordPremium(l.premium))
      return `${letter} × ${factor(l.premium)} (${PREMIUM_WORDS[l.premium]} ${squareName(l)})`;
    if (l.covered) return `${letter} (${PREMIUM_WORDS[l.covered]} ${squareName(l)} used before)`;
    return letter;
  });
  const sum = w.letters.reduce(
    (s, l) => s + l.value * (l.premium && !isWordPremium(l.premium) ? factor(l.premium) : 1),
    0,
  );
  let text = `${w.word}: ${terms.join(' + ')} = ${sum}`;
  for (const l of w.letters) {
    if (l.premium && isWordPremium(l.premium))
      text += `, × ${factor(l.premium)} (${PREMIUM_WORDS[l.premium]} ${squareName(l)})`;
  }
  if (w.wordMultiplier > 1) text += ` = ${w.score}`;
  return text;
}

/**
 * The slips that turn the right score into `claimed`, likeliest first; empty when the claim is right or no single
 * slip explains it.
 */
export function diagnose(explanation: Explanation, claimed: number, rules: GameRules): Cause[] {
  const right = explanation.points;
  if (claimed === right) return [];
  const causes: Cause[] = [];
  const offer = (code: Cause['code'], points: number, message: string) => {
    if (points === claimed && !causes.some((c) => c.message === message))
      causes.push({ code, points, message });
  };
  const words = explanation.words;
  const mainWord = words.find((w) => w.main);
  for (const w of words) {
    for (const l of w.letters) {
      const at = squareName(l);
      if (l.covered) {
        const m = factor(l.covered);
        const extra = isWordPremium(l.covered) ? w.score * (m - 1) : l.value * (m - 1) * w.wordMultiplier;
        offer(
          'premium-under-old-tile',
          right + extra,
          `the ${PREMIUM_WORDS[l.covered]} at ${at} was counted again under the ${l.tile} already on the board (in ${w.word}); a premium counts only in the turn a tile is placed on it`,
        );
      }
      if (l.premium) {
        const m = factor(l.premium);
        const word = isWordPremium(l.premium);
        const missing = word ? w.score - w.score / m : l.value * (m - 1) * w.wordMultiplier;
        offer(
          'premium-missed',
          right - missing,
          `the ${PREMIUM_WORDS[l.premium]} at ${at} (under the new ${l.tile}) was not counted in ${w.word}`,
        );
        const twice = word ? w.score * (m - 1) : l.value * m * (m - 1) * w.wordMultiplier;
        offer(
          'multiplier-twice',
          right + twice,
          `the ${PREMIUM_WORDS[l.premium]} at ${at} was applied twice in ${w.word}`,
        );
      }
    }
    if (!w.main)
      offer('cross-word-missed', right - w.score, `the cross-word ${w.word} (${w.score}) was left out`);
    offer('word-counted-twice', right + w.score, `${w.word} (${w.score}) was counted twice`);
  }
  // Leaving out the main word is rarer than a cross-word: weighed after them.
  if (mainWord && words.length > 1)
    offer(
      'main-word-missed',
      right - mainWord.score,
      `the main word ${mainWord.word} (${mainWord.score}) was left out`,
    );
  // A blank scored as the letter it stands for, in every word it is part of.
  const blanks = new Map<string, { tile: string; gain: number; square: Square }>();
  for (const w of words) {
    for (const l of w.letters) {
      if (!isBlankTile(l.tile) || l.tile === '?') continue;
      const value = tileValue(rules.tileSet, l.tile.toUpperCase()) ?? 0;
      const letterFactor = l.premium && !isWordPremium(l.premium) ? factor(l.premium) : 1;
      const key = squareName(l);
      const seen = blanks.get(key) ?? { tile: l.tile, gain: 0, square: l };
      seen.gain += value * letterFactor * w.wordMultiplier;
      blanks.set(key, seen);
    }
  }
  for (const [key, b] of blanks) {
    offer(
      'blank-as-letter',
      right + b.gain,
      `the blank at ${key} was scored as ${b.tile.toUpperCase()} (${b.gain} more); a blank is worth 0`,
    );
  }
  if (explanation.bingo > 0)
    offer('bingo-missed', right - explanation.bingo, `the bingo bonus of ${explanation.bingo} was left out`);
  else
    offer(
      'bingo-added',
      right + rules.bingo.bonus,
      `a bingo bonus of ${rules.bingo.bonus} was added, but only ${explanation.move.tiles.length} tiles were played (${rules.bingo.minTiles} make a bingo)`,
    );
  if (mainWord && mainWord.wordMultiplier > 1) {
    for (const w of words) {
      if (w.main || w.wordMultiplier > 1) continue;
      offer(
        'multiplier-on-cross-word',
        right + w.score * (mainWord.wordMultiplier - 1),
        `the main word's × ${mainWord.wordMultiplier} was applied to the cross-word ${w.word}, which does not touch the premium`,
      );
    }
  }
  // The order of likelihood: the slips players and directors argue about most come first.
  return causes.sort((a, b) => LIKELIHOOD.indexOf(a.code) - LIKELIHOOD.indexOf(b.code));
}

const LIKELIHOOD: readonly Cause['code'][] = [
  'premium-under-old-tile',
  'cross-word-missed',
  'blank-as-letter',
  'main-word-missed',
  'bingo-missed',
  'bingo-added',
  'multiplier-on-cross-word',
  'premium-missed',
  'word-counted-twice',
  'multiplier-twice',
];

/** The board just after turn `index` of a game: every play up to it placed, every withdrawal taken back. */
export function boardAfterTurn(state: GameState, index: number): Board {
  let board = emptyBoard(state.rules.layout);
  for (const turn of state.turns.slice(0, index + 1)) {
    if (turn.kind === 'play' && turn.move) board = place(board, turn.move.placements);
    const withdrawn = turn.withdraws === undefined ? undefined : state.turns[turn.withdraws]?.move;
    if (turn.kind === 'withdraw' && withdrawn) board = removeTiles(board, withdrawn.placements);
  }
  return board;
}

/** Turn `index` of a game explained, or why it cannot be (no such turn, not a play). */
export function explainTurn(
  state: GameState,
  index: number,
): Result<{ explanation: Explanation; before: Board; after: Board }, Failure<'no-turn' | 'not-a-play'>> {
  const turn = state.turns[index];
  if (!turn)
    return {
      ok: false,
      reason: 'no-turn',
      message: `the game has ${state.turns.length} turns; there is no turn ${index}`,
    };
  if (turn.kind !== 'play' || !turn.move)
    return {
      ok: false,
      reason: 'not-a-play',
      message: `turn ${index} is a ${turn.kind}, not a play: it has no words to explain`,
    };
  const after = boardAfterTurn(state, index);
  const before = removeTiles(after, turn.move.placements);
  return { ok: true, explanation: explainMove(after, turn.move, state.rules), before, after };
}

/** The squares of the tiles on `board`, for the checks below. */
function tileSquares(board: Board): Square[] {
  const out: Square[] = [];
  for (let i = 0; i < board.cells.length; i++)
    if (board.cells[i] !== EMPTY) out.push({ row: Math.floor(i / board.size), col: i % board.size });
  return out;
}

/** Whether the tiles on `board` could stand after a legal game: none, or one group covering the start square. */
export function couldStand(board: Board, rules: GameRules): boolean {
  const tiles = tileSquares(board);
  if (tiles.length === 0) return true;
  const [sr, sc] = rules.layout.start;
  if (tileAt(board, sr, sc) === EMPTY) return false;
  const seen = new Set<number>([sr * board.size + sc]);
  const queue: Square[] = [{ row: sr, col: sc }];
  while (queue.length > 0) {
    const { row, col } = queue.pop()!;
    for (const [dr, dc] of [
      [1, 0],
      [-1, 0],
      [0, 1],
      [0, -1],
    ] as const) {
      const r = row + dr;
      const c = col + dc;
      const t = tileAt(board, r, c);
      if (t === undefined || t === EMPTY || seen.has(r * board.size + c)) continue;
      seen.add(r * board.size + c);
      queue.push({ row: r, col: c });
    }
  }
  return seen.size === tiles.length;
}

/** A move as a player announces it: `QI H7`, `H7 QI 22`, `8D (Q)I`, `8D .I` (tiles already there marked). */
export interface Announced {
  readonly position: Position;
  /** The word's letters; lowercase a blank. */
  readonly word: string;
  /** Squares of the word marked as already on the board; null when the announcement marks none. */
  readonly marked: readonly boolean[] | null;
  readonly points: number | null;
}

export function parseAnnounced(
  text: string,
  size = 15,
): Result<{ announced: Announced }, Failure<'bad-move'>> {
  const bad = (message: string) => ({ ok: false as const, reason: 'bad-move' as const, message });
  const parts = text.trim().split(/\s+/).filter(Boolean);
  if (parts.length < 2 || parts.length > 3)
    return bad(`'${text}': write a move as a word and its square, e.g. "QI H7" or "H7 QI 22"`);
  let points: number | null = null;
  if (parts.length === 3) {
    const last = parts.pop()!;
    if (!/^\d{1,4}$/.test(last)) return bad(`'${last}' is not a score`);
    points = Number(last);
  }
  const [a, b] = parts as [string, string];
  const posA = parsePosition(a, size);
  const posB = parsePosition(b, size);
  const position = posA ?? posB;
  const wordText = posA ? b : a;
  if (!position) return bad(`neither '${a}' nor '${b}' is a square such as 8H (across) or H8 (down)`);
  const letters: string[] = [];
  const marked: boolean[] = [];
  let inParens = false;
  let anyMark = false;
  for (const ch of wordText) {
    if (ch === '(') {
      if (inParens) return bad(`'${wordText}': unbalanced parentheses`);
      // A word typed all in lowercase (a phone's keyboard) is the word, not a row of blanks; mixed case marks blanks.
      if (
        letters.every((l) => l === EMPTY || l === l.toLowerCase()) &&
        letters.some((l) => l !== l.toUpperCase())
      )
        letters.forEach((l, k) => {
          letters[k] = l.toUpperCase();
        });
      inParens = true;
      anyMark = true;
    } else if (ch === ')') {
      if (!inParens) return bad(`'${wordText}': unbalanced parentheses`);
      inParens = false;
    } else if (ch === '.') {
      letters.push(EMPTY);
      marked.push(true);
      anyMark = true;
    } else if (/^\p{L}$/u.test(ch)) {
      letters.push(ch);
      marked.push(inParens);
    } else return bad(`'${wordText}': '${ch}' is not a letter`);
  }
  if (inParens) return bad(`'${wordText}': unbalanced parentheses`);
  if (letters.length < 2) return bad(`'${wordText}': a word has two letters or more`);
  return {
    ok: true,
    announced: { position, word: letters.join(''), marked: anyMark ? marked : null, points },
  };
}

export interface AnnouncedFailure extends Failure<'off-board' | 'not-on-board' | 'ambiguous' | 'illegal'> {
  /** Ambiguous: each reading of the announcement, explained. */
  readonly options?: readonly Explanation[];
}

/**
 * Checks an announced move against the board after it and explains it. Which of the word's tiles were placed this
 * turn is what the announcement marks; unmarked, every reading of it that leaves a board that could have stood
 * before and makes a legal move is tried: one gives the move, several are `ambiguous` (each explained), unless the
 * announced points pick exactly one.
 */
export function explainAnnounced(
  after: Board,
  announced: Announced,
  rules: GameRules,
): Result<
  {
    explanation: Explanation;
    before: Board;
    /** When the announced points chose between readings of which tiles were new: the others. */
    otherwise: readonly Explanation[];
  },
  AnnouncedFailure
> {
  const { position, word } = announced;
  const [dr, dc] = position.direction === 'across' ? [0, 1] : [1, 0];
  const squares: Square[] = [...word].map((_, k) => ({
    row: position.row + dr * k,
    col: position.col + dc * k,
  }));
  if (squares.some((s) => s.row >= after.size || s.col >= after.size))
    return {
      ok: false,
      reason: 'off-board',
      message: `${word} at ${formatPosition(position)} runs off the board`,
    };
  const differ = squares.filter((s, k) => {
    const want = word[k]!;
    const have = tileAt(after, s.row, s.col)!;
    if (want === EMPTY) return have === EMPTY;
    return !sameTile(want, have);
  });
  if (differ.length > 0)
    return {
      ok: false,
      reason: 'not-on-board',
      message: `the board does not show ${word} at ${formatPosition(position)}: ${differ
        .map((s) => `${squareName(s)} shows ${describe(tileAt(after, s.row, s.col)!)}`)
        .join(', ')}`,
      squares: differ,
    };
  // Which squares of the word are new: as marked, or every subset that could be.
  const candidates: boolean[][] = announced.marked
    ? [announced.marked.map((m) => !m)]
    : subsets(squares.length).filter((isNew) => {
        // At least one tile, at most a rack's worth.
        const placed = isNew.filter(Boolean).length;
        return placed > 0 && placed <= rules.rackSize;
      });
  const options: { explanation: Explanation; before: Board }[] = [];
  let lastProblem = '';
  for (const isNew of candidates) {
    const placements: Placement[] = [];
    const before = { size: after.size, cells: after.cells.slice() };
    squares.forEach((s, k) => {
      if (!isNew[k]) return;
      // The board's reading names a blank only as `?`: the announced letter names it.
      const have = tileAt(after, s.row, s.col)!;
      placements.push({ ...s, tile: have === '?' && word[k] !== '?' ? word[k]!.toLowerCase() : have });
      before.cells[s.row * after.size + s.col] = EMPTY;
    });
    if (!couldStand(before, rules)) {
      lastProblem = `without the new tiles the board's tiles would not all join the centre`;
      continue;
    }
    const made = makeMove(before, placements, rules.layout);
    if (!made.ok) {
      lastProblem = made.message;
      continue;
    }
    // The announced word must be one the move forms (not part of a longer run).
    const formed = made.move.words.some(
      (w) =>
        w.direction === position.direction &&
        w.start.row === position.row &&
        w.start.col === position.col &&
        w.squares.length === squares.length,
    );
    if (!formed) {
      lastProblem = `the word on the board runs on past ${word}`;
      continue;
    }
    options.push({ explanation: explainMove(made.after, made.move, rules), before });
  }
  if (options.length === 0)
    return {
      ok: false,
      reason: 'illegal',
      message: `${word} at ${formatPosition(position)}: ${lastProblem}`,
    };
  if (options.length === 1) return { ok: true, ...options[0]!, otherwise: [] };
  const byPoints =
    announced.points === null ? [] : options.filter((o) => o.explanation.points === announced.points);
  // The announced points pick the reading: the result says what the others would have scored.
  if (byPoints.length === 1)
    return {
      ok: true,
      ...byPoints[0]!,
      otherwise: options.filter((o) => o !== byPoints[0]).map((o) => o.explanation),
    };
  // Each reading as the announcement would be written with the tiles already there marked: FI(N)NEN. Those that
  // score the points announced first, then the rest by most tiles placed (a move crosses a tile or two, rarely more).
  const marked = (o: (typeof options)[number]) =>
    [...word]
      .map((letter, k) => {
        const s = squares[k]!;
        return o.before.cells[s.row * after.size + s.col] === EMPTY ? letter : `(${letter})`;
      })
      .join('')
      .replaceAll(')(', '');
  const ranked = [...options].sort(
    (a, b) =>
      Number(b.explanation.points === announced.points) - Number(a.explanation.points === announced.points) ||
      b.explanation.move.tiles.length - a.explanation.move.tiles.length,
  );
  const shown = ranked.slice(0, 4).map((o) => `${marked(o)} scores ${o.explanation.points}`);
  const more = ranked.length > 4 ? ` (and ${ranked.length - 4} more)` : '';
  const why =
    byPoints.length > 1
      ? `${byPoints.length} readings score the ${announced.points} announced`
      : 'the photo cannot tell which tiles were already on the board';
  return {
    ok: false,
    reason: 'ambiguous',
    message: `${word} at ${formatPosition(position)}: ${why}. Mark the tiles that were already there, as in ${marked(ranked[0]!)}: ${shown.join('; ')}${more}`,
    options: options.map((o) => o.explanation),
  };
}

/** An announced letter matches the board's tile; a player need not say a tile is a blank, the board shows it. */
function sameTile(announced: string, onBoard: string): boolean {
  if (onBoard === '?') return true; // a blank read from a photo: it stands for any letter
  if (isBlankTile(announced) && !isBlankTile(onBoard)) return false;
  return announced.toUpperCase() === onBoard.toUpperCase();
}

function describe(tile: string): string {
  if (tile === EMPTY) return 'no tile';
  return isBlankTile(tile) ? `a blank (${tile})` : tile;
}

function subsets(n: number): boolean[][] {
  const out: boolean[][] = [];
  for (let mask = 0; mask < 1 << n; mask++) out.push([...Array(n)].map((_, k) => ((mask >> k) & 1) === 1));
  return out;
}
