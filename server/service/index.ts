/**
 * The service as the rest of the server sees it: http/ and cli/ import it only from here. What is not exported here
 * (the sessions' inner parts, the hall's queue internals, the frame intake) is the service's own.
 */

export { analyzeGame, analyzeTurn } from './analysis.ts';
export { CheckService, type Upload } from './checks/checks.ts';
export { verifyAnnouncedPhoto, verifyPhotos } from './checks/verify.ts';
export { type ErrorCode, errorStatus, ServiceError } from './errors.ts';
export type { CaptureTiming } from './game/classic.ts';
export { type FieldName, fieldNames, fieldsOf } from './game/fields.ts';
export { readingOptions } from './game/frames.ts';
export { rackReader } from './game/rack-thread.ts';
export { type GameBus, RedisBus } from './hall/bus.ts';
export { SharedSources } from './hall/sources.ts';
export { WorkQueue } from './hall/work.ts';
export {
  defaultLimits,
  type Limits,
  parseLimits,
  photoCaps,
  type SourcePolicy,
  sourcePolicies,
} from './limits.ts';
export { GameService, type GameView, type Session } from './service.ts';
export {
  parseAnalysisRequest,
  parseGameConfig,
  parseListQuery,
  parseSourceRequest,
  parseVersion,
} from './validate.ts';
