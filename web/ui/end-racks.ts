/**
 * What the End-game dialog can fill in by itself. In a two-player game whose bag is empty, the tiles not on the board
 * are on the two racks; when they are no more than a rack holds, the player who made the last play went out (their
 * rack is empty) and the other holds them all. Otherwise the racks are the players' to type.
 */
import type { GameSnapshot } from '../../server/protocol/index.ts';

/** Each player's rack as the tracker knows it (letters, `?` for a blank), or undefined when it cannot tell. */
export function racksFromTracker(s: GameSnapshot, rackSize: number): string[] | undefined {
  if (s.players.length !== 2 || s.unseen.bag !== 0 || s.unseen.total === 0 || s.unseen.total > rackSize)
    return undefined;
  const last = [...s.turns].reverse().find((t) => t.kind === 'play');
  if (!last) return undefined;
  const left = Object.entries(s.unseen.tiles)
    .flatMap(([tile, n]) => Array.from({ length: n }, () => tile))
    .join('');
  return s.players.map((_, i) => (i === last.player ? '' : left));
}
