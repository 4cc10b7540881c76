/**
 * A score's verdict from the engine's explanation of a move: right, wrong (with the likeliest slip), or unsure.
 * Pure: the engine and the protocol's types only, so that rescoring a record off the main thread (gcg-check.ts)
 * does not load the vision.
 */
import { diagnose, type Explanation, type GameRules } from '../../engine/index.ts';
import type { UnsureSquare, Verification } from '../../protocol/index.ts';

/** The verdict on `explanation` against `claimed`. */
export function verdictOf(
  explanation: Explanation,
  claimed: number | null,
  rules: GameRules,
  boards: Verification['boards'],
): Verification {
  const base = {
    move: explanation.move,
    words: explanation.words,
    bingo: explanation.bingo,
    points: explanation.points,
    sentence: explanation.sentence,
    claimed,
    unsure: [],
    boards,
  };
  const main = explanation.words.find((w) => w.main) ?? explanation.words[0];
  const what = `${main?.word ?? explanation.move.tiles.map((t) => t.tile).join('')} at ${explanation.move.position} scores ${explanation.points}`;
  if (claimed === null) return { ...base, verdict: 'right', cause: null, causes: [], message: `${what}.` };
  if (claimed === explanation.points)
    return {
      ...base,
      verdict: 'right',
      cause: null,
      causes: [],
      message: `${what}: the claim of ${claimed} is right.`,
    };
  const causes = diagnose(explanation, claimed, rules);
  const diff = claimed - explanation.points;
  const by = `${Math.abs(diff)} ${diff > 0 ? 'too many' : 'too few'}`;
  return {
    ...base,
    verdict: 'wrong',
    cause: causes[0]?.message ?? null,
    causes,
    message: `${what}, not ${claimed} (${by})${causes[0] ? `: ${causes[0].message}` : ''}.`,
  };
}

/** A verification that cannot settle the score. */
export function unsettled(
  message: string,
  claimed: number | null,
  extra: { unsure?: UnsureSquare[]; boards?: Verification['boards']; explanation?: Explanation } = {},
): Verification {
  const e = extra.explanation;
  return {
    move: e?.move ?? null,
    words: e?.words ?? [],
    bingo: e?.bingo ?? 0,
    points: null,
    sentence: null,
    claimed,
    verdict: 'unsure',
    cause: null,
    causes: [],
    unsure: extra.unsure ?? [],
    message,
    boards: extra.boards ?? null,
  };
}
