/**
 * tilecam's rules engine: pure TypeScript, no I/O, no Node or DOM APIs, no dependencies.
 * Everything else in tilecam imports it through this file; it imports nothing of theirs.
 */

export * from './blanks.ts';
export * from './board.ts';
export * from './coords.ts';
// The game: events, reducer, unseen tiles, lexicon.
export * from './events.ts';
export * from './game.ts';
// The Scrabble Me variant: a board per player, simultaneous rounds.
export * from './scrabble-me/index.ts';
// GCG.
export * from './gcg/index.ts';
export * from './infer.ts';
export * from './layout.ts';
export * from './lexicon.ts';
// Board, coordinates, and the shape of results.
export * from './result.ts';
export * from './rules.ts';
export * from './score.ts';
// Data: tile sets, board layouts, rules and variants.
export * from './tilesets.ts';
export * from './unseen.ts';
// Placement geometry, move inference and scoring.
export * from './words.ts';
