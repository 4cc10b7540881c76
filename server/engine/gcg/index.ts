/** GCG: decode bytes, read to a document, write it back, replay it through the engine. */
export { type DecodeFailure, decodeGcg } from './decode.ts';
export { gcgFromGame, recordedRack } from './export.ts';
export {
  type GcgDocument,
  type GcgEntry,
  type GcgFailure,
  type GcgLine,
  type GcgPlayer,
  MAX_GCG_MOVES,
  readGcg,
} from './read.ts';
export {
  type Mismatch,
  placementsFromNotation,
  placementsOf,
  type ReplayOptions,
  type ReplayReport,
  replayGcg,
} from './replay.ts';
export { formatEntry, writeGcg } from './write.ts';
