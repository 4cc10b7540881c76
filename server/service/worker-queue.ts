/**
 * Work off the event loop: one worker thread (a `.mjs` script that answers each `{ id, …request }` with
 * `{ id, …reply }`), started on first use and kept, takes the requests one at a time. (It is unref'd, but the listener
 * for its answers keeps the process alive while the thread is there: a process that is done calls `close` or exits.)
 * Each request has its time to answer; one that takes longer is refused. At most `queue` requests wait; more are
 * refused at once. The main thread only copies the request over. Used for rescoring GCG records
 * (checks/off-thread.ts) and reading racks (game/rack-thread.ts).
 *
 * The thread of a refused request: where its work is JavaScript, it is ended at once and a fresh one takes the next
 * request. Where its work runs in native code that cannot be stopped (`native`: onnxruntime's `run`, where a thread
 * ended mid-run aborts the whole process, "terminate called after throwing an instance of 'Napi::Error'"), it is
 * kept: its late answer goes nowhere, and the next request waits for it (its model loaded already), RETIRE_MS at most.
 */
import { Worker } from 'node:worker_threads';

export interface WorkerQueueOptions {
  /** How long one request may take, unless it says otherwise. */
  readonly timeoutMs: number;
  /** Requests waiting at most. */
  readonly queue: number;
  /** The thread's heap limit. */
  readonly heapMb: number;
  /**
   * The thread's work runs in native code that must not be cut off (onnxruntime): a thread whose request was
   * refused is not ended while it works. Timed out, it takes the next request once it has answered the refused one;
   * closed, it is ended once it has answered. After `RETIRE_MS` without an answer it is ended anyway.
   */
  readonly native?: boolean;
}

/** The longest a thread of native work still running a refused request is waited for (a run that never ends). */
export const RETIRE_MS = 120_000;

/** The errors a queue refuses with: its callers' words. */
export interface WorkerQueueErrors {
  readonly full: () => Error;
  readonly timedOut: (ms: number) => Error;
  readonly lost: (err: Error) => Error;
  readonly closing: () => Error;
}

interface Job<Res> {
  readonly id: number;
  readonly request: object;
  readonly timeoutMs: number;
  readonly resolve: (result: Res) => void;
  readonly reject: (err: Error) => void;
}

export class WorkerQueue<Req extends object, Res> {
  private worker: Worker | undefined;
  private readonly waiting: Job<Res>[] = [];
  private running: { job: Job<Res>; timer: NodeJS.Timeout } | undefined;
  /** `native`: the thread still runs a request refused for its time; the next waits for its answer (or this timer). */
  private draining: NodeJS.Timeout | undefined;
  private next = 1;
  /** Threads being ended (a `native` one once it has answered). */
  private readonly ending = new Set<Promise<void>>();

  constructor(
    private readonly script: URL,
    /** A reply (the worker's message less its id) as the result, or the error it is refused with. */
    private readonly answer: (reply: Record<string, unknown>) => Res | Error,
    private readonly options: WorkerQueueOptions,
    private readonly errors: WorkerQueueErrors,
  ) {}

  run(request: Req, timeoutMs = this.options.timeoutMs): Promise<Res> {
    if (this.waiting.length >= this.options.queue) return Promise.reject(this.errors.full());
    return new Promise((resolve, reject) => {
      this.waiting.push({ id: this.next++, request, timeoutMs, resolve, reject });
      this.pump();
    });
  }

  /** Ends the thread; requests still waiting are refused. Resolves once the thread has ended (a `native` one still
   *  working, when it has answered). A request after this starts a fresh thread. */
  async close(): Promise<void> {
    const gone = this.errors.closing();
    for (const job of this.waiting.splice(0)) job.reject(gone);
    const busy = this.running !== undefined || this.draining !== undefined;
    if (this.running) {
      clearTimeout(this.running.timer);
      this.running.job.reject(gone);
      this.running = undefined;
    }
    clearTimeout(this.draining);
    this.draining = undefined;
    const worker = this.worker;
    this.worker = undefined;
    if (worker) this.end(worker, busy);
    await Promise.all(this.ending);
  }

  private pump(): void {
    if (this.running || this.draining) return;
    const job = this.waiting.shift();
    if (!job) return;
    const worker = this.thread();
    const timer = setTimeout(() => this.fail(job, this.errors.timedOut(job.timeoutMs)), job.timeoutMs);
    this.running = { job, timer };
    worker.postMessage({ ...job.request, id: job.id });
  }

  private thread(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(this.script, {
      // Not the parent's flags (a V8 heap flag is refused in a worker).
      execArgv: [],
      resourceLimits: { maxOldGenerationSizeMb: this.options.heapMb },
    });
    worker.unref();
    worker.on('message', ({ id, ...reply }: { id: number } & Record<string, unknown>) => {
      if (this.draining && this.worker === worker) {
        // The refused request's answer, late: the thread is free again.
        clearTimeout(this.draining);
        this.draining = undefined;
        this.pump();
        return;
      }
      const running = this.running;
      if (!running || running.job.id !== id) return;
      clearTimeout(running.timer);
      this.running = undefined;
      const result = this.answer(reply);
      if (result instanceof Error) running.job.reject(result);
      else running.job.resolve(result);
      this.pump();
    });
    const lost = (err: Error) => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      if (this.draining) {
        clearTimeout(this.draining);
        this.draining = undefined;
        this.pump();
      }
      if (this.running) this.fail(this.running.job, this.errors.lost(err));
    };
    worker.on('error', lost);
    worker.on('exit', (code) => lost(new Error(`its thread ended (${code})`)));
    this.worker = worker;
    return worker;
  }

  /**
   * `job` is refused with `err`, and the next request goes on: its thread, still working, is ended (JavaScript), or
   * kept to take the next once it has answered (`native`, RETIRE_MS at most); a thread lost is gone already.
   */
  private fail(job: Job<Res>, err: Error): void {
    if (this.running?.job === job) {
      clearTimeout(this.running.timer);
      this.running = undefined;
    }
    const worker = this.worker;
    if (worker && this.options.native) {
      this.draining = setTimeout(() => {
        // No answer in RETIRE_MS: the run never ends; the thread is ended, whatever it risks.
        this.draining = undefined;
        if (this.worker === worker) this.worker = undefined;
        this.end(worker, false);
        this.pump();
      }, RETIRE_MS);
      this.draining.unref();
      job.reject(err);
      return;
    }
    this.worker = undefined;
    if (worker) this.end(worker, false);
    job.reject(err);
    this.pump();
  }

  /**
   * Ends `worker`, taken off the queue: at once, or where it is `busy` with native work, once it answers (its answer
   * goes nowhere) or after RETIRE_MS.
   */
  private end(worker: Worker, busy: boolean): void {
    worker.removeAllListeners('message');
    let ended: Promise<void>;
    if (!busy || !this.options.native) ended = worker.terminate().then(() => {});
    else
      ended = new Promise<void>((resolve) => {
        const stop = () => {
          clearTimeout(timer);
          worker.terminate().then(
            () => resolve(),
            () => resolve(),
          );
        };
        const timer = setTimeout(stop, RETIRE_MS);
        worker.once('message', stop);
        worker.once('exit', stop);
      });
    this.ending.add(ended);
    void ended.finally(() => this.ending.delete(ended));
  }
}
