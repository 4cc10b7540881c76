/**
 * From camera readings to Scrabble Me events: which board a camera is looking at (after a blank swap the boards
 * change hands, and a camera at a seat now sees another board), and the round's words from one reading per board.
 * Pure: the service feeds it readings and appends the events it returns.
 */
import { type Board, EMPTY, type Placement } from '../board.ts';
import { inferMove } from '../infer.ts';
import type { Failure, Result } from '../result.ts';
import type { MeEvent, MeState } from './index.ts';

/**
 * The board a reading shows: the one whose committed tiles the reading agrees with most (every committed tile seen
 * at its place counts one, a committed tile missing counts against). Undefined when no board fits clearly — two
 * boards equally good, or fewer than half of the best board's tiles seen.
 */
export function matchBoard(reading: Board, boards: readonly Board[]): number | undefined {
  const scores = boards.map((board) => {
    let seen = 0;
    let missing = 0;
    let tiles = 0;
    board.cells.forEach((cell, i) => {
      if (cell === EMPTY) return;
      tiles++;
      const r = reading.cells[i]!;
      if (
        r === cell ||
        (r !== EMPTY && (r === '?' || cell === '?' || r.toUpperCase() === cell.toUpperCase()))
      )
        seen++;
      else missing++;
    });
    return { score: seen - missing, seen, tiles };
  });
  const order = scores.map((_, i) => i).sort((a, b) => scores[b]!.score - scores[a]!.score);
  const best = scores[order[0]!]!;
  const second = order.length > 1 ? scores[order[1]!]! : undefined;
  if (second && second.score === best.score) return undefined;
  if (best.tiles > 0 && best.seen * 2 < best.tiles) return undefined;
  return order[0];
}

export type RoundFailure = Failure<'reading-rejected' | 'missing-board'> & { readonly board?: number };

/**
 * The `round` event for one reading per board (board index → reading). A board whose holder sits out, or whose
 * reading shows no new tile, contributes no word; a reading that is not a legal move is refused with its board.
 */
export function roundFromReadings(
  state: MeState,
  readings: ReadonlyMap<number, Board>,
): Result<{ event: MeEvent }, RoundFailure> {
  const words: { player: number; placements: Placement[] }[] = [];
  for (const [board, holder] of state.holder.entries()) {
    if (state.sittingOut.includes(holder)) continue;
    const reading = readings.get(board);
    if (!reading)
      return { ok: false, reason: 'missing-board', message: `no reading of board ${board + 1} yet`, board };
    const inferred = inferMove(state.boards[board]!, reading, { layout: state.rules.base.layout });
    if (!inferred.ok) {
      if (inferred.reason === 'no-change') continue;
      return {
        ok: false,
        reason: 'reading-rejected',
        message: `board ${board + 1}: ${inferred.message}`,
        squares: inferred.squares,
        board,
      };
    }
    if (inferred.kind !== 'play') {
      return {
        ok: false,
        reason: 'reading-rejected',
        message: `board ${board + 1}: tiles were taken off`,
        board,
      };
    }
    words.push({ player: holder, placements: [...inferred.move.placements] });
  }
  return { ok: true, event: { type: 'round', words } };
}
