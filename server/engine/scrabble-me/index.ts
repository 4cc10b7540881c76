/**
 * Scrabble Me (rule book 003): every player builds on an own board, all at once, round by round. Rules as data,
 * the game as an append-only list of events like the classic game: `round` (each player's word), `challenge`,
 * `swap` (a blank's board swap), `pick` (refilling racks one tile at a time from the bag or the prize podium),
 * `podium` (the podium refilled from the bag), `bonus` (the last round's lowest scorer's extra word).
 */
import { type Board, emptyBoard, type Placement, removeTiles } from '../board.ts';
import { effectiveEvents } from '../game.ts';
import { makeMove } from '../infer.ts';
import type { Failure, Result } from '../result.ts';
import type { GameRules } from '../rules.ts';
import { type PlayScore, scorePlay } from '../score.ts';
import { isBlankTile, tileCount } from '../tilesets.ts';

/** Rules of the variant that are not the classic game's. */
export interface MeRules {
  readonly base: GameRules;
  /** Face-up prize tiles per player at the start of every round. */
  readonly podiumPerPlayer: number;
}

export type MeEvent =
  /** The words built this round, one per player who built one, each on the board that player holds. */
  | {
      readonly type: 'round';
      readonly words: readonly { readonly player: number; readonly placements: readonly Placement[] }[];
    }
  /** `challenger` challenges `player`'s word of this round; `acceptable` is the dictionary's verdict. */
  | {
      readonly type: 'challenge';
      readonly player: number;
      readonly challenger: number;
      readonly acceptable: boolean;
    }
  /** `player`, who played a blank, swaps boards with `with`. */
  | { readonly type: 'swap'; readonly player: number; readonly with: number }
  /** One tile taken while refilling: from the bag (unseen) or the podium (a letter shown there). */
  | {
      readonly type: 'pick';
      readonly player: number;
      readonly from: 'bag' | 'podium';
      readonly letter?: string;
    }
  /** Tiles drawn from the bag and put face up on the podium. */
  | { readonly type: 'podium'; readonly letters: string }
  /** The last round's lowest scorer's one bonus word (or none). */
  | { readonly type: 'bonus'; readonly player: number; readonly placements: readonly Placement[] | null }
  /**
   * Replaces event `target` (a round whose word was misread, a challenge's verdict…) with `event`, or drops it
   * (null). Everything after it is derived again, and the correction is refused if a later event no longer fits.
   */
  | { readonly type: 'correction'; readonly target: number; readonly event: MeEvent | null };

export interface RoundWord {
  readonly player: number;
  readonly board: number;
  readonly placements: readonly Placement[];
  readonly score: PlayScore;
  withdrawn: boolean;
}

export type MePhase = 'build' | 'scored' | 'refill' | 'podium' | 'bonus' | 'ended';

export interface MeState {
  readonly rules: MeRules;
  readonly players: readonly string[];
  readonly boards: readonly Board[];
  /** Who holds each board (board index → player). */
  readonly holder: readonly number[];
  readonly scores: readonly number[];
  readonly phase: MePhase;
  readonly round: number;
  /** This round's words. */
  readonly words: readonly RoundWord[];
  /** Players sitting out the next round (a wrong challenge). */
  readonly sittingOut: readonly number[];
  /** Players who still have to swap, in the order they swap. */
  readonly swaps: readonly number[];
  /** The refill picks still to come, in order (one entry per tile). */
  readonly picks: readonly number[];
  readonly podium: readonly string[];
  readonly bag: number;
  /** The round being played is the last one (the bag ran out at the refill before it). */
  readonly lastRound: boolean;
  readonly bonusPlayer?: number;
  /** Every event as it came, corrections included (see `effectiveEvents`). */
  readonly events: readonly MeEvent[];
  /** How the game began: the podium's first tiles and the bag, to derive it again after a correction. */
  readonly origin: { readonly podium: string; readonly bag: number };
}

export type MeFailure = Failure<'bad-event' | 'wrong-phase' | 'illegal-placement' | 'out-of-order'>;
type Step = Result<{ state: MeState }, MeFailure>;

/**
 * A new game with the podium's first tiles. `bag` overrides the tiles left in the bag (a game joined midway);
 * by default it is the set less the racks and the podium.
 */
export function newMeGame(
  players: readonly string[],
  base: GameRules,
  podium: string,
  options: { bag?: number } = {},
): Result<{ state: MeState }, MeFailure> {
  if (players.length < 2 || players.length > 4) return fail('bad-event', 'Scrabble Me is for 2 to 4 players');
  const perPlayer = 3;
  if ([...podium].length !== perPlayer * players.length)
    return fail('bad-event', `the podium starts with ${perPlayer} tiles per player`);
  const rules: MeRules = { base, podiumPerPlayer: perPlayer };
  const bag = options.bag ?? tileCount(base.tileSet) - players.length * base.rackSize - [...podium].length;
  return {
    ok: true,
    state: {
      rules,
      players: [...players],
      boards: players.map(() => emptyBoard(base.layout)),
      holder: players.map((_, i) => i),
      scores: players.map(() => 0),
      phase: 'build',
      round: 1,
      words: [],
      sittingOut: [],
      swaps: [],
      picks: [],
      podium: [...podium],
      bag,
      lastRound: false,
      events: [],
      origin: { podium, bag },
    },
  };
}

export { matchBoard, type RoundFailure, roundFromReadings } from './readings.ts';

export function applyMeEvent(state: MeState, event: MeEvent): Step {
  if (event.type === 'correction') return applyCorrection(state, event);
  const step = reduce(state, event);
  if (!step.ok) return step;
  return { ok: true, state: { ...step.state, events: [...state.events, event] } };
}

function applyCorrection(state: MeState, event: Extract<MeEvent, { type: 'correction' }>): Step {
  const target = state.events[event.target];
  if (!Number.isInteger(event.target) || !target || target.type === 'correction')
    return fail('bad-event', `no event ${event.target} to correct`);
  if (event.event?.type === 'correction')
    return fail('bad-event', 'a correction cannot replace with a correction');
  const events = [...state.events, event];
  const start = newMeGame(state.players, state.rules.base, state.origin.podium, { bag: state.origin.bag });
  if (!start.ok) return start;
  let s = start.state;
  for (const { event: e, index } of effectiveEvents<MeEvent>(events)) {
    const step = reduce(s, e);
    if (!step.ok)
      return { ...step, message: `after the correction, event ${index + 1} no longer fits: ${step.message}` };
    s = step.state;
  }
  return { ok: true, state: { ...s, events } };
}

function reduce(state: MeState, e: MeEvent): Step {
  // Once the round is scored and every swap is done, the refill begins with the next pick (or round, or podium).
  const s = e.type !== 'challenge' && e.type !== 'swap' ? afterChallenges(state) : state;
  const n = s.players.length;
  const seat = (p: number) => Number.isInteger(p) && p >= 0 && p < n;
  switch (e.type) {
    case 'round': {
      if (s.phase !== 'build') return fail('wrong-phase', `a round cannot start now (${s.phase})`);
      const boards = s.boards.slice();
      const words: RoundWord[] = [];
      for (const w of e.words) {
        if (!seat(w.player)) return fail('bad-event', `no player ${w.player}`);
        if (s.sittingOut.includes(w.player))
          return fail('out-of-order', `${s.players[w.player]} sits out this round`);
        if (words.some((x) => x.player === w.player))
          return fail('bad-event', `${s.players[w.player]} built two words`);
        const board = s.holder.indexOf(w.player);
        // The first word on a board covers its centre; later ones use a tile already there (the classic checks).
        const made = makeMove(boards[board]!, w.placements, s.rules.base.layout);
        if (!made.ok)
          return {
            ok: false,
            reason: 'illegal-placement',
            message: `${s.players[w.player]}: ${made.message}`,
            squares: made.squares,
          };
        boards[board] = made.after;
        words.push({
          player: w.player,
          board,
          placements: w.placements,
          score: scorePlay(made.after, w.placements, made.move.direction, s.rules.base),
          withdrawn: false,
        });
      }
      const scores = s.scores.slice();
      for (const w of words) scores[w.player]! += w.score.score;
      // No word at all this round (nobody could build one): the game ends.
      if (words.length === 0) return ok({ ...s, words, sittingOut: [], phase: 'ended' });
      return ok(scored({ ...s, boards, scores, words, sittingOut: [] }));
    }
    case 'challenge': {
      if (s.phase !== 'scored' || s.swaps.length !== swapsDue(s).length) {
        return fail('wrong-phase', 'challenges come right after the round is scored, before any swap');
      }
      const word = s.words.find((w) => w.player === e.player && !w.withdrawn);
      if (!word || !seat(e.challenger) || e.challenger === e.player)
        return fail('bad-event', 'no such word to challenge');
      if (e.acceptable) return ok({ ...s, sittingOut: [...new Set([...s.sittingOut, e.challenger])] });
      // An unacceptable word is taken back and scores nothing this round.
      const boards = s.boards.slice();
      boards[word.board] = removeTiles(boards[word.board]!, word.placements);
      const scores = s.scores.slice();
      scores[e.player]! -= word.score.score;
      const words = s.words.map((w) => (w === word ? { ...w, withdrawn: true } : w));
      return ok(scored({ ...s, boards, scores, words }));
    }
    case 'swap': {
      if (s.phase !== 'scored' || s.swaps[0] !== e.player)
        return fail('out-of-order', `it is not ${s.players[e.player] ?? e.player}'s swap`);
      if (!seat(e.with) || e.with === e.player) return fail('bad-event', 'swap with an opponent');
      const holder = s.holder.slice();
      const mine = holder.indexOf(e.player);
      const theirs = holder.indexOf(e.with);
      holder[mine] = e.with;
      holder[theirs] = e.player;
      const swaps = s.swaps.slice(1);
      return ok(swaps.length === 0 ? startRefill({ ...s, holder, swaps }) : { ...s, holder, swaps });
    }
    case 'pick': {
      if (s.phase !== 'refill' || s.picks[0] !== e.player)
        return fail('out-of-order', `it is not ${s.players[e.player] ?? e.player}'s pick`);
      let { bag, podium } = s;
      if (e.from === 'bag') {
        if (bag === 0) return fail('bad-event', 'the bag is empty: pick from the podium');
        bag--;
      } else {
        const i = podium.indexOf(e.letter ?? '');
        if (i < 0) return fail('bad-event', `${e.letter ?? 'that tile'} is not on the podium`);
        podium = podium.filter((_, k) => k !== i);
      }
      const picks = s.picks.slice(1);
      return ok(afterRefill({ ...s, bag, podium, picks }));
    }
    case 'podium': {
      if (s.phase !== 'podium') return fail('wrong-phase', 'the podium is refilled after the racks');
      const letters = [...e.letters];
      const want = Math.min(s.bag, s.rules.podiumPerPlayer * n - s.podium.length);
      if (letters.length !== want)
        return fail('bad-event', `the podium takes ${want} tile(s) from the bag now`);
      return ok({
        ...s,
        podium: [...s.podium, ...letters],
        bag: s.bag - letters.length,
        phase: 'build',
        round: s.round + 1,
        words: [],
      });
    }
    case 'bonus': {
      if (s.phase !== 'bonus' || e.player !== s.bonusPlayer)
        return fail('out-of-order', 'only the last round’s lowest scorer builds a bonus word');
      if (!e.placements) return ok({ ...s, phase: 'ended' });
      const board = s.holder.indexOf(e.player);
      const made = makeMove(s.boards[board]!, e.placements, s.rules.base.layout);
      if (!made.ok)
        return { ok: false, reason: 'illegal-placement', message: made.message, squares: made.squares };
      const boards = s.boards.slice();
      boards[board] = made.after;
      const scores = s.scores.slice();
      scores[e.player]! += scorePlay(made.after, e.placements, made.move.direction, s.rules.base).score;
      return ok({ ...s, boards, scores, phase: 'ended' });
    }
    default:
      return fail('bad-event', 'unknown event');
  }
}

/**
 * The game as the next refill event sees it: once the round is scored and every blank swap is done, the refill
 * (or, after the last round, the bonus word) has begun — challenges may still come until then. For showing who
 * picks next; the events themselves do not need it.
 */
export function afterChallenges(state: MeState): MeState {
  return state.phase === 'scored' && state.swaps.length === 0 ? startRefill(state) : state;
}

/** After a round is scored (or re-scored by a challenge): who must swap boards, in order. */
function scored(s: MeState): MeState {
  return { ...s, phase: 'scored', swaps: swapsDue(s) };
}

/** Players whose word (still standing) holds a blank; the lower scorer of the round swaps last. */
function swapsDue(s: MeState): number[] {
  return s.words
    .filter((w) => !w.withdrawn && w.placements.some((p) => isBlankTile(p.tile)))
    .sort((a, b) => b.score.score - a.score.score || a.player - b.player)
    .map((w) => w.player);
}

function roundScore(s: MeState, player: number): number {
  const w = s.words.find((x) => x.player === player && !x.withdrawn);
  return w ? w.score.score : 0;
}

/** The player whose word this round scored least; a tie goes to the word with the letter closest to A. */
export function lowestScorer(s: MeState): number {
  const lowestLetter = (player: number) => {
    const w = s.words.find((x) => x.player === player && !x.withdrawn);
    const letters = w ? w.placements.map((p) => (isBlankTile(p.tile) ? '\uffff' : p.tile)) : [];
    return letters.sort()[0] ?? '\uffff';
  };
  const seats = s.players.map((_, i) => i);
  return seats.sort(
    (a, b) => roundScore(s, a) - roundScore(s, b) || lowestLetter(a).localeCompare(lowestLetter(b)) || a - b,
  )[0]!;
}

/** Refill order: from the lowest scorer round the table, one tile at a time, until every rack is full again. */
function startRefill(s: MeState): MeState {
  // After the last round nobody refills: its lowest scorer builds the bonus word from what is left.
  if (s.lastRound) return { ...s, phase: 'bonus', bonusPlayer: lowestScorer(s) };
  const n = s.players.length;
  const need = s.players.map(
    (_, p) => s.words.find((w) => w.player === p && !w.withdrawn)?.placements.length ?? 0,
  );
  const first = lowestScorer(s);
  const picks: number[] = [];
  const available = s.bag + s.podium.length;
  while (need.some((k) => k > 0) && picks.length < available) {
    for (let k = 0; k < n; k++) {
      const p = (first + k) % n;
      if (need[p]! > 0 && picks.length < available) {
        picks.push(p);
        need[p]!--;
      }
    }
  }
  return afterRefill({ ...s, phase: 'refill', picks });
}

/** When the picks are done: refill the podium, or, the bag being empty, play one last round, then the bonus. */
function afterRefill(s: MeState): MeState {
  if (s.picks.length > 0) return s;
  if (s.bag === 0) return { ...s, phase: 'build', lastRound: true, round: s.round + 1, words: [] };
  // Nobody took from the podium: it is still full, and the next round begins.
  if (s.podium.length >= s.rules.podiumPerPlayer * s.players.length)
    return { ...s, phase: 'build', round: s.round + 1, words: [] };
  return { ...s, phase: 'podium' };
}

function ok(state: MeState): Step {
  return { ok: true, state };
}

function fail(reason: MeFailure['reason'], message: string) {
  return { ok: false as const, reason, message };
}
