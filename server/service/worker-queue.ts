/**
 * Work off the event loop: one worker thread (a `.mjs` script that answers each `{ id, …request }` with
 * `{ id, …reply }`), started on first use and kept (unref'd: it never keeps the process alive), takes the requests one
 * at a time. Each has its time to answer; one that takes longer is refused, and a fresh thread takes the next. At most
 * `queue` requests wait; more are refused at once. The main thread only copies the request over. Used for rescoring
 * GCG records (checks/off-thread.ts) and reading racks (game/rack-thread.ts).
 *
 * A thread whose request was refused is ended: at once where its work is JavaScript (`native` false), once it has
 * answered where its work runs in native code that cannot be stopped (onnxruntime's `run`: a thread ended while a
 * run is in flight aborts the whole process, "terminate called after throwing an instance of 'Napi::Error'").
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
   * refused (too slow, or the queue closed) is ended only once it has answered, or after `RETIRE_MS` without an
   * answer. Meanwhile it takes no request, and a fresh thread takes the next.
   */
  readonly native?: boolean;
}

/** The longest a refused thread of native work is waited for before it is ended anyway (a run that never ends). */
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
  private next = 1;
  /** Threads refused work still runs on (`native`), each until it has ended. */
  private readonly retiring = new Set<Promise<void>>();

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

  /** Ends the thread; requests still waiting are refused. Resolves once every thread has ended (a `native` one
   *  still working, when it has answered). A request after this starts a fresh thread. */
  async close(): Promise<void> {
    const gone = this.errors.closing();
    for (const job of this.waiting.splice(0)) job.reject(gone);
    const busy = this.running !== undefined;
    if (this.running) {
      clearTimeout(this.running.timer);
      this.running.job.reject(gone);
      this.running = undefined;
    }
    const worker = this.worker;
    this.worker = undefined;
    if (worker) this.end(worker, busy);
    await Promise.all(this.retiring);
  }

  /** Threads started and not yet ended: the working one and those `native` work still runs on. */
  get threads(): number {
    return (this.worker ? 1 : 0) + this.retiring.size;
  }

  private pump(): void {
    if (this.running) return;
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
      if (this.running) this.fail(this.running.job, this.errors.lost(err));
    };
    worker.on('error', lost);
    worker.on('exit', (code) => lost(new Error(`its thread ended (${code})`)));
    this.worker = worker;
    return worker;
  }

  /** `job` is refused with `err`, its thread ended (it may still be working), and the next request goes on. */
  private fail(job: Job<Res>, err: Error): void {
    if (this.running?.job === job) {
      clearTimeout(this.running.timer);
      this.running = undefined;
    }
    const worker = this.worker;
    this.worker = undefined;
    if (worker) this.end(worker, true);
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
        timer.unref();
        worker.once('message', stop);
        worker.once('exit', stop);
      });
    this.retiring.add(ended);
    void ended.finally(() => this.retiring.delete(ended));
  }
}
