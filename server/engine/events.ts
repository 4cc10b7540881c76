/**
 * The closed vocabulary of game events. A game is an append-only list of these; every total is derived from it.
 * Players are seat numbers (0-based, in turn order).
 */
import type { Placement } from './board.ts';

export type GameEvent =
  /** Tiles put on the board. The score is derived, never stored. */
  | {
      readonly type: 'play';
      readonly player: number;
      readonly placements: readonly Placement[];
      readonly rack?: string;
    }
  | { readonly type: 'pass'; readonly player: number; readonly rack?: string }
  /** Tiles swapped with the bag: the tiles if known, else how many. */
  | {
      readonly type: 'exchange';
      readonly player: number;
      readonly tiles: string | number;
      readonly rack?: string;
    }
  /** `player` challenges the last play; `acceptable` is the lexicon's verdict. Effects follow the challenge rule. */
  | { readonly type: 'challenge'; readonly player: number; readonly acceptable: boolean }
  /** The last play of `player` is taken back (a phony withdrawn) and scores nothing. */
  | { readonly type: 'withdraw'; readonly player: number }
  /** Points given to `player` for a wrong challenge of their play (5- and 10-point rules, or as recorded). */
  | { readonly type: 'challenge-bonus'; readonly player: number; readonly points: number }
  /** `player`, whose turn it is, loses it (a wrong challenge under the double rule). */
  | { readonly type: 'lost-turn'; readonly player: number }
  /** `player` went out and gains `rack`, an opponent's unplayed letters (×1 or ×2 by the end-rack rule). */
  | { readonly type: 'end-rack'; readonly player: number; readonly rack: string }
  /** `player` loses the value of their own unplayed letters. */
  | { readonly type: 'rack-penalty'; readonly player: number; readonly rack: string }
  | { readonly type: 'time-penalty'; readonly player: number; readonly points: number }
  /** Ends the game with every player's unplayed letters by seat; derives the end-rack points by the rules. */
  | { readonly type: 'end'; readonly racks: readonly string[] }
  /** Replaces (or, with `event: null`, deletes) the earlier event at index `target`; everything after re-derives. */
  | { readonly type: 'correction'; readonly target: number; readonly event: GameEvent | null };

export type EventType = GameEvent['type'];
