/**
 * Work off the event loop: one worker thread (a `.mjs` script that answers each `{ id, …request }` with
 * `{ id, …reply }`), started on first use and kept (unref'd: it never keeps the process alive), takes the requests one
 * at a time. Each has its time to answer; one that takes longer has its thread ended (a fresh one takes the next) and
 * is refused. At most `queue` requests wait; more are refused at once. The main thread only copies the request over.
 * Used for rescoring GCG records (checks/off-thread.ts) and reading racks (game/rack-thread.ts).
 */
import { Worker } from 'node:worker_threads';

export interface WorkerQueueOptions {
  /** How long one request may take, unless it says otherwise. */
  readonly timeoutMs: number;
  /** Requests waiting at most. */
  readonly queue: number;
  /** The thread's heap limit. */
  readonly heapMb: number;
}

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

  /** Ends the thread; requests still waiting are refused. */
  async close(): Promise<void> {
    const gone = this.errors.closing();
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
    if (worker) void worker.terminate();
    job.reject(err);
    this.pump();
  }
}
