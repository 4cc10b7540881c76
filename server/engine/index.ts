/**
 * tilecam's rules engine: pure TypeScript, no I/O, no Node or DOM APIs, no dependencies.
 * Everything else in tilecam imports it through this file; it imports nothing of theirs.
 * Data: tile sets, layout, rules. Board, coordinates, results. Placement geometry, move inference, scoring.
 * The game: events, reducer, unseen tiles, lexicon, blanks. The Scrabble Me variant. GCG.
 */

export * from './blanks.ts';
export * from './board.ts';
export * from './coords.ts';
export * from './events.ts';
export * from './explain.ts';
export * from './game.ts';
export * from './gcg/index.ts';
export * from './infer.ts';
export * from './layout.ts';
export * from './lexicon.ts';
export * from './movegen/index.ts';
export * from './racks-left.ts';
export * from './result.ts';
export * from './rules.ts';
export * from './score.ts';
export * from './scrabble-me/history.ts';
export * from './scrabble-me/index.ts';
export * from './tilesets.ts';
export * from './unseen.ts';
export * from './words.ts';
