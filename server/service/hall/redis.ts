/** The work queue's connections to Redis, and every wait on it bounded. */
import type { Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { CLOSE_MS } from './keys.ts';

/** `promise`, or a rejection after `ms`. */
export function within<T>(ms: number, promise: Promise<T>, what = 'Redis'): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer in ${ms} ms`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** Closes a BullMQ worker: its running job may finish for CLOSE_MS, then it is closed by force, and that too is
 *  waited for at most CLOSE_MS (after a Redis restart `close()` may never settle). Never throws. */
export async function closeWorker(worker: Worker): Promise<void> {
  try {
    await within(CLOSE_MS, worker.close(), 'closing the queue');
  } catch {
    await within(CLOSE_MS, worker.close(true), 'closing the queue by force').catch((err: unknown) =>
      console.error(`worker: ${(err as Error).message}: left behind`),
    );
  }
}

export function connect(url: string, options: Record<string, unknown> = {}): Redis {
  const redis = new Redis(url, {
    lazyConnect: true,
    connectTimeout: 5000,
    // Tried again every second at most while Redis is away: a restarted Redis is noticed within a second.
    retryStrategy: (times: number) => Math.min(times * 100, 1000),
    ...options,
  });
  // A dropped connection reconnects by itself; its errors are the log's, not a crash.
  redis.on('error', (err: Error) => console.error(`Redis: ${err.message}`));
  return redis;
}
