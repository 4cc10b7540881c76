/**
 * Settling a disputed score from photos: the board before and after a move (or after it and the move as the player
 * announced it) in, the move found and every point explained out, with the verdict on the claimed score. The same
 * rules as a live game read a photo by: the board before is a fact where it was read with certainty, the new tiles
 * are read in context (interpret.ts), and anything the photos cannot settle is said, never guessed: the verdict is
 * then `unsure`, naming the squares and what each reading would score.
 */
import {
  type Board,
  EMPTY,
  explainAnnounced,
  explainMove,
  formatBoard,
  formatPosition,
  type GameRules,
  inferMove,
  type Lexicon,
  makeRules,
  parseAnnounced,
  type Square,
  splitTwoMoves,
  squareName,
  type Variant,
} from '../../engine/index.ts';
import type { UnsureSquare, Verification } from '../../protocol/index.ts';
import { ServiceError } from '../errors.ts';
import { foreignNote } from '../game/foreign.ts';
import { readFrame } from '../game/frames.ts';
import {
  COMMIT_SHARE,
  handSquares,
  interpret,
  MIN_OPTION,
  type Option,
  type Reading,
} from '../game/interpret.ts';
import { unsettled, verdictOf } from './verdict.ts';

export { unsettled, verdictOf };

export interface VerifyOptions {
  readonly lang: 'en' | 'de';
  readonly variant?: Variant | undefined;
  readonly claimed?: number | null | undefined;
  /** Breaks ties between readings of a doubtful new square, as in a live game. */
  readonly lexicon?: Lexicon | undefined;
}

/** A photo read: the board and what the model was unsure of. */
export type Read = Reading;
export type PhotoReader = (bytes: Uint8Array, lang: 'en' | 'de') => Promise<Read>;

/** Reads a photo as the service does. */
export const readPhoto: PhotoReader = async (bytes, lang) => {
  // Someone waits for a check: read before the frames between turns.
  const { reading, board } = await readFrame(bytes, lang, undefined, true);
  return {
    board,
    unsure: reading.unsure,
    alternatives: reading.alternatives,
    ...(reading.foreign ? { foreign: reading.foreign } : {}),
  };
};

async function readOrSay(
  bytes: Uint8Array,
  which: string,
  lang: 'en' | 'de',
  read: PhotoReader,
): Promise<Read | string> {
  try {
    return await read(bytes, lang);
  } catch (err) {
    if (err instanceof ServiceError) return `${which}: ${err.message}`;
    throw err;
  }
}

const optionsAt = (r: Read, i: number, size: number): readonly Option[] =>
  r.alternatives.find((a) => a.row * size + a.col === i)?.options ?? [];

/** Checks the move between two photos of a board. */
export async function verifyPhotos(
  beforeBytes: Uint8Array,
  afterBytes: Uint8Array,
  options: VerifyOptions,
  read: PhotoReader = readPhoto,
): Promise<Verification> {
  const claimed = options.claimed ?? null;
  const rules = makeRules({ lang: options.lang, ...(options.variant ? { variant: options.variant } : {}) });
  const [before, after] = await Promise.all([
    readOrSay(beforeBytes, 'the photo before', options.lang, read),
    readOrSay(afterBytes, 'the photo after', options.lang, read),
  ]);
  if (typeof before === 'string' || typeof after === 'string')
    return unsettled([before, after].filter((r) => typeof r === 'string').join('; '), claimed);
  const size = before.board.size;
  const boards = { before: formatBoard(before.board), after: formatBoard(after.board) };
  // Letters the chosen set lacks (an Ä on a board checked as English): the points hang on the set; no verdict.
  const other = foreignNote([...(before.foreign ?? []), ...(after.foreign ?? [])], options.lang);
  if (other) return unsettled(other, claimed, { boards });

  // The board before: its certain squares are facts; an unsure one is settled by the photo after when that reads
  // it with certainty as one of its readings (tiles do not change), otherwise it stays in doubt.
  const beforeUnsure = new Set(before.unsure.map((s) => s.row * size + s.col));
  const afterUnsure = new Set(after.unsure.map((s) => s.row * size + s.col));
  const committed = before.board.cells.slice();
  const beforeDoubts: number[] = [];
  for (const i of beforeUnsure) {
    const seen = after.board.cells[i]!;
    const readings = optionsAt(before, i, size);
    // An empty square before and a tile after is the move itself: only a tile seen in both settles it.
    const newTile = seen !== EMPTY && committed[i] === EMPTY;
    if (!afterUnsure.has(i)) {
      if (!newTile && (seen === committed[i] || readings.some((o) => o.tile === seen && o.p >= MIN_OPTION))) {
        committed[i] = seen;
        continue;
      }
    } else if (!newTile && seen !== EMPTY) {
      // A tile unclear in both photos: two looks at the same tile, their shares multiplied.
      const joint = jointReading(readings, optionsAt(after, i, size));
      if (joint) {
        committed[i] = joint;
        continue;
      }
    }
    beforeDoubts.push(i);
  }
  const beforeBoard: Board = { size, cells: committed };
  // A hand over either photo explains what does not add up better than the tiles as read.
  const hands = (['before', 'after'] as const).filter((_, k) => hasHand(k === 0 ? before : after));
  const cannot = (message: string) =>
    unsettled(
      hands.length > 0
        ? `a hand covers part of the board in the photo ${hands.join(' and the photo ')}: take it again with the board clear (${message})`
        : message,
      claimed,
      { boards },
    );
  const seen = interpret(after, {
    committed: beforeBoard,
    layout: rules.layout,
    tileSet: rules.tileSet,
    lexicon: options.lexicon,
  });
  // Every square that disagrees holds a tile before and none after: the photo "after" is the earlier one.
  const swapped =
    seen.disturbed.length > 0 &&
    seen.disturbed.every(
      (s) => committed[s.row * size + s.col] !== EMPTY && after.board.cells[s.row * size + s.col] === EMPTY,
    );
  if (swapped)
    return cannot(
      `the photo after has no tiles on ${seen.disturbed
        .map(squareName)
        .join(
          ', ',
        )}, which the photo before shows: the photos look swapped. Give the earlier photo first (tilecam verify EARLIER LATER)`,
    );
  if (seen.disturbed.length > 0)
    return cannot(
      `the photos disagree on ${seen.disturbed
        .map(
          (s) =>
            `${squareName(s)} (${tileText(committed[s.row * size + s.col]!)} before, ${tileText(after.board.cells[s.row * size + s.col]!)} after)`,
        )
        .join(', ')}: photos of two different games, or tiles moved between them`,
    );
  if (seen.hand) return unsettled('a hand covers the board in the photo after the move', claimed, { boards });

  const inferred = inferMove(beforeBoard, seen.board, { layout: rules.layout });
  if (!inferred.ok) {
    if (inferred.reason === 'no-change')
      return unsettled('no move: the two photos show the same tiles', claimed, { boards });
    const two = splitTwoMoves(beforeBoard, seen.board, rules.layout);
    if (two.length > 0)
      return cannot(
        `more than one move between the photos (${describeMoves(two[0]!, seen.board)}): check each move with its own pair of photos`,
      );
    if (inferred.reason === 'tile-removed')
      return cannot(`${inferred.message}: is the photo before really the earlier one?`);
    return cannot(`these photos show no single legal move: ${inferred.message}`);
  }
  if (inferred.kind !== 'play') return cannot('tiles were taken off the board between the photos');
  const move = inferred.move;
  const explanation = explainMove(seen.board, move, rules);

  // Doubts that matter: new squares the context could not decide, and unsure squares of the board before that
  // are part of a word the move formed.
  const inWords = new Set(move.words.flatMap((w) => w.squares.map((s) => s.row * size + s.col)));
  const unsure: UnsureSquare[] = [];
  for (const d of seen.doubts) {
    const i = d.row * size + d.col;
    unsure.push(
      unsureSquare(d, 'after', optionsAt(after, i, size), (tile) => {
        const board = { size, cells: seen.board.cells.slice() };
        board.cells[i] = tile;
        return scoreOf(beforeBoard, board, rules);
      }),
    );
  }
  for (const i of beforeDoubts) {
    // Only a square of a word the move formed matters; one the photo after doubts too is listed once, as its.
    if (!inWords.has(i) || seen.doubts.some((d) => d.row * size + d.col === i)) continue;
    const square = { row: Math.floor(i / size), col: i % size };
    unsure.push(
      unsureSquare(square, 'before', optionsAt(before, i, size), (tile) => {
        const board = { size, cells: committed.slice() };
        board.cells[i] = tile;
        const after = { size, cells: seen.board.cells.slice() };
        // A tile already there is the same tile after the move; an empty square there makes the tile after part
        // of the move.
        if (tile !== EMPTY && after.cells[i] !== EMPTY) after.cells[i] = tile;
        return scoreOf(board, after, rules);
      }),
    );
  }
  if (unsure.length > 0) {
    const unclear = `${unsure.map((u) => `${u.square} is unclear in the photo ${u.photo}`).join('; ')}: ${unsure
      .map((u) =>
        u.readings
          .map((r) => `as ${tileText(r.tile)} the move scores ${r.points ?? 'nothing (no legal move)'}`)
          .join(', '),
      )
      .join('; ')}`;
    // Every reading of every doubtful square makes the same score: the doubt does not matter to it.
    if (unsure.every((u) => u.readings.every((r) => r.points === explanation.points))) {
      const settled = verdictOf(explanation, claimed, rules, boards);
      return { ...settled, unsure, message: `${settled.message} (${unclear}: the same score either way.)` };
    }
    // The claim is a look at the tiles too: when the likeliest readings make exactly the claimed score and no other
    // reading does, the claim stands, and the verdict says what it rests on.
    const agreeing = unsure.flatMap((u) => u.readings.slice(1).filter((r) => r.points === claimed));
    if (claimed !== null && explanation.points === claimed && agreeing.length === 0) {
      const right = verdictOf(explanation, claimed, rules, boards);
      return {
        ...right,
        unsure,
        message: `${right.message} It rests on the likeliest readings, ${unclear}.`,
      };
    }
    return unsettled(unclear, claimed, { unsure, boards, explanation });
  }
  return verdictOf(explanation, claimed, rules, boards);
}

/** Checks a move as the player announced it (`QI H7`, `H7 QI 22`) against a photo of the board after it. */
export async function verifyAnnouncedPhoto(
  afterBytes: Uint8Array,
  announcedText: string,
  options: VerifyOptions,
  read: PhotoReader = readPhoto,
): Promise<Verification> {
  const parsed = parseAnnounced(announcedText);
  if (!parsed.ok) throw new ServiceError('bad-request', parsed.message);
  const claimed = options.claimed ?? parsed.announced.points;
  const rules = makeRules({ lang: options.lang, ...(options.variant ? { variant: options.variant } : {}) });
  const after = await readOrSay(afterBytes, 'the photo', options.lang, read);
  if (typeof after === 'string') return unsettled(after, claimed);
  const size = after.board.size;
  const boards = { before: null, after: formatBoard(after.board) };
  const other = foreignNote(after.foreign ?? [], options.lang);
  if (other) return unsettled(other, claimed, { boards });
  const result = explainAnnounced(after.board, { ...parsed.announced, points: claimed }, rules);
  if (!result.ok) return unsettled(result.message, claimed, { boards });
  // The announced word's squares must be read with certainty (the announcement names letters, not the photo).
  const squares = new Set(
    result.explanation.words.flatMap((w) => w.letters.map((l) => l.row * size + l.col)),
  );
  const doubts = after.unsure.filter((s) => squares.has(s.row * size + s.col));
  if (doubts.length > 0) {
    // What the announced move would score with each reading of the square (null: the board would not show it).
    const unsure = doubts.map((d) =>
      unsureSquare(d, 'after', optionsAt(after, d.row * size + d.col, size), (tile) => {
        const board = { size, cells: after.board.cells.slice() };
        board.cells[d.row * size + d.col] = tile;
        const other = explainAnnounced(board, { ...parsed.announced, points: claimed }, rules);
        return other.ok ? other.explanation.points : null;
      }),
    );
    return unsettled(
      `${doubts.map(squareName).join(', ')} ${doubts.length > 1 ? 'are' : 'is'} unclear in the photo: the board may not show ${parsed.announced.word}`,
      claimed,
      { unsure, boards, explanation: result.explanation },
    );
  }
  const verdict = verdictOf(result.explanation, claimed, rules, {
    before: formatBoard(result.before),
    after: boards.after,
  });
  if (result.otherwise.length === 0) return verdict;
  // The photo could not tell which tiles were new; the claimed points chose: say so, and what the others score.
  return {
    ...verdict,
    message: `${verdict.message} It rests on the claim: the photo cannot tell which tiles were already on the board (${result.otherwise
      .map((o) => `with ${o.move.tiles.map((t) => t.tile).join('')} new it scores ${o.points}`)
      .join('; ')}).`,
  };
}

/** Whether a hand seems to be over some square of the photo. */
function hasHand(read: Read): boolean {
  return handSquares(read, read.board.size).size > 0;
}

/** The tile two unclear looks at one tile agree on, when it carries `COMMIT_SHARE` of their joint weight. */
function jointReading(a: readonly Option[], b: readonly Option[]): string | undefined {
  const weights = a
    .filter((o) => o.tile !== '#' && o.tile !== EMPTY)
    .map((o) => ({ tile: o.tile, w: o.p * (b.find((x) => x.tile === o.tile)?.p ?? 0) }));
  const total = weights.reduce((sum, x) => sum + x.w, 0);
  const best = weights.sort((x, y) => y.w - x.w)[0];
  return best && total > 0 && best.w / total >= COMMIT_SHARE ? best.tile : undefined;
}

function scoreOf(before: Board, after: Board, rules: GameRules): number | null {
  const inferred = inferMove(before, after, { layout: rules.layout });
  if (!inferred.ok || inferred.kind !== 'play') return null;
  return explainMove(after, inferred.move, rules).points;
}

function unsureSquare(
  square: Square,
  photo: 'before' | 'after',
  options: readonly Option[],
  points: (tile: string) => number | null,
): UnsureSquare {
  const readings = options
    .filter((o) => o.tile !== '#')
    .slice(0, 3)
    .map((o) => ({ tile: o.tile, p: Math.round(o.p * 1000) / 1000, points: points(o.tile) }));
  return { row: square.row, col: square.col, square: squareName(square), photo, readings };
}

function tileText(tile: string): string {
  if (tile === EMPTY) return 'empty';
  return tile === '?' ? 'a blank' : tile;
}

/** Two moves as a player would say them: each one's main word, as the board after both shows it, and its place. */
function describeMoves(pair: ReturnType<typeof splitTwoMoves>[number], after: Board): string {
  const word = (m: typeof pair.first) => {
    const main = m.words[0];
    const letters = main
      ? main.squares.map((q) => after.cells[q.row * after.size + q.col]!).join('')
      : m.placements.map((p) => p.tile).join('');
    return `${letters.toUpperCase()} at ${formatPosition(m.position)}`;
  };
  return `${word(pair.first)}, then ${word(pair.second)}`;
}
