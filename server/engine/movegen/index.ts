/** The move generator and the analysis of recorded games (docs/design.md, "Best plays"). */
export {
  type AnalyzedTurn,
  type AnalyzeOptions,
  analyzeOneTurn,
  analyzeRecord,
  type PlayedMove,
  type RankedPlay,
  recordPositions,
} from './analyze.ts';
export { Dawg } from './dawg.ts';
export { equity, leaveValue, TILE_LEAVE } from './equity.ts';
export { type GeneratedPlay, generatePlays, listPlays, PlayList } from './generate.ts';
