/** Expected failures of the service, with a stable code, a message for people and the HTTP status they map to. */
export const errorStatus = {
  'bad-request': 400,
  'bad-image': 422,
  'no-board': 422,
  unauthorized: 401,
  forbidden: 403,
  'not-found': 404,
  'not-allowed': 409,
  /** The request was made against an older version of the game (a doubled or retried End turn). */
  stale: 409,
  'too-large': 413,
  'unsupported-media': 415,
  'rate-limited': 429,
  /** The work queue is not answering (no `tilecam worker` running on its Redis). */
  unavailable: 503,
} as const;

export type ErrorCode = keyof typeof errorStatus;

export class ServiceError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    /** `rate-limited`: how long until the request would be admitted (HTTP answers it as Retry-After). */
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = 'ServiceError';
  }

  get status(): number {
    return errorStatus[this.code];
  }
}
