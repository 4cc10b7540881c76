/**
 * Games the move generator plays against itself, two players: at each turn the player takes the option of best
 * equity under their own leave values, a play or an exchange while the bag holds a rackful, as `analyzeTurn` ranks
 * them; a pass only when neither is possible (weighed as an option, a pass would let two players pass a game away). For fitting leave values and for comparing two sets of them head to head
 * (`npm run bench:leaves`). Pure: the bag is shuffled by the caller's `random`.
 *
 * The game ends when a player goes out with the bag empty (they gain the tiles left on the other rack, which the
 * other loses) or after six scoreless turns in a row (each loses their own rack's tiles).
 */
import { type Board, emptyBoard, type Placement, place } from '../board.ts';
import type { GameRules } from '../rules.ts';
import { BLANK, tileValue } from '../tilesets.ts';
import type { Dawg } from './dawg.ts';
import { listPlays } from './generate.ts';

/** A player's leave values: the points a leave (its tiles sorted, `?` for a blank) is worth keeping. */
export type LeaveValues = (sortedLeave: string) => number;

export interface SelfPlayTurn {
  readonly player: number;
  /** The rack before the turn, sorted. */
  readonly rack: string;
  /** What the player kept, sorted (`?` for a blank). */
  readonly leave: string;
  /** `play`, `exchange` or `pass`. */
  readonly kind: 'play' | 'exchange' | 'pass';
  readonly score: number;
  /** Tiles in the bag once the player had drawn. */
  readonly bag: number;
  /** A play's tiles (lowercase: a blank). */
  readonly placements?: readonly Placement[];
}

export interface SelfPlayGame {
  readonly turns: readonly SelfPlayTurn[];
  /** Final scores, the rack tiles left settled. */
  readonly scores: readonly [number, number];
  /** The racks left at the end. */
  readonly racks: readonly [string, string];
  readonly board: Board;
}

const sorted = (tiles: string) => [...tiles].sort().join('');

/** One game of `players[0]` against `players[1]` (who moves second), the bag shuffled by `random`. */
export function selfPlay(
  dawg: Dawg,
  rules: GameRules,
  players: readonly [LeaveValues, LeaveValues],
  random: () => number,
): SelfPlayGame {
  const set = rules.tileSet;
  const bag: string[] = [];
  for (const [letter, count] of set.letters) for (let k = 0; k < count; k++) bag.push(letter);
  for (let k = 0; k < set.blanks; k++) bag.push(BLANK);
  // Fisher–Yates.
  for (let i = bag.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [bag[i], bag[j]] = [bag[j]!, bag[i]!];
  }
  const draw = (n: number) => bag.splice(Math.max(0, bag.length - n), n).join('');
  const racks: [string, string] = [draw(rules.rackSize), draw(rules.rackSize)];
  const scores: [number, number] = [0, 0];
  const turns: SelfPlayTurn[] = [];
  const rackPoints = (rack: string) => [...rack].reduce((sum, t) => sum + (tileValue(set, t) ?? 0), 0);
  let board: Board = emptyBoard(rules.layout);
  let scoreless = 0;
  for (let turn = 0; ; turn++) {
    const p = (turn % 2) as 0 | 1;
    const q = (1 - p) as 0 | 1;
    const rack = racks[p]!;
    const values = players[p]!;
    const bagEmpty = bag.length === 0;
    const cache = new Map<string, number>();
    const leaveValue = (leave: string) => {
      if (bagEmpty) return 0;
      const key = sorted(leave);
      let v = cache.get(key);
      if (v === undefined) {
        v = values(key);
        cache.set(key, v);
      }
      return v;
    };
    const list = listPlays(board, rack, dawg, rules);
    let best = -1;
    let bestEquity = Number.NEGATIVE_INFINITY;
    for (let i = 0; i < list.size; i++) {
      const e = list.score[i]! + leaveValue(list.leave(i));
      if (e > bestEquity) {
        bestEquity = e;
        best = i;
      }
    }
    // An exchange, while the bag holds a rackful: the best tiles to keep.
    let keep: string | undefined;
    if (bag.length >= rules.rackSize) {
      const tiles = [...rack].sort();
      for (let mask = 1; mask < 1 << tiles.length; mask++) {
        const kept = tiles.filter((_, k) => !(mask & (1 << k))).join('');
        const e = leaveValue(kept);
        if (e > bestEquity) {
          bestEquity = e;
          keep = kept;
          best = -1;
        }
      }
    }
    let kind: SelfPlayTurn['kind'];
    let score = 0;
    let leave: string;
    let placements: readonly Placement[] | undefined;
    if (best >= 0 && keep === undefined) {
      const play = list.play(best);
      placements = play.placements;
      board = place(board, play.placements);
      score = play.score;
      leave = play.leave;
      kind = 'play';
      racks[p] = leave + draw(rules.rackSize - leave.length);
    } else if (keep !== undefined) {
      // The tiles put back go in after the new ones are drawn.
      leave = keep;
      const away = [...rack];
      for (const t of keep) away.splice(away.indexOf(t), 1);
      racks[p] = keep + draw(away.length);
      for (const t of away) bag.splice(Math.floor(random() * (bag.length + 1)), 0, t);
      kind = 'exchange';
    } else {
      leave = rack;
      kind = 'pass';
    }
    scores[p] += score;
    turns.push({
      player: p,
      rack: sorted(rack),
      leave: sorted(leave),
      kind,
      score,
      bag: bag.length,
      ...(placements ? { placements } : {}),
    });
    scoreless = score > 0 ? 0 : scoreless + 1;
    if (racks[p]!.length === 0) {
      const left = rackPoints(racks[q]!);
      scores[p] += left;
      scores[q] -= left;
      break;
    }
    if (scoreless >= 6) {
      scores[0] -= rackPoints(racks[0]!);
      scores[1] -= rackPoints(racks[1]!);
      break;
    }
  }
  return { turns, scores, racks: [racks[0]!, racks[1]!], board };
}
