/**
 * Reading racks off the event loop (worker-queue.ts, rack-worker.mjs): one thread, started with the first look and
 * shared by the process's games, reads the racks a seat camera's games look for (frames.ts `readRackIn`), one at a
 * time. A look costs 0.5–3 s of the processor; read there, the game's frames, its viewers and every other game go on
 * being answered meanwhile. A read that takes longer than its time has its thread ended and is refused; at most
 * `queue` reads wait, more are refused at once (a look that fails only means no rack is kept: the scorekeeper can
 * type it).
 */
import type { Corners, RackReading } from '../../../vision/index.ts';
import type { TileSetId } from '../../engine/index.ts';
import { WorkerQueue } from '../worker-queue.ts';

export interface RackReaderOptions {
  /** How long one read may take (a whole look takes 1–3 s here). */
  readonly timeoutMs?: number;
  /** Reads waiting at most. */
  readonly queue?: number;
}

interface RackRequest {
  readonly bytes: Uint8Array;
  readonly corners: Corners | undefined;
  readonly lang: TileSetId;
  readonly near: number | undefined;
}

export class RackReader {
  private readonly queue: WorkerQueue<RackRequest, RackReading | undefined>;

  constructor(options: RackReaderOptions = {}) {
    const waiting = options.queue ?? 8;
    this.queue = new WorkerQueue<RackRequest, RackReading | undefined>(
      new URL('./rack-worker.mjs', import.meta.url),
      ({ reading, error }) =>
        error === undefined ? (reading as RackReading | undefined) : new Error(String(error)),
      { timeoutMs: options.timeoutMs ?? 30_000, queue: waiting, heapMb: 256, native: true },
      {
        full: () => new Error(`${waiting} racks are waiting to be read already`),
        timedOut: (ms) => new Error(`reading the rack took over ${ms / 1000} s: it was stopped`),
        lost: (err) => new Error(`the rack reader failed: ${err.message}`),
        // A look cut short as the process stops: an abort, which the game does not report (rack-seen.ts).
        closing: () => Object.assign(new Error('the rack reader is closing'), { name: 'AbortError' }),
      },
    );
  }

  /**
   * The rack in front of the board in the frame `bytes`, on the grid `corners`, or on the grid found in it without them
   * (frames.ts `readRackIn`); stopped after `timeoutMs` (the reader's own by default).
   */
  read(
    bytes: Uint8Array,
    corners: Corners | undefined,
    lang: TileSetId,
    near?: number,
    timeoutMs?: number,
  ): Promise<RackReading | undefined> {
    return this.queue.run({ bytes, corners, lang, near }, timeoutMs);
  }

  /** Ends the thread; reads still waiting are refused. Resolves once no read runs (onnxruntime's, cut off, would abort
   *  the process); a read after this starts a fresh thread. */
  close(): Promise<void> {
    return this.queue.close();
  }
}

/** The process's rack reader, shared by its games: one thread for them all. */
export const rackReader = new RackReader();
