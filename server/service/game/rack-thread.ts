/**
 * Reading racks off the event loop: one worker thread (rack-worker.mjs), started on first use and kept (unref'd: it
 * never keeps the process alive), reads the racks a seat camera's games look for (frames.ts `readRackIn`), one at a
 * time. A look costs 0.5–3 s of the processor; read here, the game's frames, its viewers and every other game go on
 * being answered meanwhile. Each read has `timeoutMs`; one that takes longer has its thread ended (a fresh one takes
 * the next) and is refused. At most `queue` reads wait; more are refused at once (a look that fails only means no
 * rack is kept: the scorekeeper can type it).
 */
import { Worker } from 'node:worker_threads';
import type { Corners, RackReading } from '../../../vision/index.ts';
import type { TileSetId } from '../../engine/index.ts';

export interface RackReaderOptions {
  /** How long one read may take (a whole look takes 1–3 s here). */
  readonly timeoutMs?: number;
  /** Reads waiting at most. */
  readonly queue?: number;
}

interface Job {
  readonly id: number;
  readonly request: {
    readonly bytes: Uint8Array;
    readonly corners: Corners;
    readonly lang: TileSetId;
    readonly near: number | undefined;
  };
  readonly timeoutMs: number;
  readonly resolve: (reading: RackReading | undefined) => void;
  readonly reject: (err: Error) => void;
}

export class RackReader {
  private worker: Worker | undefined;
  private readonly waiting: Job[] = [];
  private running: { job: Job; timer: NodeJS.Timeout } | undefined;
  private next = 1;
  private readonly timeoutMs: number;
  private readonly queue: number;

  constructor(options: RackReaderOptions = {}) {
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.queue = options.queue ?? 8;
  }

  /**
   * The rack in front of the board in the frame `bytes`, on the grid `corners` (frames.ts `readRackIn`); stopped after
   * `timeoutMs` (the reader's own by default).
   */
  read(
    bytes: Uint8Array,
    corners: Corners,
    lang: TileSetId,
    near?: number,
    timeoutMs = this.timeoutMs,
  ): Promise<RackReading | undefined> {
    if (this.waiting.length >= this.queue)
      return Promise.reject(new Error(`${this.queue} racks are waiting to be read already`));
    return new Promise((resolve, reject) => {
      this.waiting.push({
        id: this.next++,
        request: { bytes, corners, lang, near },
        timeoutMs,
        resolve,
        reject,
      });
      this.pump();
    });
  }

  /** Ends the thread; reads still waiting are refused. */
  async close(): Promise<void> {
    const gone = new Error('the rack reader is closing');
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
      this.fail(job, new Error(`reading the rack took over ${job.timeoutMs / 1000} s: it was stopped`));
    }, job.timeoutMs);
    this.running = { job, timer };
    worker.postMessage({ id: job.id, ...job.request });
  }

  private thread(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(new URL('./rack-worker.mjs', import.meta.url), {
      // Not the parent's flags (a V8 heap flag is refused in a worker).
      execArgv: [],
      resourceLimits: { maxOldGenerationSizeMb: 256 },
    });
    worker.unref();
    worker.on('message', ({ id, reading, error }: { id: number; reading?: RackReading; error?: string }) => {
      const running = this.running;
      if (!running || running.job.id !== id) return;
      clearTimeout(running.timer);
      this.running = undefined;
      if (error === undefined) running.job.resolve(reading);
      else running.job.reject(new Error(error));
      this.pump();
    });
    const lost = (err: Error) => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      if (this.running) this.fail(this.running.job, new Error(`the rack reader failed: ${err.message}`));
    };
    worker.on('error', lost);
    worker.on('exit', (code) => lost(new Error(`its thread ended (${code})`)));
    this.worker = worker;
    return worker;
  }

  /** `job` is refused with `err`, its thread ended (it may still be working), and the next read goes on. */
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

/** The process's rack reader, shared by its games: one thread for them all. */
export const rackReader = new RackReader();
