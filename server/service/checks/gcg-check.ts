/**
 * A GCG record rescored: every line's points and totals, and the first wrong score explained. Pure (the engine,
 * the protocol and verdict.ts), so that it runs in a worker thread (gcg-worker.mjs, off-thread.ts) without the
 * vision. A record the engine refuses is a `GcgRefusal`, a value that crosses the thread as it is.
 */
import { decodeGcg, explainTurn, formatBoard, isTileSetId, readGcg, replayGcg } from '../../engine/index.ts';
import type { GcgCheck } from '../../protocol/index.ts';
import { verdictOf } from './verdict.ts';

export type GcgOutcome = { ok: true; check: GcgCheck } | { ok: false; message: string };

export function rescoreGcg(bytes: Uint8Array, lang?: string): GcgOutcome {
  if (lang !== undefined && !isTileSetId(lang)) return { ok: false, message: `unknown lang '${lang}'` };
  const decoded = decodeGcg(bytes);
  if (!decoded.ok) return { ok: false, message: `line ${decoded.line}: ${decoded.message}` };
  const read = readGcg(decoded.text);
  if (!read.ok) return { ok: false, message: read.message };
  const replayed = replayGcg(read.document, lang ? { lang } : {});
  if (!replayed.ok) return { ok: false, message: replayed.message };
  const { report } = replayed;
  const wrong = report.mismatches.find((m) => m.field === 'score');
  let first: GcgCheck['first'] = null;
  if (wrong) {
    const state = report.state;
    const explained = explainTurn(state, wrong.turn);
    const turn = state.turns[wrong.turn];
    first = {
      line: wrong.line,
      turn: wrong.turn,
      player: turn ? state.players[turn.player]! : '',
      recorded: wrong.recorded,
      computed: wrong.computed,
      verification: explained.ok
        ? verdictOf(explained.explanation, wrong.recorded, state.rules, {
            before: formatBoard(explained.before),
            after: formatBoard(explained.after),
          })
        : null,
    };
  }
  return {
    ok: true,
    check: { players: [...report.players], turns: report.turns, mismatches: [...report.mismatches], first },
  };
}
