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
  /** A dependency is out of reach (the database, Redis) or the work queue is not answering (no `tilecam worker`
   *  running on its Redis): nothing was recorded, the request may be sent again. */
  unavailable: 503,
  /** The request was handed over but its answer was lost (Redis restarted or was away): it may have been recorded.
   *  The client reloads the game before it sends anything again. */
  unknown: 503,
  /** The ceiling on photos kept (`--limit photoBytesTotal`) is reached and nothing can be thinned. */
  'storage-full': 507,
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

/**
 * A ServiceError `unavailable` naming the dependency (`the database`, `Redis`) when `err` is one of its connection
 * failures (refused, reset, timed out, shutting down), never its address; undefined for anything else.
 */
export function outage(err: unknown, dependency: string, outcome: string): ServiceError | undefined {
  if (err instanceof ServiceError) return undefined;
  const e = err as { code?: unknown; message?: unknown } | null;
  const code = typeof e?.code === 'string' ? e.code : '';
  const message = typeof e?.message === 'string' ? e.message : '';
  const lost =
    /^(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|EHOSTUNREACH|ENOTFOUND|EAI_AGAIN|57P0[1-3]|08\w{3})$/.test(
      code,
    ) ||
    /Connection terminated|connection (is )?closed|Connection is closed|shutting down|timeout exceeded when trying to connect|Client has encountered a connection error|MaxRetriesPerRequest|Stream isn't writeable|ECONNREFUSED/i.test(
      message,
    );
  return lost ? new ServiceError('unavailable', `${dependency} is out of reach: ${outcome}`) : undefined;
}

/** A store call's failure as the client's answer: the database out of reach is `unavailable`, never its address. */
export function storeOutage(outcome: string): (err: unknown) => never {
  return (err) => {
    throw outage(err, 'the database', outcome) ?? err;
  };
}
