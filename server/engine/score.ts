/**
 * Scoring of a play with a breakdown per word: letter values, letter premiums and word multipliers only under the
 * tiles placed this turn, blanks worth 0 but still taking word premiums, each word formed scored (a shared letter in
 * each), and the bingo bonus. Pure arithmetic over the board; no legality checks.
 */
import { type Board, type Placement, tileAt } from './board.ts';
import type { Direction } from './coords.ts';
import { premiumAt } from './layout.ts';
import type { Square } from './result.ts';
import type { GameRules } from './rules.ts';
import { tileValue } from './tilesets.ts';
import { type WordSpan, wordsFormed } from './words.ts';

export interface LetterScore extends Square {
  readonly tile: string;
  /** Face value (0 for a blank). */
  readonly value: number;
  /** 2 or 3 on a letter premium under a new tile, else 1. */
  readonly letterMultiplier: number;
  readonly placed: boolean;
}

export interface WordScore {
  /** The word as on the board: uppercase letters, lowercase for blanks, `?` for an unnamed blank. */
  readonly word: string;
  readonly start: Square;
  readonly direction: Direction;
  readonly letters: readonly LetterScore[];
  readonly wordMultiplier: number;
  readonly score: number;
}

export interface PlayScore {
  readonly words: readonly WordScore[];
  readonly tilesPlayed: number;
  readonly bingo: number;
  readonly score: number;
}

/** Scores a word span on `after`, where `placed` holds the squares covered this turn (`row * size + col`). */
export function scoreWord(
  after: Board,
  span: WordSpan,
  placed: ReadonlySet<number>,
  rules: GameRules,
): WordScore {
  let sum = 0;
  let wordMultiplier = 1;
  const letters: LetterScore[] = [];
  let word = '';
  for (const { row, col } of span.squares) {
    const tile = tileAt(after, row, col)!;
    const isNew = placed.has(row * after.size + col);
    const premium = isNew ? premiumAt(rules.layout, row, col) : undefined;
    const value = tileValue(rules.tileSet, tile) ?? 0;
    const letterMultiplier = premium?.letter ?? 1;
    wordMultiplier *= premium?.word ?? 1;
    sum += value * letterMultiplier;
    word += tile;
    letters.push({ row, col, tile, value, letterMultiplier, placed: isNew });
  }
  return {
    word,
    start: span.start,
    direction: span.direction,
    letters,
    wordMultiplier,
    score: sum * wordMultiplier,
  };
}

/** Scores placements already put on `after`, reading the main word along `direction`. */
export function scorePlay(
  after: Board,
  placements: readonly Placement[],
  direction: Direction,
  rules: GameRules,
): PlayScore {
  const placed = new Set(placements.map((p) => p.row * after.size + p.col));
  const words = wordsFormed(after, placements, direction).map((span) =>
    scoreWord(after, span, placed, rules),
  );
  const bingo = placements.length >= rules.bingo.minTiles ? rules.bingo.bonus : 0;
  const score = words.reduce((sum, w) => sum + w.score, bingo);
  return { words, tilesPlayed: placements.length, bingo, score };
}
