/**
 * The service as the rest of the server sees it: http/ and cli/ import it only from here. What is not exported here
 * (the sessions' inner parts, the hall's queue internals, the frame intake) is the service's own.
 */
export { type GameBus, RedisBus } from './bus.ts';
export { CheckService, type Upload } from './checks.ts';
export { type ErrorCode, errorStatus, ServiceError } from './errors.ts';
export { type FieldName, fieldNames, fieldsOf } from './fields.ts';
export { readingOptions } from './frames.ts';
export { defaultLimits, type Limits, photoCaps, type SourcePolicy } from './limits.ts';
export { GameService, type Session } from './service.ts';
export type { CaptureTiming } from './session.ts';
export { SharedSources } from './sources.ts';
export { parseGameConfig, parseListQuery, parseSourceRequest, parseVersion } from './validate.ts';
export { verifyAnnouncedPhoto, verifyPhotos } from './verify.ts';
export { WorkQueue } from './work.ts';
