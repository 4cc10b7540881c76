/**
 * Rescoring GCG records off the event loop: one worker thread (gcg-worker.mjs), started on first use and kept,
 * takes the records one at a time. Each has `timeoutMs` to answer; one that takes longer has its thread ended (a
 * fresh one takes the next) and is refused. At most `queue` records wait; more are answered 503 at once. The main
 * thread only copies the bytes over: however large or hostile the record, the service keeps answering.
 */
import { Worker } from 'node:worker_threads';
import type { GcgCheck } from '../../protocol/index.ts';
import { ServiceError } from '../errors.ts';
import type { GcgOutcome } from './gcg-check.ts';

export interface RescorerOptions {
  /** How long one record may take (the largest real record takes a few ms; the largest allowed, under 100). */
  readonly timeoutMs?: number;
  /** Records waiting at most. */
  readonly queue?: number;
}

interface Job {
  readonly id: number;
  readonly bytes: Uint8Array;
  readonly lang: string | undefined;
  readonly resolve: (check: GcgCheck) => void;
  readonly reject: (err: Error) => void;
}

export class GcgRescorer {
  private worker: Worker | undefined;
  private readonly waiting: Job[] = [];
  private running: { job: Job; timer: NodeJS.Timeout } | undefined;
  private next = 1;
  private readonly timeoutMs: number;
  private readonly queue: number;

  constructor(options: RescorerOptions = {}) {
    this.timeoutMs = options.timeoutMs ?? 5_000;
    this.queue = options.queue ?? 16;
  }

  rescore(bytes: Uint8Array, lang?: string): Promise<GcgCheck> {
    if (this.waiting.length >= this.queue)
      return Promise.reject(
        new ServiceError('unavailable', 'too many records are being rescored: try again in a few seconds'),
      );
    return new Promise((resolve, reject) => {
      this.waiting.push({ id: this.next++, bytes, lang, resolve, reject });
      this.pump();
    });
  }

  /** Ends the thread (the service closing); records still waiting are refused. */
  async close(): Promise<void> {
    const gone = new ServiceError('unavailable', 'the service is closing');
    for (const job of this.waiting.splice(0)) job.reject(gone);
    if (this.running) {
      clearTimeout(this.running.timer);
      this.running.job.reject(gone);
      this.running = undefined;
    }
    const worker = this.worker;
    this.worker = undefined;
    if (worker) await worker.terminate();
  }

  private pump(): void {
    if (this.running) return;
    const job = this.waiting.shift();
    if (!job) return;
    const worker = this.thread();
    const timer = setTimeout(() => {
      this.fail(
        job,
        new ServiceError(
          'too-large',
          `the record took over ${this.timeoutMs / 1000} s to rescore: it was stopped`,
        ),
      );
    }, this.timeoutMs);
    this.running = { job, timer };
    worker.postMessage({ id: job.id, bytes: job.bytes, lang: job.lang });
  }

  private thread(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(new URL('./gcg-worker.mjs', import.meta.url), {
      // Not the parent's flags (a V8 heap flag is refused in a worker); a record cannot take more than this.
      execArgv: [],
      resourceLimits: { maxOldGenerationSizeMb: 256 },
    });
    worker.unref();
    worker.on('message', ({ id, outcome }: { id: number; outcome: GcgOutcome }) => {
      const running = this.running;
      if (!running || running.job.id !== id) return;
      clearTimeout(running.timer);
      this.running = undefined;
      if (outcome.ok) running.job.resolve(outcome.check);
      else running.job.reject(new ServiceError('bad-request', outcome.message));
      this.pump();
    });
    const lost = (err: Error) => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      if (this.running) this.fail(this.running.job, new Error(`rescoring failed: ${err.message}`));
    };
    worker.on('error', lost);
    worker.on('exit', (code) => lost(new Error(`its thread ended (${code})`)));
    this.worker = worker;
    return worker;
  }

  /** `job` is refused with `err`, its thread ended (it may still be working), and the next record goes on. */
  private fail(job: Job, err: Error): void {
    if (this.running?.job === job) {
      clearTimeout(this.running.timer);
      this.running = undefined;
    }
    const worker = this.worker;
    this.worker = undefined;
    if (worker) void worker.terminate();
    job.reject(err);
    this.pump();
  }
}
