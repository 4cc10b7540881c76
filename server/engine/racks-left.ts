/**
 * What each player holds at the end, from the racks recorded with the moves (a GCG file's, or the ones a scorekeeper
 * kept): a player's last move, made with the bag already empty, left them their rack less the tiles it played, and
 * nothing was drawn after it. Where the rack of that move is not known, or the bag still held tiles then, the rack
 * left is not known either (null). Pure; the end-of-game dialog fills these in for the scorekeeper to confirm.
 */
import { effectiveEvents, type GameState } from './game.ts';
import { playedTiles, recordedRack } from './gcg/export.ts';
import { tileCount } from './tilesets.ts';

export function racksLeft(state: GameState): (string | null)[] {
  const current = new Map(effectiveEvents(state.events).map(({ event, index }) => [index, event]));
  const total = tileCount(state.rules.tileSet);
  const full = state.players.length * state.rules.rackSize;
  const withdrawn = new Set(state.turns.flatMap((t) => (t.kind === 'withdraw' ? [t.withdraws] : [])));
  const last: ({ rack: string | undefined; played: string[]; bagEmpty: boolean } | undefined)[] = [];
  let onBoard = 0;
  state.turns.forEach((turn, k) => {
    if (turn.kind === 'play' || turn.kind === 'pass' || turn.kind === 'exchange') {
      // While the bag holds tiles every rack is full before a move: the bag is empty exactly when the tiles off the
      // board fit on the racks.
      const played = turn.kind === 'play' && !withdrawn.has(k) ? playedTiles(turn.move!.placements) : [];
      last[turn.player] = {
        rack: recordedRack(current.get(turn.event)),
        played,
        bagEmpty: total - onBoard <= full,
      };
    }
    if (turn.kind === 'play') onBoard += turn.move!.placements.length;
    if (turn.kind === 'withdraw' && turn.withdraws !== undefined)
      onBoard -= state.turns[turn.withdraws]?.move?.placements.length ?? 0;
  });
  return state.players.map((_, player) => {
    const move = last[player];
    if (!move?.rack || !move.bagEmpty) return null;
    const left = [...move.rack];
    for (const tile of move.played) {
      const at = left.indexOf(tile);
      // The rack does not hold the tiles played: it is not the rack they were played from.
      if (at < 0) return null;
      left.splice(at, 1);
    }
    return left.join('');
  });
}
