/**
 * What a camera frame means for a game: the one place that decides it, for the classic game and Scrabble Me alike.
 * The reader is right on 99.97% of real squares; what a table feels is how the game decides whether to trust a
 * reading. So the reading is taken with everything the game knows:
 *
 * 1. Committed squares are facts. A square an earlier move filled is not read into doubt again: it keeps its tile
 *    whatever the reading. A committed square read confidently as something else is reported as disturbed (the
 *    scorekeeper may look), and never holds the move on other squares. The one exception: the last move's tiles
 *    read confidently as gone (a challenged play taken back).
 * 2. The new move is read in context. For each doubtful new square the model's few likeliest readings are
 *    weighed together: a combination must make one legal placement (one line, contiguous, connected, the centre
 *    first) and must not put more tiles of a kind on the board than the set has; the words it forms that the
 *    game's lexicon does not know weigh less, by the list's own weight (a fifth; a twentieth for the default
 *    English list, which holds nearly every word played: server/lexicon); a word with a blank is known when a letter
 *    in the blank makes it one. It weighs, it never refuses: a phony read surely stands, the players' to challenge.
 *    A move whose tiles the player's rack, as a camera at their place saw it this turn, cannot have held weighs less.
 *    The likeliest combination is taken when it carries at least `COMMIT_SHARE` of the weight of all legal ones and
 *    the model gave each of its readings at least `MIN_TAKEN`; otherwise the squares where the best two differ (or,
 *    for a faint reading, every square weighed) stay in doubt.
 * 3. A square mostly covered by a hand is not read at all: the move waits, with the reason "hand in view".
 *
 * Pure: the reading, the committed board and the rules in; the board to decide on out.
 */
import {
  type Board,
  inferMove,
  type Layout,
  type Lexicon,
  overdrawnBy,
  type Placement,
  type Square,
  type TileSet,
  wordsFormed,
} from '../../engine/index.ts';
import type { Decision } from '../../protocol/index.ts';

/** One reading of a square and the model's share for it (`#`: a hand over it). */
export interface Option {
  readonly tile: string;
  readonly p: number;
}

/** What the camera read, as the vision reports it. */
export interface Reading {
  readonly board: Board;
  readonly unsure: readonly Square[];
  /** Tiles that look like letters of another tile set (vision's BoardReading.foreign). */
  readonly foreign?: readonly { readonly row: number; readonly col: number; readonly letter: string }[];
  readonly alternatives: readonly {
    readonly row: number;
    readonly col: number;
    readonly options: readonly Option[];
  }[];
}

export interface Context {
  /** The board as the game holds it. */
  readonly committed: Board;
  readonly layout: Layout;
  readonly tileSet: TileSet;
  /** The last move's tiles: read as gone, they are a challenged play taken back. */
  readonly lastMove?: readonly Placement[] | undefined;
  /** Breaks ties between readings; absent, the model's shares alone decide. A word it does not know weighs
   *  `unknownWeight` as much as one it knows (UNKNOWN_WORD when it says not: server/lexicon's ReadingLexicon). */
  readonly lexicon?: (Lexicon & { readonly unknownWeight?: number }) | undefined;
  /** Other boards whose tiles come out of the same bag (Scrabble Me), for the tile counts. */
  readonly alsoCounted?: readonly Board[] | undefined;
  /** The rack of the player to move, as a camera at their place saw it this turn: the move's tiles come from it. */
  readonly rack?: RackSeen | undefined;
}

/**
 * A rack as a camera saw it: per tile seen, the letters it may be (one when read surely; its readings when not), and
 * how many tiles it held that were not seen (a blank, which is not read; a tile hidden): those may be any.
 */
export interface RackSeen {
  readonly tiles: readonly (readonly string[])[];
  readonly unseen: number;
}

/** A doubtful square the context decided: the tile taken, the readings weighed, the share the one taken carries. */
export type Resolution = NonNullable<Decision['squares']>[number];

export interface Interpretation {
  /** The board to decide on: committed squares as committed, doubtful new squares as the context decided. */
  readonly board: Board;
  /** Squares still in doubt: the move waits for the scorekeeper. */
  readonly doubts: readonly Square[];
  /** A hand seems to be over the board where it matters. */
  readonly hand: boolean;
  /** Doubtful squares decided by the context (an empty list when the reading was certain). */
  readonly resolved: readonly Resolution[];
  /** Committed squares read confidently as something else: the board may have been disturbed. */
  readonly disturbed: readonly Square[];
}

/** Readings under this share are not weighed. */
export const MIN_OPTION = 0.03;
/**
 * A reading alone on its square (no other reading of 3% or more) is trusted from these shares; under them the
 * square stays in doubt. A tile from 0.7, where bench:calibrate found the likeliest reading never wrong; an empty
 * square from 0.25 (the rest is a shadow's or a hand's share, and a tile there would have to be read as one).
 */
export const MIN_TRUST_TILE = 0.7;
export const MIN_TRUST_EMPTY = 0.25;
/** A square whose hand share reaches this is covered by a hand, when it lies in a hand's region (`handSquares`). */
export const HAND_SHARE = 0.3;
/** A hand's region: squares with at least this hand share, touching each other (corners included)… */
const HAND_REACH = 0.15;
/** …at least this many of them, one on the board's edge (an arm comes in from outside the board). The model's hand
 *  share also rises on single squares it finds odd (a far square seen edge-on, a blurred one): 40 of 83 real
 *  photos with no hand in them had such a square, almost all of them alone or in pairs, 5 in a run along the far
 *  edge; the one real hand in scrabscrap-de covers 22. */
const HAND_SQUARES = 3;
/** …and a block of 2×2 squares with at least this hand share: a hand or an arm covers squares in both directions.
 *  The model's hand share also rises along lines of squares it finds odd: the diagonal's pink premium squares seen at
 *  an angle, a row of the grid lying over the board's border, the far edge of a dim photo. On the real photos
 *  (scrabscrap-de, jheidel-en, kwwangkw-en) it took the photos read with a hand from 32 to 8, the one real hand
 *  among them kept (docs/measurements.md, "A hand is a block"). */
const HAND_CORE = 0.5;
/** A square read mostly as a hand, alone, is empty when it reads empty this share of the rest (oddButEmpty). */
const ODD_EMPTY = 0.8;
/** A word the lexicon does not know weighs this much as one it knows, unless the lexicon says otherwise (the
 *  default English list: 0.05, server/lexicon). */
export const UNKNOWN_WORD = 0.2;
/**
 * A move whose tiles the rack seen this turn cannot have held weighs this much as one it could. The rack is read
 * from the foreground, blurred, and may be wrong: of the tiles `npm run bench:racks` reads on the rendered seat
 * views, about one in sixteen is, one in sixty read surely; and a tile read unsure may be any of its readings, one
 * not seen any letter. So a move off the rack is not refused, only weighed down. It is strong enough to decide a
 * square the model reads as either of two letters alike (0.45 against 0.45 becomes 0.91): a rack tile misread surely
 * as the other letter would then decide it wrongly. Such a square is reported as decided by the context (`resolved`),
 * marked on the scorekeeper's board, not silent.
 */
export const OFF_RACK = 0.1;
/** The likeliest legal combination is taken when it carries this share of all their weight. */
export const COMMIT_SHARE = 0.75;
/**
 * …and when the model gave each of its readings at least this share: the context chooses among the model's readings,
 * it does not make one up. Where the others make no word or no legal move, a reading the model all but ruled out
 * could carry the weight alone (a far T read empty 0.45, hand 0.25, I 0.04: the empty square left a gap in the word,
 * the T was not among the readings, and the I was taken). `npm run bench:context`, the corpus's plays read with the
 * seat renders' own doubts: 32 moves taken wrong of 1,821 read with a square in doubt, 26 with this floor, for 13
 * more held (0.1: 20 wrong, 42 more held).
 */
export const MIN_TAKEN = 0.05;
/**
 * More combinations than this are not weighed (each is a move inference, about 9 µs: 1,024 cost ~9 ms of the main
 * thread, 4^7 cost 140 ms): their squares stay in doubt.
 */
const MAX_COMBINATIONS = 1024;
const EMPTY = '.';
const BLANK = '?';

export function interpret(reading: Reading, ctx: Context): Interpretation {
  const size = ctx.committed.size;
  const cells = reading.board.cells.slice();
  const committed = ctx.committed.cells;
  const unsure = new Set(reading.unsure.map((s) => s.row * size + s.col));
  const options = new Map(reading.alternatives.map((a) => [a.row * size + a.col, a.options]));
  const last = new Set((ctx.lastMove ?? []).map((p) => p.row * size + p.col));
  const at = (i: number): Square => ({ row: Math.floor(i / size), col: i % size });

  // 1. Committed squares are facts.
  const disturbed: Square[] = [];
  for (let i = 0; i < cells.length; i++) {
    // A blank the game has named (a lowercase letter) is read as what the camera sees: a blank tile.
    const blank = cells[i] === BLANK && committed[i] !== committed[i]!.toUpperCase();
    if (committed[i] === EMPTY || cells[i] === committed[i]) continue;
    const withdrawn = last.has(i) && cells[i] === EMPTY && !unsure.has(i);
    if (withdrawn) continue;
    if (!unsure.has(i) && !blank) disturbed.push(at(i));
    cells[i] = committed[i]!;
  }

  // 2. The doubtful new squares: unsure, empty before, and a tile now or next to one.
  const filled = (i: number) => cells[i] !== EMPTY;
  const nextToTile = (i: number) => {
    const { row, col } = at(i);
    return (
      (row > 0 && filled(i - size)) ||
      (row < size - 1 && filled(i + size)) ||
      (col > 0 && filled(i - 1)) ||
      (col < size - 1 && filled(i + 1))
    );
  };
  const doubtful = [...unsure]
    .filter((i) => committed[i] === EMPTY && (filled(i) || nextToTile(i)))
    .sort((a, b) => a - b);
  const region = handSquares(reading, size);
  const hand = doubtful.filter((i) => region.has(i));
  if (hand.length > 0) {
    // What shows between fingers changes frame to frame: a square under a hand is taken as it was.
    for (const i of hand) cells[i] = committed[i]!;
    return done(cells, hand.map(at), true, [], disturbed, size);
  }

  // Off the line the move's sure new tiles lie on, a new tile makes no legal move: a square that reads empty among
  // its readings (the model's hand share aside) is empty there. The combinations below would weigh most of them so,
  // but only up to MAX_COMBINATIONS of them, and not a square read empty too faintly to weigh: seen from a seat, a
  // dozen empty squares beside the tiles can be unsure at once.
  const onLine = moveLine(cells, committed, new Set(doubtful), size);
  const candidates = new Map<number, Option[]>();
  const weak: number[] = [];
  const alone: Resolution[] = [];
  for (const i of doubtful) {
    const all = options.get(i) ?? [{ tile: cells[i]!, p: 0 }];
    if (oddButEmpty(all)) {
      cells[i] = EMPTY;
      continue;
    }
    const seen: Option[] = [];
    for (const o of all) {
      if (o.tile === '#' || seen.some((s) => s.tile === o.tile)) continue;
      if (o.p >= MIN_OPTION || seen.length === 0) seen.push(o);
      if (seen.length === 4) break;
    }
    const only = seen[0];
    if (onLine && !onLine(i) && seen.some((o) => o.tile === EMPTY)) {
      cells[i] = EMPTY;
      continue;
    }
    if (seen.length > 1) candidates.set(i, seen);
    else if (!only || only.p < (only.tile === EMPTY ? MIN_TRUST_EMPTY : MIN_TRUST_TILE)) weak.push(i);
    // A tile taken although the square was unsure is said, like any the context decides.
    else if (only.tile !== EMPTY) alone.push({ ...at(i), tile: only.tile, options: seen, share: 1 });
  }
  if (weak.length > 0) return done(cells, weak.map(at), false, [], disturbed, size);
  const varying = [...candidates.keys()];
  if (varying.length === 0) return done(cells, [], false, alone, disturbed, size);
  const combinations = varying.reduce((n, i) => n * candidates.get(i)!.length, 1);
  if (combinations > MAX_COMBINATIONS) return done(cells, varying.map(at), false, [], disturbed, size);

  // Every combination of the varying squares' readings, weighed.
  const scored: { choice: number[]; weight: number }[] = [];
  const words = new Map<string, boolean>();
  const choice = varying.map(() => 0);
  for (;;) {
    const trial = cells.slice();
    let weight = 1;
    varying.forEach((i, k) => {
      const o = candidates.get(i)![choice[k]!]!;
      trial[i] = o.tile;
      weight *= o.p;
    });
    const factor = plausibility({ size, cells: trial }, ctx, words);
    if (factor > 0) scored.push({ choice: [...choice], weight: weight * factor });
    // Next combination (odometer).
    let k = 0;
    while (k < varying.length && ++choice[k]! >= candidates.get(varying[k]!)!.length) choice[k++] = 0;
    if (k === varying.length) break;
  }
  const total = scored.reduce((sum, s) => sum + s.weight, 0);
  if (total === 0) return done(cells, varying.map(at), false, [], disturbed, size);
  scored.sort((a, b) => b.weight - a.weight);
  const best = scored[0]!;
  const share = best.weight / total;
  if (share < COMMIT_SHARE) {
    const second = scored[1];
    const differ = varying.filter((_, k) => !second || second.choice[k] !== best.choice[k]);
    return done(cells, differ.map(at), false, [], disturbed, size);
  }
  // Nor a reading the model gave next to nothing, however the others fail: a guess from the faint tail. The move
  // waits, every varying square in doubt (the others' readings were the best combination's, not taken either).
  if (varying.some((i, k) => candidates.get(i)![best.choice[k]!]!.p < MIN_TAKEN))
    return done(cells, varying.map(at), false, [], disturbed, size);
  const resolved: Resolution[] = varying.map((i, k) => {
    const opts = candidates.get(i)!;
    const tile = opts[best.choice[k]!]!.tile;
    cells[i] = tile;
    return { ...at(i), tile, options: opts, share: Math.round(share * 1000) / 1000 };
  });
  return done(cells, [], false, [...alone, ...resolved], disturbed, size);
}

/**
 * A square the model reads mostly as a hand, with no hand's region around it (handSquares), that reads empty at
 * least ODD_EMPTY of the rest: the model finds it odd, it shows no tile. Seen from a seat, an empty square beside a
 * tile (its side and shadow, a pale tile face close to skin) reads so: in the rendered seat game, such squares held
 * 18 of 25 moves, each of them read empty 0.8 of the rest or more. A tile there reads as its letter for some of it.
 */
function oddButEmpty(options: readonly Option[]): boolean {
  const hand = options.find((o) => o.tile === '#')?.p ?? 0;
  if (hand < HAND_SHARE) return false;
  const rest = options.reduce((sum, o) => sum + (o.tile === '#' ? 0 : o.p), 0);
  const empty = options.find((o) => o.tile === EMPTY)?.p ?? 0;
  return rest > 0 && empty / rest >= ODD_EMPTY;
}

/**
 * Where the move's new tiles read surely (`cells` against `committed`, the doubtful squares left out) lie: whether a
 * square is on their line (their row, or their column; with one tile, either). Undefined when no new tile reads
 * surely, or they lie on no one line (no legal move: the reading is held whatever the doubtful squares hold).
 */
function moveLine(
  cells: readonly string[],
  committed: readonly string[],
  doubtful: ReadonlySet<number>,
  size: number,
): ((i: number) => boolean) | undefined {
  const rows = new Set<number>();
  const cols = new Set<number>();
  for (let i = 0; i < cells.length; i++)
    if (committed[i] === EMPTY && cells[i] !== EMPTY && !doubtful.has(i)) {
      rows.add(Math.floor(i / size));
      cols.add(i % size);
    }
  const [row] = rows;
  const [col] = cols;
  if (row === undefined || col === undefined) return undefined;
  if (rows.size === 1 && cols.size === 1) return (i) => Math.floor(i / size) === row || i % size === col;
  if (rows.size === 1) return (i) => Math.floor(i / size) === row;
  if (cols.size === 1) return (i) => i % size === col;
  return undefined;
}

/** A square's hand share (`#`), from the reading's alternatives (0 for a square read surely). */
function handShares(reading: Reading, size: number): Float64Array {
  const share = new Float64Array(size * size);
  for (const a of reading.alternatives)
    share[a.row * size + a.col] = a.options.find((o) => o.tile === '#')?.p ?? 0;
  return share;
}

/**
 * The squares a hand seems to cover: those with a hand share of at least HAND_SHARE in a region of squares with at
 * least HAND_REACH, touching (corners included), HAND_SQUARES or more, one of them on the board's edge, and 2×2 of
 * them with at least HAND_CORE.
 */
export function handSquares(reading: Reading, size: number): Set<number> {
  const share = handShares(reading, size);
  const out = new Set<number>();
  const seen = new Set<number>();
  for (let start = 0; start < share.length; start++) {
    if (share[start]! < HAND_SHARE || seen.has(start)) continue;
    const region: number[] = [];
    const stack = [start];
    seen.add(start);
    while (stack.length > 0) {
      const i = stack.pop()!;
      region.push(i);
      const [row, col] = [Math.floor(i / size), i % size];
      for (let dr = -1; dr <= 1; dr++)
        for (let dc = -1; dc <= 1; dc++) {
          const [r, c] = [row + dr, col + dc];
          const j = r * size + c;
          if (r < 0 || c < 0 || r >= size || c >= size || seen.has(j) || share[j]! < HAND_REACH) continue;
          seen.add(j);
          stack.push(j);
        }
    }
    const edge = region.some((i) => {
      const [row, col] = [Math.floor(i / size), i % size];
      return row === 0 || col === 0 || row === size - 1 || col === size - 1;
    });
    if (region.length >= HAND_SQUARES && edge && hasBlock(region, share, size))
      for (const i of region) if (share[i]! >= HAND_SHARE) out.add(i);
  }
  return out;
}

/** Whether `region` holds 2×2 squares that each have a hand share of at least HAND_CORE. */
function hasBlock(region: readonly number[], share: Float64Array, size: number): boolean {
  const inRegion = new Set(region);
  const core = (i: number) => inRegion.has(i) && share[i]! >= HAND_CORE;
  return region.some(
    (i) => i % size < size - 1 && core(i) && core(i + 1) && core(i + size) && core(i + size + 1),
  );
}

/** Whether `board` shows a tile that `committed` does not have, or a doubt on a square read as a tile. */
export function newTiles(committed: Board, board: Board, doubts: readonly Square[]): boolean {
  return (
    board.cells.some((c, i) => committed.cells[i] === EMPTY && c !== EMPTY) ||
    doubts.some((d) => board.cells[d.row * board.size + d.col] !== EMPTY)
  );
}

/**
 * How plausible a whole board is as the committed board plus one move: 0 when it is no legal placement or puts
 * more tiles of a kind out than the set has, otherwise 1 less a share for each word the lexicon does not know (with
 * no letter in its blanks: `known`). `words`: the answers so far, for the combinations of one reading.
 */
function plausibility(board: Board, ctx: Context, words: Map<string, boolean>): number {
  const inferred = inferMove(ctx.committed, board, {
    layout: ctx.layout,
    ...(ctx.lastMove ? { lastMove: ctx.lastMove } : {}),
  });
  if (!inferred.ok) return inferred.reason === 'no-change' ? 1 : 0;
  const move = inferred.kind === 'play' ? inferred.move : inferred.next;
  if (!move) return 1;
  const boards = ctx.alsoCounted ? [board, ...ctx.alsoCounted] : board;
  if (overdrawnBy(ctx.tileSet, boards, move.placements).length > 0) return 0;
  let factor = ctx.rack && !fromRack(move.placements, ctx.rack) ? OFF_RACK : 1;
  if (!ctx.lexicon) return factor;
  for (const span of wordsFormed(board, move.placements, move.direction)) {
    const word = span.squares.map((s) => board.cells[s.row * board.size + s.col]).join('');
    if (!known(word, ctx.lexicon, ctx.tileSet, words)) factor *= ctx.lexicon.unknownWeight ?? UNKNOWN_WORD;
  }
  return factor;
}

/**
 * Whether the lexicon knows `word`; one with blanks not yet named (`?`) when some letters of the set make it a word
 * it knows (CRAA?ED as CRAALED). Answers are kept in `seen` (the same words come back in combination after
 * combination; a word with two blanks asks up to 676 times). Each word's blanks are filled on their own: a blank in
 * two words may be known as one letter in one and another in the other (naming the blank, decide.ts, is joint).
 */
function known(word: string, lexicon: Lexicon, set: TileSet, seen: Map<string, boolean>): boolean {
  let answer = seen.get(word);
  if (answer === undefined) {
    const at = word.indexOf(BLANK);
    // More blanks than the set has (a board the scorekeeper confirmed so): not weighed, as a word with a blank was
    // before, rather than asked 26 times per blank more.
    answer =
      [...word].filter((c) => c === BLANK).length > set.blanks
        ? true
        : at < 0
          ? lexicon.has(word)
          : set.letters.some(([letter]) =>
              known(word.slice(0, at) + letter + word.slice(at + 1), lexicon, set, seen),
            );
    seen.set(word, answer);
  }
  return answer;
}

/**
 * Whether the tiles placed can all have come from `rack`: each to a tile of it that may be that letter (a blank, `?`
 * or a named one, only to a tile not seen), no two to one.
 */
export function fromRack(placements: readonly Placement[], rack: RackSeen): boolean {
  const tiles = placements.map((p) => (p.tile === p.tile.toUpperCase() && p.tile !== BLANK ? p.tile : BLANK));
  if (tiles.length > rack.tiles.length + rack.unseen) return false;
  const used = rack.tiles.map(() => false);
  let free = rack.unseen;
  const place = (k: number): boolean => {
    if (k === tiles.length) return true;
    const tile = tiles[k]!;
    if (tile !== BLANK) {
      for (let j = 0; j < rack.tiles.length; j++) {
        if (used[j] || !rack.tiles[j]!.includes(tile)) continue;
        used[j] = true;
        if (place(k + 1)) return true;
        used[j] = false;
      }
    }
    if (free > 0) {
      free--;
      if (place(k + 1)) return true;
      free++;
    }
    return false;
  };
  return place(0);
}

function done(
  cells: string[],
  doubts: Square[],
  hand: boolean,
  resolved: Resolution[],
  disturbed: Square[],
  size: number,
): Interpretation {
  return { board: { size, cells }, doubts, hand, resolved, disturbed };
}

/**
 * Before the first move, a square read with letters at MAYBE_TILE or more may hold a tile the context only took
 * as empty (one tile of a first word not yet on the centre star): `?` there, so that the camera does not keep it
 * empty. Its pixels would stay, and the word, once whole, would be read without it.
 */
const MAYBE_TILE = 0.3;

export function maybeTiles(board: Board, alternatives: Reading['alternatives']): Board {
  const cells = board.cells.slice();
  for (const { row, col, options } of alternatives) {
    const letters = options.reduce((sum, o) => (o.tile === EMPTY || o.tile === '#' ? sum : sum + o.p), 0);
    if (letters >= MAYBE_TILE) cells[row * board.size + col] = '?';
  }
  return { ...board, cells };
}
