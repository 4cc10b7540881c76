/**
 * Game work through a queue, for a hall of many boards: the instances that people and cameras talk to hand every
 * frame and every scorekeeper action to `tilecam worker` processes through BullMQ on Redis, and the workers read the
 * frames and record the moves.
 *
 * - **Order.** A game's work goes to one of PARTITIONS queues (by a hash of its id). Each queue runs one job at a
 *   time over all workers together (BullMQ's global concurrency of 1), first in first out: a game's frames and
 *   actions are decided in the order the instances handed them over, whichever worker takes them.
 * - **Affinity.** A worker reads a game's frames as one steady camera (vision's Camera: the last grid tried first,
 *   only the squares that changed read again), which needs the same worker for a game's frames. Workers announce
 *   themselves in Redis (a heartbeat) and share the queues out by rendezvous hashing over the live ones: each queue
 *   is consumed by one worker, and only a worker joining or leaving moves some queues to another. A worker that
 *   takes a queue over drops the games of that queue it had in memory: they are read again from the store.
 * - **Exactly once.** A move is recorded by the store's append, which refuses an event number already taken
 *   (StoreConflict): never by one process's memory.
 * - **A worker killed mid-frame loses nothing.** Its job's lock runs out, BullMQ moves it back to the front of its
 *   queue, and the worker now owning the queue reads the frame again: a move already recorded before the kill reads
 *   as nothing new, one not recorded is recorded then.
 * - **Answers.** The worker publishes each job's result on the channel of the instance that handed it over, which
 *   answers its client with it (a job nobody answers in ANSWER_MS is `unavailable`: no worker is running).
 */
import { createHash, randomUUID } from 'node:crypto';
import { type Job, Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import type { Corners } from '../../vision/index.ts';
import type { FrameResult } from '../protocol/index.ts';
import { type ErrorCode, errorStatus, ServiceError } from './errors.ts';

/** How many queues a hall's games are spread over (the most workers that can share the work). */
export const PARTITIONS = 16;
/** A worker not heard from for this long is gone: its queues go to the others. */
const GONE_MS = 6000;
const HEARTBEAT_MS = 1000;
/** A job's lock: a worker killed mid-job has its job taken again within about this and half of it. */
const LOCK_MS = 4000;
/** How long an instance waits for a job's answer. */
const ANSWER_MS = 60_000;
const WORKERS_KEY = 'tilecam:workers';
const queueName = (p: number) => `tilecam-work-${p}`;
const replies = (instance: string) => `tilecam:replies:${instance}`;

/** A piece of one game's work. */
export type WorkJob =
  | {
      readonly kind: 'frame';
      readonly game: string;
      /** The frame's bytes, base64. */
      readonly frame: string;
      readonly endTurn: boolean;
      readonly camera: number;
      readonly version?: number;
    }
  | { readonly kind: 'act'; readonly game: string; readonly action: unknown; readonly version?: number };

interface WorkData {
  readonly id: string;
  /** The channel the instance that handed the job over listens on. */
  readonly reply: string;
  readonly job: WorkJob;
}

interface Reply {
  readonly id: string;
  readonly result?: FrameResult;
  readonly error?: { readonly code: ErrorCode; readonly message: string };
  /** A frame read: where the grid was found in it (for the camera's page at the instance). */
  readonly grid?: Corners;
}

/** A job's answer: the game's, and for a frame read, where the grid was found in it. */
export interface WorkAnswer {
  readonly result: FrameResult;
  readonly grid?: Corners;
}

/** The queue a game's work goes to. */
export function partitionOf(game: string): number {
  return createHash('sha256').update(game).digest().readUInt32BE(0) % PARTITIONS;
}

/** The worker of `live` that consumes queue `p`: the highest hash of the pair (rendezvous hashing). */
export function ownerOf(p: number, live: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestHash = -1;
  for (const worker of live) {
    const h = createHash('sha256').update(`${worker}/${p}`).digest().readUInt32BE(0);
    if (h > bestHash || (h === bestHash && worker < best!)) {
      best = worker;
      bestHash = h;
    }
  }
  return best;
}

function connect(url: string, options: Record<string, unknown> = {}): Redis {
  const redis = new Redis(url, { lazyConnect: true, connectTimeout: 5000, ...options });
  // A dropped connection reconnects by itself; its errors are the log's, not a crash.
  redis.on('error', (err: Error) => console.error(`Redis: ${err.message}`));
  return redis;
}

/** An instance's side: hands work over and waits for its answer. */
export class WorkQueue {
  private readonly instance = randomUUID();
  private readonly queues: Queue[] = [];
  private readonly waiting = new Map<
    string,
    { resolve: (r: WorkAnswer) => void; reject: (e: unknown) => void; timer: NodeJS.Timeout }
  >();

  private constructor(
    private readonly commands: Redis,
    private readonly sub: Redis,
  ) {
    for (let p = 0; p < PARTITIONS; p++) this.queues.push(new Queue(queueName(p), { connection: commands }));
    sub.on('message', (_channel: string, text: string) => this.answer(text));
  }

  static async open(url: string): Promise<WorkQueue> {
    const commands = connect(url, { maxRetriesPerRequest: 3 });
    const sub = connect(url);
    try {
      await Promise.all([commands.connect(), sub.connect()]);
      const queue = new WorkQueue(commands, sub);
      await sub.subscribe(replies(queue.instance));
      await Promise.all(queue.queues.map((q) => q.setGlobalConcurrency(1)));
      return queue;
    } catch (err) {
      commands.disconnect();
      sub.disconnect();
      throw err;
    }
  }

  /** Hands `job` to the workers; resolves with the game's answer, or throws its ServiceError. */
  async run(job: WorkJob): Promise<WorkAnswer> {
    const id = randomUUID();
    const answered = new Promise<WorkAnswer>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(id);
        reject(
          new ServiceError(
            'unavailable',
            `no worker answered in ${ANSWER_MS / 1000} s: is a \`tilecam worker\` running on this Redis?`,
          ),
        );
      }, ANSWER_MS);
      this.waiting.set(id, { resolve, reject, timer });
    });
    // The answer may come before the job's hand-over below is acknowledged: a refusal arriving then is not left
    // unhandled (it would end the process); it is thrown to the caller below.
    answered.catch(() => {});
    const data: WorkData = { id, reply: replies(this.instance), job };
    try {
      await this.queues[partitionOf(job.game)]!.add(job.kind, data, {
        jobId: id,
        attempts: 3,
        backoff: { type: 'fixed', delay: 500 },
        removeOnComplete: true,
        removeOnFail: 100,
      });
    } catch (err) {
      const waiting = this.waiting.get(id);
      if (waiting) clearTimeout(waiting.timer);
      this.waiting.delete(id);
      throw new ServiceError('unavailable', `the work queue cannot be reached: ${(err as Error).message}`);
    }
    return answered;
  }

  private answer(text: string): void {
    let reply: Reply;
    try {
      reply = JSON.parse(text) as Reply;
    } catch {
      return;
    }
    const waiting = typeof reply.id === 'string' ? this.waiting.get(reply.id) : undefined;
    // A job read twice (its worker killed after answering) answers twice: the first answer stands.
    if (!waiting) return;
    this.waiting.delete(reply.id);
    clearTimeout(waiting.timer);
    if (reply.error && reply.error.code in errorStatus)
      waiting.reject(new ServiceError(reply.error.code, String(reply.error.message)));
    else if (reply.result)
      waiting.resolve(reply.grid ? { result: reply.result, grid: reply.grid } : { result: reply.result });
    else waiting.reject(new Error('a worker answered a job with neither a result nor an error'));
  }

  async close(): Promise<void> {
    for (const { reject, timer } of this.waiting.values()) {
      clearTimeout(timer);
      reject(new ServiceError('unavailable', 'the server is shutting down'));
    }
    this.waiting.clear();
    await Promise.allSettled(this.queues.map((q) => q.close()));
    await Promise.allSettled([this.sub.quit(), this.commands.quit()]);
  }
}

/** What a worker does with a job: the game service's own work, in this process. */
export interface WorkHandler {
  frame(
    game: string,
    bytes: Uint8Array,
    endTurn: boolean,
    camera: number,
    version?: number,
  ): Promise<FrameResult>;
  act(game: string, action: unknown, version?: number): Promise<FrameResult>;
  /** Where the grid was found in `frame` of `game`, if it was read here. */
  gridOf(game: string, frame: Uint8Array): Corners | undefined;
  /** Forgets what is in memory of the games of queue `p` (another worker may have changed them meanwhile). */
  dropPartition(p: number): void;
}

/** A `tilecam worker`'s side: takes the jobs of the queues it owns, one at a time each. */
export class WorkConsumer {
  readonly id = randomUUID();
  private readonly workers = new Map<number, Worker>();
  private readonly heartbeat: NodeJS.Timeout;
  private reconciling = Promise.resolve();
  private closed = false;
  /** Jobs answered, and how many of them were read again after a worker was lost. */
  readonly done = { jobs: 0, retried: 0 };

  private constructor(
    private readonly url: string,
    private readonly commands: Redis,
    private readonly handler: WorkHandler,
  ) {
    this.heartbeat = setInterval(() => this.beat(), HEARTBEAT_MS);
  }

  static async start(url: string, handler: WorkHandler): Promise<WorkConsumer> {
    const commands = connect(url, { maxRetriesPerRequest: 3 });
    await commands.connect();
    const consumer = new WorkConsumer(url, commands, handler);
    await consumer.beat();
    return consumer;
  }

  /** The queues this worker consumes now. */
  get partitions(): number[] {
    return [...this.workers.keys()].sort((a, b) => a - b);
  }

  /** Says it is alive, and takes up or gives up queues as the live workers changed. */
  private beat(): Promise<void> {
    this.reconciling = this.reconciling
      .then(async () => {
        if (this.closed) return;
        const now = Date.now();
        await this.commands
          .multi()
          .zadd(WORKERS_KEY, now, this.id)
          .zremrangebyscore(WORKERS_KEY, 0, now - GONE_MS)
          .exec();
        const live = await this.commands.zrange(WORKERS_KEY, '0', '-1');
        await this.reconcile(live);
      })
      .catch((err: unknown) => console.error(`worker: ${(err as Error).message}`));
    return this.reconciling;
  }

  private async reconcile(live: readonly string[]): Promise<void> {
    const mine = new Set<number>();
    for (let p = 0; p < PARTITIONS; p++) if (ownerOf(p, live) === this.id) mine.add(p);
    // Queues given up first: their running job finishes here before another worker may take the next.
    await Promise.all(
      [...this.workers.entries()]
        .filter(([p]) => !mine.has(p))
        .map(async ([p, worker]) => {
          this.workers.delete(p);
          await worker.close();
        }),
    );
    for (const p of mine) {
      if (this.workers.has(p)) continue;
      this.handler.dropPartition(p);
      const worker = new Worker(queueName(p), (job: Job<WorkData>) => this.process(job), {
        connection: { url: this.url, maxRetriesPerRequest: null },
        concurrency: 1,
        lockDuration: LOCK_MS,
        stalledInterval: LOCK_MS / 2,
        maxStalledCount: 3,
      });
      worker.on('error', (err) => console.error(`worker, queue ${p}: ${err.message}`));
      this.workers.set(p, worker);
    }
  }

  private async process(job: Job<WorkData>): Promise<void> {
    const { id, reply, job: work } = job.data;
    let answer: Reply;
    try {
      if (work.kind === 'frame') {
        const bytes = Buffer.from(work.frame, 'base64');
        const result = await this.handler.frame(work.game, bytes, work.endTurn, work.camera, work.version);
        const grid = this.handler.gridOf(work.game, bytes);
        answer = grid ? { id, result, grid } : { id, result };
      } else answer = { id, result: await this.handler.act(work.game, work.action, work.version) };
    } catch (err) {
      // An expected failure is the client's answer; anything else fails the job, which is tried again.
      if (!(err instanceof ServiceError)) throw err;
      answer = { id, error: { code: err.code, message: err.message } };
    }
    await this.commands.publish(reply, JSON.stringify(answer));
    this.done.jobs++;
    if (job.attemptsMade > 0 || (job.stalledCounter ?? 0) > 0) this.done.retried++;
  }

  /** Stops taking jobs (the running ones finish) and leaves the live workers: the others take the queues. */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.heartbeat);
    await this.reconciling;
    await Promise.allSettled([...this.workers.values()].map((w) => w.close()));
    this.workers.clear();
    await this.commands.zrem(WORKERS_KEY, this.id).catch(() => {});
    await this.commands.quit().catch(() => {});
  }
}
