/**
 * Rescoring GCG records off the event loop (worker-queue.ts, gcg-worker.mjs): one thread takes the records one at a
 * time. Each has `timeoutMs` to answer; one that takes longer has its thread ended and is refused. At most `queue`
 * records wait; more are answered 503 at once. However large or hostile the record, the service keeps answering.
 */
import type { GcgCheck } from '../../protocol/index.ts';
import { ServiceError } from '../errors.ts';
import { WorkerQueue } from '../worker-queue.ts';
import type { GcgOutcome } from './gcg-check.ts';

export interface RescorerOptions {
  /** How long one record may take (the largest real record takes a few ms; the largest allowed, under 100). */
  readonly timeoutMs?: number;
  /** Records waiting at most. */
  readonly queue?: number;
}

export class GcgRescorer {
  private readonly queue: WorkerQueue<{ bytes: Uint8Array; lang: string | undefined }, GcgCheck>;

  constructor(options: RescorerOptions = {}) {
    this.queue = new WorkerQueue<{ bytes: Uint8Array; lang: string | undefined }, GcgCheck>(
      new URL('./gcg-worker.mjs', import.meta.url),
      (reply) => {
        const outcome = reply.outcome as GcgOutcome;
        return outcome.ok ? outcome.check : new ServiceError('bad-request', outcome.message);
      },
      // A record cannot take more heap than this.
      { timeoutMs: options.timeoutMs ?? 5_000, queue: options.queue ?? 16, heapMb: 256 },
      {
        full: () =>
          new ServiceError('unavailable', 'too many records are being rescored: try again in a few seconds'),
        timedOut: (ms) =>
          new ServiceError('too-large', `the record took over ${ms / 1000} s to rescore: it was stopped`),
        lost: (err) => new Error(`rescoring failed: ${err.message}`),
        closing: () => new ServiceError('unavailable', 'the service is closing'),
      },
    );
  }

  rescore(bytes: Uint8Array, lang?: string): Promise<GcgCheck> {
    return this.queue.run({ bytes, lang });
  }

  /** Ends the thread (the service closing); records still waiting are refused. */
  close(): Promise<void> {
    return this.queue.close();
  }
}
