/** A Scrabble Me game as the wire protocol shows it: derived from the engine state, nothing stored twice. */
import {
  afterChallenges,
  effectiveEvents,
  formatBoard,
  lowestScorer,
  type MeEvent,
  type MeRoundRecord,
  type MeState,
} from '../../engine/index.ts';
import type { Decision, MeSnapshot, PendingView, SourceView } from '../../protocol/index.ts';

export function meSnapshotOf(
  id: string,
  s: MeState,
  options: {
    version: number;
    /** Whether a board's turn has ended in the round being built. */
    ended: (board: number) => boolean;
    /** The reading of a board waiting for the scorekeeper. */
    pending: (board: number) => PendingView | null;
    /** How a board's last accepted reading was decided. */
    decided: (board: number) => Decision | null;
    rounds: readonly MeRoundRecord[];
    lang: string;
    sources: readonly SourceView[];
  },
): MeSnapshot {
  const view = afterChallenges(s);
  const thisRound = new Map(s.words.filter((w) => !w.withdrawn).map((w) => [w.board, w]));
  const scored = s.words.length > 0 && s.phase !== 'build';
  return {
    id,
    version: options.version,
    variant: 'scrabble-me',
    players: s.players.map((name, i) => ({
      name,
      score: s.scores[i]!,
      board: s.holder.indexOf(i),
      sittingOut: s.phase === 'build' && s.sittingOut.includes(i),
    })),
    boards: s.boards.map((board, i) => ({
      board: formatBoard(board),
      holder: s.holder[i]!,
      lastWord: (thisRound.get(i)?.placements ?? []).map(({ row, col }) => ({ row, col })),
      ended: options.ended(i),
      pending: options.pending(i),
      decided: options.decided(i),
    })),
    phase: view.phase,
    round: s.round,
    lastRound: s.lastRound,
    rounds: options.rounds.map((r) => ({ ...r })),
    swaps: s.swaps,
    picks: view.phase === 'refill' ? view.picks : [],
    firstPick: scored ? lowestScorer(s) : null,
    podium: s.podium,
    bag: s.bag,
    bonusPlayer: view.phase === 'bonus' ? (view.bonusPlayer ?? null) : null,
    ended:
      s.phase === 'ended'
        ? {
            reason:
              effectiveEvents<MeEvent>(s.events).at(-1)?.event.type === 'bonus'
                ? 'the bonus word after the last round'
                : 'no word built',
            winners: s.scores.flatMap((score, i) => (score === Math.max(...s.scores) ? [i] : [])),
          }
        : null,
    capture: 'button',
    lang: options.lang,
    sources: options.sources,
  };
}
