/**
 * Rules as data: everything a variant or a house rule changes is a field here, with the presets of the rule books.
 * Owns no logic beyond picking and checking settings.
 */
import { type Layout, standardLayout } from './layout.ts';
import { type TileSet, type TileSetId, tileSets } from './tilesets.ts';

/**
 * What happens after a challenge. `double`: a phony is withdrawn and scores nothing; a wrong challenger loses
 * their next turn (the rule books). `single`: a phony is withdrawn, a wrong challenge costs nothing (also called
 * void-free). `void`: words are checked before the play is scored; an invalid play never reaches the board.
 * `5-point` / `10-point`: a wrong challenge gives the player challenged that bonus instead of costing a turn.
 */
export const challengeRules = ['double', 'single', 'void', '5-point', '10-point'] as const;
export type ChallengeRule = (typeof challengeRules)[number];

/**
 * End-of-game rack convention. `seeds`: each player loses their unplayed letters and whoever went out gains their
 * sum (the rule books). `double`: whoever went out gains twice the opponents' letters and the opponents lose
 * nothing (tournament convention, used by most GCG files).
 */
export type EndRackRule = 'seeds' | 'double';

/** The variants played on one board (rule books 001 and 002). */
export const variants = ['classic', 'nine-tile', 'finish-line', 'uk'] as const;
export type Variant = (typeof variants)[number];

export const finishLineLevels = ['beginner', 'intermediate', 'expert'] as const;
export type FinishLineLevel = (typeof finishLineLevels)[number];

/** The seed book's Finish Line table: target score by number of players and level. */
export const finishLineTargets: Record<2 | 3 | 4, Record<FinishLineLevel, number>> = {
  2: { beginner: 70, intermediate: 120, expert: 200 },
  3: { beginner: 60, intermediate: 100, expert: 180 },
  4: { beginner: 50, intermediate: 90, expert: 160 },
};

export interface GameRules {
  readonly tileSet: TileSet;
  readonly layout: Layout;
  /** Tiles on a full rack: 7, or 9 in the 9-tile variant. */
  readonly rackSize: number;
  /** Bonus for playing at least `minTiles` tiles in one turn (50 for 7; the 9-tile variant: 7, 8 or 9). */
  readonly bingo: { readonly bonus: number; readonly minTiles: number };
  readonly challenge: ChallengeRule;
  readonly endRack: EndRackRule;
  /** The game ends after this many consecutive scoreless turns (0: never). UK book: 2 × players. */
  readonly scorelessTurns: number;
  /** Finish Line variant: each player's target, in seat order; the game ends when one reaches theirs. */
  readonly finishLine?: readonly number[];
  /**
   * A game clock: each player has `minutes` for all their turns; time over it costs `pointsPerMinute` for each
   * minute or part of one, taken at the end of the game (the tournament rule: 10 points a minute).
   */
  readonly clock?: { readonly minutes: number; readonly pointsPerMinute: number };
}

/** The tournament rule's overtime penalty (WESPA and NASPA): 10 points for each minute or part of one. */
export const OVERTIME_POINTS_PER_MINUTE = 10;

/** Each player's overtime penalty by the game clock, for the time they used (ms, by seat); none without a clock. */
export function overtimePenalties(rules: GameRules, used: readonly number[]): number[] {
  const clock = rules.clock;
  return used.map((ms) => {
    if (!clock) return 0;
    const over = ms - clock.minutes * 60_000;
    return over > 0 ? Math.ceil(over / 60_000) * clock.pointsPerMinute : 0;
  });
}

export interface RulesOptions {
  lang?: TileSetId;
  variant?: Variant;
  players?: number;
  challenge?: ChallengeRule;
  endRack?: EndRackRule;
  scorelessTurns?: number;
  /** Finish Line: each player's level in seat order (or one level for all). */
  levels?: FinishLineLevel | readonly FinishLineLevel[];
  /** A game clock of this many minutes per player (the tournament overtime penalty applies). */
  clockMinutes?: number;
}

/** Rules for a game from a few options, defaults as in the rule books (2 players, double challenge, seeds ending). */
export function makeRules(options: RulesOptions = {}): GameRules {
  const players = options.players ?? 2;
  const variant = options.variant ?? 'classic';
  const rules: GameRules = {
    tileSet: tileSets[options.lang ?? 'en'],
    layout: standardLayout,
    rackSize: variant === 'nine-tile' ? 9 : 7,
    bingo: { bonus: 50, minTiles: 7 },
    challenge: options.challenge ?? 'double',
    endRack: options.endRack ?? 'seeds',
    // Tournament rules end a game after six consecutive scoreless turns; the UK book when all passed twice.
    scorelessTurns: options.scorelessTurns ?? (variant === 'uk' ? 2 * players : 6),
    ...(options.clockMinutes
      ? { clock: { minutes: options.clockMinutes, pointsPerMinute: OVERTIME_POINTS_PER_MINUTE } }
      : {}),
  };
  if (variant !== 'finish-line') return rules;
  const table = finishLineTargets[players as 2 | 3 | 4];
  if (!table) throw new RangeError(`Finish Line needs 2 to 4 players, got ${players}`);
  const levels = options.levels ?? 'intermediate';
  const perPlayer = Array.from({ length: players }, (_, i) =>
    typeof levels === 'string' ? levels : levels[i],
  );
  return { ...rules, finishLine: perPlayer.map((level) => table[level ?? 'intermediate']) };
}
