/**
 * Game work through a queue, for a hall of many boards: the instances that people and cameras talk to hand every
 * frame and every scorekeeper action to `tilecam worker` processes through BullMQ on Redis, and the workers read the
 * frames and record the moves.
 *
 * - **Order.** A game's work goes to one of PARTITIONS queues (by a hash of its id; ids of new games are drawn to
 *   fill the queues in turn, `WorkQueue.newGameId`). Each queue runs one job at a
 *   time over all workers together (BullMQ's global concurrency of 1), first in first out: a game's frames and
 *   actions are decided in the order the instances handed them over, whichever worker takes them.
 * - **Affinity.** A worker reads a game's frames as one steady camera (vision's Camera: the last grid tried first,
 *   only the squares that changed read again), which needs the same worker for a game's frames. Workers announce
 *   themselves in Redis (a heartbeat) and share the queues out by rendezvous hashing over the live ones: each queue
 *   is consumed by one worker, and only a worker joining or leaving moves some queues to another. A worker that
 *   takes a queue over drops the games of that queue it had in memory: they are read again from the store.
 * - **Exactly once.** A move is recorded by the store's append, which refuses an event number already taken
 *   (StoreConflict): never by one process's memory.
 * - **Handing a queue over.** A worker consumes a queue only while it holds the queue's lease in Redis (a key with
 *   a time to live, renewed every heartbeat); one giving a queue up lets its running job finish first, then lets the
 *   lease go, and only then may the next owner take it: two workers never consume one queue. The heartbeats are
 *   timed by Redis's clock, not the machines'.
 * - **A worker killed mid-frame loses nothing.** Its job's lock runs out, BullMQ moves it back to the front of its
 *   queue, and the worker that takes the queue over (once the dead one's lease has run out) does the job again. A
 *   worker notes in Redis the game's version as it starts a job; a job done again compares the game with it: if the
 *   game has moved on since, the killed worker recorded it, and it is answered `unchanged` (nothing more recorded:
 *   not a pass, not a second undo); if not (or the killed worker had not started it), it is decided now.
 * - **An End turn waiting out a hand** (the frame showed a hand over the board: "the next clear frame ends the
 *   turn") lives in the session's memory. The worker notes it in Redis before it answers (`handWaitKey`: camera →
 *   the wait's mark, `Session.endTurnsWaiting`), and deletes the note once the wait has ended (a clear frame, the
 *   reading held: the heartbeat notices the timer's hold). A worker that takes the game over from a lost one looks
 *   at the notes before the game's first job and goes on with those that still stand (`Session.waitStands`: nothing
 *   recorded since, and the same reading held as when the note was written — the mark carries a stamp of it; in
 *   Scrabble Me, the same round and the board's turn not recorded, the same reading held): the camera's next frame ends
 *   the turn, held at once if the hand is still there, as the lost worker's timer would have — within HAND_WAIT_KEEP_MS
 *   of the wait's start, never later (a later move is not joined to it). End turn pressed again decides for itself.
 *   Left: a worker killed while its timer's hold was being stored loses that End turn; one killed in the second after
 *   its timer held again the very reading already held (the same squares, the same reasons: the stamp cannot tell),
 *   before the heartbeat deletes the note, leaves the wait to be gone on with.
 * - **Answers.** The worker publishes each job's result on the channel of the instance that handed it over, which
 *   answers its client with it. A job that fails unexpectedly (the database or Redis away) is answered `unknown` (a
 *   move may have been recorded before: the client reloads the game), never tried again behind the game's later
 *   work. A job whose answer is lost (Redis restarted: the job gone from its queue, no answer kept) is `unknown` as
 *   soon as the instance sees it; one nobody answers in ANSWER_MS is `unavailable` if it could be taken back from the
 *   queue (nothing was decided), else `unknown`; a worker does not decide a job handed over longer ago than that.
 * - **Redis lost and back.** A worker rebuilds its BullMQ workers (the old ones closed by force, never waited for
 *   long) and takes its queues again once every live worker has had a heartbeat to say so; every close and
 *   heartbeat is bounded, so a worker always stops within seconds (docs/operations.md).
 */
import { createHash, randomUUID } from 'node:crypto';
import { type Job, Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import type { Corners } from '../../../vision/index.ts';
import type { FrameResult } from '../../protocol/index.ts';
import { type ErrorCode, errorStatus, outage, ServiceError } from '../errors.ts';
import { isSquares } from '../validate.ts';
import { RELEASE } from './sources.ts';

/** How many queues a hall's games are spread over (the most workers that can share the work). */
export const PARTITIONS = 16;
/** A worker not heard from for this long is gone: its queues go to the others. */
const GONE_MS = 4000;
const HEARTBEAT_MS = 1000;
/**
 * A job's lock: a worker killed mid-job has its job taken again after about this and half of it again (BullMQ's
 * check for stalled jobs), 6 s, within the 10 s a move may take to commit after a fault (at 6 s it was 9 s at worst,
 * one second from the line). BullMQ renews it every 2 s while the job runs: only an event loop blocked for 4 s loses it.
 */
const LOCK_MS = 4000;
/** How long an instance waits for a job's answer. */
const ANSWER_MS = 60_000;
/** How long a queue given up may take to finish its running job before its BullMQ worker is closed by force (a
 *  worker whose Redis restarted may never finish closing: it is left behind, never waited for). */
const CLOSE_MS = 3000;
/** How long a heartbeat may take before the next one starts afresh (Redis away: its commands fail after a few
 *  reconnection tries, but a BullMQ call may wait longer). */
const BEAT_MS = 5000;
/** How long a queue given up waits for its End turns waiting out a hand to be held and noted. */
const SETTLE_MS = 3000;
const WORKERS_KEY = 'tilecam:workers';
/** The count of games placed on the queues in turn (`WorkQueue.newGameId`), and how long placing one may take. */
const NEXT_QUEUE_KEY = 'tilecam:games-placed';
/** How long a job waits for Redis to be connected before it is refused (`unavailable`: send it again). */
const REDIS_WAIT_MS = 2000;
const PLACE_MS = 1000;
const queueName = (p: number) => `tilecam-work-${p}`;
const leaseKey = (p: number) => `tilecam:queue-owner:${p}`;
/** Where a worker keeps job `id`'s answer a while, besides publishing it: an instance that missed the message
 *  (its subscriber reconnecting) finds it there. */
export const answerKey = (id: string) => `tilecam:answer:${id}`;
/** How often an instance looks there for the answers it still waits for, and how long an answer is kept. */
const RECHECK_MS = 5000;
const ANSWER_KEEP_MS = ANSWER_MS + 10_000;
/** Where a worker notes the game's version as it starts job `id`. */
export const startKey = (id: string) => `tilecam:job-start:${id}`;
/** Where a worker notes the End turns of `game` it waits out a hand for (camera → the wait's mark): a worker that
 *  takes the game's queue over after that one was lost goes on with them. */
export const handWaitKey = (game: string) => `tilecam:hand-wait:${game}`;
/** How long such a note is kept from when the wait began: a takeover comes 4–6 s after a kill (GONE_MS, then the
 *  camera's next frame); an End turn not gone on with by then is forgotten, never joined to a later move. */
const HAND_WAIT_KEEP_MS = 15_000;
/** Renews a lease held by ARGV[1]; 0 when it is not (any longer) theirs. */
const RENEW = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end`;
/** Takes a lease that is free or already ARGV[1]'s (kept through a rebuild, when Redis did not lose it); 1 if taken. */
const TAKE = `local v = redis.call('get', KEYS[1])
if v == false or v == ARGV[1] then redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[2]) return 1 end
return 0`;
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

/** The job's data, if it has the shape instances give it (a job in Redis is outside input). */
function workData(data: unknown): WorkData | undefined {
  const d = data as Partial<WorkData> | null;
  const job = d?.job as Partial<Record<string, unknown>> | undefined;
  if (
    typeof d?.id !== 'string' ||
    typeof d.reply !== 'string' ||
    !d.reply.startsWith('tilecam:replies:') ||
    typeof job !== 'object' ||
    job === null ||
    typeof job.game !== 'string' ||
    (job.version !== undefined && !Number.isInteger(job.version))
  )
    return undefined;
  if (job.kind === 'act') return d as WorkData;
  if (
    job.kind === 'frame' &&
    typeof job.frame === 'string' &&
    typeof job.endTurn === 'boolean' &&
    Number.isInteger(job.camera)
  )
    return d as WorkData;
  return undefined;
}

/** A reply's grid: four points of finite numbers. */
function isGrid(grid: unknown): grid is Corners {
  return (
    Array.isArray(grid) &&
    grid.length === 4 &&
    grid.every(
      (p) =>
        Array.isArray(p) && p.length === 2 && p.every((v) => typeof v === 'number' && Number.isFinite(v)),
    )
  );
}

interface Reply {
  readonly id: string;
  readonly result?: FrameResult;
  readonly error?: { readonly code: ErrorCode; readonly message: string };
  /** A frame read: where the grid was found in it (for the camera's page at the instance). */
  readonly grid?: Corners;
  /** A frame read: the game's board-disturbed notice after it. */
  readonly disturbed?: readonly Square[];
}

type Square = { readonly row: number; readonly col: number };

/** A job's answer: the game's, and for a frame read, where the grid was found in it. */
export interface WorkAnswer {
  readonly result: FrameResult;
  readonly grid?: Corners;
  readonly disturbed?: readonly Square[];
}

/** The queue a game's work goes to. */
export function partitionOf(game: string): number {
  return createHash('sha256').update(game).digest().readUInt32BE(0) % PARTITIONS;
}

/**
 * A new game id whose work goes to queue `p` (`partitionOf`): ids from `make` are drawn until one does (one in
 * PARTITIONS does; the draws are bounded, and the last one is taken if none did).
 */
export function idInPartition(p: number, make: () => string = () => randomUUID().slice(0, 8)): string {
  let id = make();
  for (let tries = 1; tries < 100 * PARTITIONS && partitionOf(id) !== p; tries++) id = make();
  return id;
}

/**
 * The worker of `live` that consumes queue `p`: rendezvous hashing with bounded loads. Queue by queue in order, each
 * goes to the worker with the highest hash of the pair that has not had its share yet (PARTITIONS / workers, some of
 * them one more): every worker works out the same owners from the same live set, the queues are shared out evenly
 * (plain rendezvous hashing gave one of two workers 10 of the 16 queues, and it then read 1.5 to 2 times the frames
 * of the other), and a worker joining or leaving moves its share and a few more (at most 7 of the 16 in the 240
 * trials of work.test.ts, 3 to 11 workers; plain rendezvous hashing moves only the share).
 */
export function ownerOf(p: number, live: readonly string[]): string | undefined {
  return owners(live)[p];
}

/**
 * The queues in the order new games are placed on them: each worker's in turn (the first of each worker's, then the
 * second of each, …), so that however many games a hall has, each worker has as many as the others, or one more.
 * With no worker live, the queues in order.
 */
export function placementOrder(plan: readonly (string | undefined)[]): number[] {
  const byOwner = new Map<string, number[]>();
  plan.forEach((owner, p) => {
    const key = owner ?? '';
    byOwner.set(key, [...(byOwner.get(key) ?? []), p]);
  });
  const groups = [...byOwner.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, g]) => g);
  const order: number[] = [];
  for (let k = 0; order.length < plan.length; k++)
    for (const g of groups) if (k < g.length) order.push(g[k]!);
  return order;
}

/** `promise`, or a rejection after `ms`. */
function within<T>(ms: number, promise: Promise<T>, what = 'Redis'): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer in ${ms} ms`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** Closes a BullMQ worker: its running job may finish for CLOSE_MS, then it is closed by force, and that too is
 *  waited for at most CLOSE_MS (after a Redis restart `close()` may never settle). Never throws. */
async function closeWorker(worker: Worker): Promise<void> {
  try {
    await within(CLOSE_MS, worker.close(), 'closing the queue');
  } catch {
    await within(CLOSE_MS, worker.close(true), 'closing the queue by force').catch((err: unknown) =>
      console.error(`worker: ${(err as Error).message}: left behind`),
    );
  }
}

/** Every queue's owner among `live` (see ownerOf). */
export function owners(live: readonly string[]): (string | undefined)[] {
  const workers = [...new Set(live)].sort();
  if (workers.length === 0) return new Array(PARTITIONS).fill(undefined);
  // Each worker takes `base` queues, and `extra` of them one more.
  const base = Math.floor(PARTITIONS / workers.length);
  const extra = PARTITIONS % workers.length;
  let larger = 0;
  const load = new Map(workers.map((w) => [w, 0]));
  const full = (w: string) => load.get(w)! > base || (load.get(w)! === base && larger === extra);
  const hash = (worker: string, q: number) =>
    createHash('sha256').update(`${worker}/${q}`).digest().readUInt32BE(0);
  return Array.from({ length: PARTITIONS }, (_, q) => {
    const ranked = workers
      .map((worker) => ({ worker, h: hash(worker, q) }))
      .sort((a, b) => b.h - a.h || (a.worker < b.worker ? -1 : 1));
    const owner = ranked.find((r) => !full(r.worker))!.worker;
    load.set(owner, load.get(owner)! + 1);
    if (load.get(owner) === base + 1) larger++;
    return owner;
  });
}

function connect(url: string, options: Record<string, unknown> = {}): Redis {
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

/** Which dependency a job's failure lost, named for the client (never its address): Redis's client's own errors,
 *  else the database's connection failures. */
function lostDependency(err: unknown): string | undefined {
  const e = err as { name?: unknown; message?: unknown } | null;
  if (e?.name === 'MaxRetriesPerRequestError' || /^Connection is closed|Redis/.test(String(e?.message)))
    return 'Redis';
  return outage(err, 'the database', '') ? 'the database' : undefined;
}

/** A job handed over whose answer was lost: a worker may have decided it (and recorded a move) or not. */
function unknownAnswer(): ServiceError {
  return new ServiceError(
    'unknown',
    'unknown: the work queue lost this request (Redis restarted or was away), and it may have been recorded: reload the game before sending it again',
  );
}

/** An instance's side: hands work over and waits for its answer. */
export class WorkQueue {
  private readonly instance = randomUUID();
  private readonly queues: Queue[] = [];
  private readonly waiting = new Map<
    string,
    {
      resolve: (r: WorkAnswer) => void;
      reject: (e: unknown) => void;
      timer: NodeJS.Timeout;
      since: number;
      /** Its queue, once the hand-over was acknowledged (before that, its absence from the queue says nothing). */
      queue?: Queue;
    }
  >();
  private readonly recheck: NodeJS.Timeout;

  private constructor(
    private readonly commands: Redis,
    private readonly sub: Redis,
    recheckMs: number,
  ) {
    for (let p = 0; p < PARTITIONS; p++) this.queues.push(new Queue(queueName(p), { connection: commands }));
    sub.on('message', (_channel: string, text: string) => this.answer(text));
    // An answer whose message was missed (the subscriber was reconnecting) is looked up where the worker kept it:
    // at once when the subscriber is back (its first ready came before this: `open` waits for it), and every few
    // seconds for answers waited for that long.
    sub.on('ready', () => void this.lookUp(0));
    commands.on('ready', () => void this.lookUp(0));
    this.recheck = setInterval(() => void this.lookUp(recheckMs), recheckMs);
    this.recheck.unref();
  }

  static async open(
    url: string,
    { recheckMs = RECHECK_MS }: { recheckMs?: number } = {},
  ): Promise<WorkQueue> {
    const commands = connect(url, { maxRetriesPerRequest: 3 });
    const sub = connect(url);
    try {
      await Promise.all([commands.connect(), sub.connect()]);
      const queue = new WorkQueue(commands, sub, recheckMs);
      await sub.subscribe(replies(queue.instance));
      await Promise.all(queue.queues.map((q) => q.setGlobalConcurrency(1)));
      return queue;
    } catch (err) {
      commands.disconnect();
      sub.disconnect();
      throw err;
    }
  }

  /**
   * An id for a new game, its work placed on the queues in turn: the games of a hall, made one after another on any
   * instance, are spread evenly over the queues, and so over the workers (by a hash of random ids, one worker of two
   * had up to half as many games again as the other, and read that many more frames). Throws when Redis cannot be
   * reached (the caller may take a random id).
   */
  async newGameId(): Promise<string> {
    // Not waited for while Redis is away or slow: the caller takes a random id.
    if (this.commands.status !== 'ready') throw new Error('Redis is not connected');
    const [turn, live] = await within(
      PLACE_MS,
      Promise.all([
        this.commands.incr(NEXT_QUEUE_KEY),
        // The live workers, as they see themselves (the same heartbeats and Redis clock).
        this.commands
          .time()
          .then(([s, us]) =>
            this.commands.zrangebyscore(
              WORKERS_KEY,
              Number(s) * 1000 + Math.floor(Number(us) / 1000) - GONE_MS,
              '+inf',
            ),
          ),
      ]),
    );
    return idInPartition(placementOrder(owners(live))[(turn - 1) % PARTITIONS]!);
  }

  /** Hands `job` to the workers; resolves with the game's answer, or throws its ServiceError. */
  async run(job: WorkJob): Promise<WorkAnswer> {
    const id = randomUUID();
    const answered = new Promise<WorkAnswer>((resolve, reject) => {
      const timer = setTimeout(() => {
        // A last look where the workers keep their answers (one missed since the last look-up), then given up.
        void within(PLACE_MS, this.commands.get(answerKey(id)))
          .catch(() => null)
          .then((text) => {
            if (text !== null) this.answer(text);
            if (!this.waiting.has(id)) return;
            this.waiting.delete(id);
            // Not decided later behind the client's back, if nobody has taken it yet; if it cannot be taken back
            // (a worker has it, or Redis is away), whether it was decided is not known here.
            void within(PLACE_MS, this.queues[partitionOf(job.game)]!.remove(id))
              .catch(() => 0)
              .then((removed) =>
                reject(
                  removed === 1
                    ? new ServiceError(
                        'unavailable',
                        `no worker answered in ${ANSWER_MS / 1000} s, and it was taken back: nothing was recorded (is a \`tilecam worker\` running on this Redis?)`,
                      )
                    : unknownAnswer(),
                ),
              );
          });
      }, ANSWER_MS);
      this.waiting.set(id, { resolve, reject, timer, since: Date.now() });
    });
    // The answer may come before the job's hand-over below is acknowledged: a refusal arriving then is not left
    // unhandled (it would end the process); it is thrown to the caller below.
    answered.catch(() => {});
    const data: WorkData = { id, reply: replies(this.instance), job };
    const queue = this.queues[partitionOf(job.game)]!;
    try {
      // Redis away: a short wait for it (a connection being made again), not the reconnection tries of every
      // command (some 20 s in a long outage): the client is told at once to send it again.
      if (this.commands.status !== 'ready') await this.connected(REDIS_WAIT_MS);
      await queue.add(job.kind, data, {
        jobId: id,
        // A job is not tried again behind the game's later work: a failure is answered (a worker killed mid-job
        // is another matter: its job goes back to the front of the queue).
        attempts: 1,
        removeOnComplete: true,
        removeOnFail: true,
      });
    } catch (err) {
      const waiting = this.waiting.get(id);
      if (waiting) clearTimeout(waiting.timer);
      this.waiting.delete(id);
      console.error(`handing work over: ${(err as Error).message}`);
      // A worker refuses a job handed over longer ago than ANSWER_MS: one that reached Redis after all is not
      // decided behind the client's back once it has been told to send it again.
      throw new ServiceError(
        'unavailable',
        'Redis (the work queue) is out of reach: not handed over, and never decided later: send it again',
      );
    }
    const waiting = this.waiting.get(id);
    if (waiting) waiting.queue = queue;
    return answered;
  }

  /** Resolves when the command connection is ready again, or rejects after `ms`. */
  private connected(ms: number): Promise<void> {
    return new Promise((resolve, reject) => {
      const ready = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        this.commands.off('ready', ready);
        reject(new Error(`Redis not connected in ${ms} ms`));
      }, ms);
      this.commands.once('ready', ready);
    });
  }

  /** Answers, from where the workers keep them, the jobs waited for at least `age` ms. */
  private async lookUp(age: number): Promise<void> {
    // Redis away: nothing to look up (the look-up when the subscriber is back comes).
    if (this.commands.status !== 'ready') return;
    const now = Date.now();
    const jobs = [...this.waiting].flatMap(([id, w]) =>
      now - w.since >= age ? [{ id, queue: w.queue }] : [],
    );
    if (jobs.length === 0) return;
    try {
      // Whether each job is still in its queue, asked before its answer: a worker keeps the answer before the job
      // leaves the queue, so a job gone without an answer was lost (Redis restarted, its data gone).
      const kept = await Promise.all(
        jobs.map(({ id, queue }) => (queue ? queue.getJob(id).then((j) => j !== undefined) : true)),
      );
      const found = await this.commands.mget(jobs.map(({ id }) => answerKey(id)));
      for (const text of found) if (text !== null) this.answer(text);
      jobs.forEach(({ id }, k) => {
        const waiting = this.waiting.get(id);
        if (!waiting || kept[k]) return;
        this.waiting.delete(id);
        clearTimeout(waiting.timer);
        waiting.reject(unknownAnswer());
      });
    } catch (err) {
      console.error(`Redis: looking up answers: ${(err as Error).message}`);
    }
  }

  private answer(text: string): void {
    let reply: Reply | null;
    try {
      reply = JSON.parse(text) as Reply | null;
    } catch {
      return;
    }
    if (typeof reply !== 'object' || reply === null || typeof reply.id !== 'string') return;
    const waiting = this.waiting.get(reply.id);
    // A job done twice (its worker killed after answering) answers twice: the first answer stands.
    if (!waiting) return;
    this.waiting.delete(reply.id);
    clearTimeout(waiting.timer);
    const { error, result, grid, disturbed } = reply;
    if (error && typeof error === 'object' && Object.hasOwn(errorStatus, error.code))
      waiting.reject(new ServiceError(error.code, String(error.message)));
    else if (result && typeof result === 'object' && typeof result.status === 'string')
      waiting.resolve({
        result,
        ...(isGrid(grid) ? { grid } : {}),
        ...(isSquares(disturbed) ? { disturbed } : {}),
      });
    else waiting.reject(new Error('a worker answered a job with neither a result nor an error'));
  }

  async close(): Promise<void> {
    clearInterval(this.recheck);
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
  /** The game's version: as this worker has it, or (`fresh`) as stored, caught up from the store first. */
  version(game: string, fresh: boolean): Promise<number>;
  /** Where the grid was found in `frame` of `game`, if it was read here. */
  gridOf(game: string, frame: Uint8Array): Corners | undefined;
  /** The game's board-disturbed notice now, if the game is here. */
  disturbanceOf(game: string): readonly Square[] | undefined;
  /** The End turns of the game waiting out a hand here, by camera, with their marks (Session.endTurnsWaiting), if
   *  the game is here. */
  waitsOf(game: string): readonly { readonly camera: number; readonly mark: string }[] | undefined;
  /** Whether an End turn noted with `mark` by a lost worker still stands (Session.waitStands), if the game is here. */
  waitStands(game: string, camera: number, mark: string): boolean | undefined;
  /** Holds at once every End turn of queue `p`'s games still waiting out a hand (the queue is being given up). */
  settlePartition(p: number): Promise<void>;
  /** Forgets what is in memory of the games of queue `p` (another worker may have changed them meanwhile). */
  dropPartition(p: number): void;
}

/** A `tilecam worker`'s side: takes the jobs of the queues it owns, one at a time each. */
export class WorkConsumer {
  readonly id = randomUUID();
  private readonly workers = new Map<number, Worker>();
  /** Queues being given up: their running job finishing, their lease not yet let go. */
  private readonly closing = new Map<number, Promise<void>>();
  private readonly queues: Queue[] = [];
  private readonly heartbeat: NodeJS.Timeout;
  private beating: Promise<void> | undefined;
  private closed = false;
  /** Jobs answered, how many of them were done again after a worker was lost, and how many frames went on with an
   *  End turn a lost worker was waiting out a hand for. */
  readonly done = { jobs: 0, again: 0, wentOn: 0 };
  /** What this worker last noted in Redis of each game's End turns waiting out a hand (handWaitKey), by game. */
  private readonly noted = new Map<string, string>();
  /** End turns a lost worker was waiting out a hand for, taken over here, by game: camera → the wait's mark, and
   *  when they were found (they are forgotten as the note would have run out). */
  private readonly inherited = new Map<string, { until: number; marks: Map<number, string> }>();
  /** Games whose notes have been looked at since their queue was taken. */
  private readonly looked = new Set<string>();
  /** Games with a job running here: the heartbeat leaves their notes to the job (it may be half-way). */
  private readonly running = new Set<string>();
  /** The notes' writes, one after another (each writes the state it finds). */
  private noting: Promise<void> = Promise.resolve();

  private constructor(
    private readonly url: string,
    private readonly commands: Redis,
    private readonly handler: WorkHandler,
  ) {
    for (let p = 0; p < PARTITIONS; p++) this.queues.push(new Queue(queueName(p), { connection: commands }));
    this.heartbeat = setInterval(() => void this.beat(), HEARTBEAT_MS);
    // Redis lost and back (restarted, its data gone with it, or the connection dropped): the BullMQ workers are
    // rebuilt rather than trusted to have recovered (one whose blocking connection hung stalled its queue for good);
    // the next heartbeat takes the leases again. The first ready came before this (`start` waits for it).
    commands.on('ready', () => this.rebuild());
  }

  /**
   * Gives every queue up for the next heartbeats to take again: each BullMQ worker closed by force, not waited for
   * (its running job goes on in the game's own queue here, before anything taken next). Queues are taken again only
   * once every live worker has had a heartbeat to say so in a Redis that may have lost the list: the first one back
   * would otherwise take every queue, and hand half of them over a few seconds later.
   */
  private rebuild(): void {
    if (this.closed) return;
    console.error('worker: Redis is back: taking the queues again');
    this.rebuilds++;
    this.holdUntil = Date.now() + GONE_MS;
    for (const [p, worker] of [...this.workers]) {
      this.workers.delete(p);
      void within(CLOSE_MS, worker.close(true), 'closing the queue by force').catch((err: unknown) =>
        console.error(`worker: ${(err as Error).message}: left behind`),
      );
    }
    void this.beat(true);
  }

  /** Until when no queue is taken (Redis is back: the live workers are saying so again), unless every worker
   *  known live before has said so sooner. */
  private holdUntil = 0;
  /** The live workers as last seen while no queue was held back. */
  private known: readonly string[] = [];

  /** How many times the queues were taken again after Redis came back. */
  rebuilds = 0;

  static async start(url: string, handler: WorkHandler): Promise<WorkConsumer> {
    const commands = connect(url, { maxRetriesPerRequest: 3 });
    try {
      await commands.connect();
    } catch (err) {
      commands.disconnect();
      throw err;
    }
    const consumer = new WorkConsumer(url, commands, handler);
    await consumer.beat();
    return consumer;
  }

  /** The queues this worker consumes now. */
  get partitions(): number[] {
    return [...this.workers.keys()].sort((a, b) => a - b);
  }

  /**
   * Says it is alive, renews the leases of its queues, gives up the queues another live worker should have (or whose
   * lease it lost), and takes those it should have whose lease is free. A beat still running is not doubled; giving
   * a queue up (its running job finishing) does not hold the next beat. `fresh`: Redis is back, and a beat stuck
   * on the old connection's commands is not waited for.
   */
  private beat(fresh = false): Promise<void> {
    // An End turn held when its wait ran out (the session's timer, no job of ours) is no longer noted.
    for (const game of this.noted.keys()) if (!this.running.has(game)) void this.note(game);
    if (fresh || !this.beating) {
      const beating = within(BEAT_MS, this.reconcile(), 'the heartbeat')
        .catch((err: unknown) => console.error(`worker: ${(err as Error).message}`))
        .finally(() => {
          if (this.beating === beating) this.beating = undefined;
        });
      this.beating = beating;
    }
    return this.beating;
  }

  private async reconcile(): Promise<void> {
    if (this.closed) return;
    // Redis's clock, the same for every worker whatever machine it runs on.
    const [seconds, micros] = await this.commands.time();
    const now = Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
    await this.commands
      .multi()
      .zadd(WORKERS_KEY, now, this.id)
      .zremrangebyscore(WORKERS_KEY, 0, now - GONE_MS)
      .exec();
    const live = await this.commands.zrange(WORKERS_KEY, '0', '-1');
    // Back from losing Redis: queues are taken once the workers live before are all back in the list (or after
    // GONE_MS, for those that are gone), never shared out among the first to come back and handed over again.
    if (Date.now() < this.holdUntil && this.known.every((w) => live.includes(w))) this.holdUntil = 0;
    if (Date.now() >= this.holdUntil) this.known = live;
    const mine = new Set<number>();
    owners(live).forEach((owner, p) => {
      if (owner === this.id) mine.add(p);
    });
    for (const p of [...this.workers.keys()]) {
      const kept = mine.has(p) && (await this.commands.eval(RENEW, 1, leaseKey(p), this.id, GONE_MS)) === 1;
      if (!kept) this.giveUp(p);
    }
    for (const p of mine) {
      if (this.closed || Date.now() < this.holdUntil || this.workers.has(p) || this.closing.has(p)) continue;
      if ((await this.commands.eval(TAKE, 1, leaseKey(p), this.id, GONE_MS)) !== 1) continue;
      // One job at a time for the queue, said again by each owner (a Redis started afresh has forgotten it).
      await this.queues[p]!.setGlobalConcurrency(1);
      // Checked again after the waits: a heartbeat left over from before Redis came back may be taking it too.
      if (this.closed || this.workers.has(p) || this.closing.has(p)) continue;
      this.handler.dropPartition(p);
      this.forget(p);
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

  /** Stops consuming queue `p`: its running job finishes, then its games are forgotten and its lease let go. */
  private giveUp(p: number): Promise<void> {
    const worker = this.workers.get(p);
    if (!worker) return this.closing.get(p) ?? Promise.resolve();
    this.workers.delete(p);
    const closing = closeWorker(worker)
      .then(async () => {
        // An End turn waiting here for a hand to leave is held now, not left to a timer the next owner never sees;
        // its own End turns are held now, and those taken over from a lost worker and not gone on with stay noted.
        // Not waited for past SETTLE_MS (the database or Redis away): the queue is let go all the same.
        await within(
          SETTLE_MS,
          (async () => {
            await this.handler.settlePartition(p);
            await Promise.all(
              [...this.noted.keys()].filter((g) => partitionOf(g) === p).map((g) => this.note(g)),
            );
          })(),
          'settling the queue',
        ).catch((err: unknown) => console.error(`worker, giving queue ${p} up: ${(err as Error).message}`));
        this.handler.dropPartition(p);
        this.forget(p);
        await within(CLOSE_MS, this.commands.eval(RELEASE, 1, leaseKey(p), this.id));
      })
      .catch((err: unknown) => console.error(`worker, giving queue ${p} up: ${(err as Error).message}`))
      .finally(() => this.closing.delete(p));
    this.closing.set(p, closing);
    return closing;
  }

  private async process(job: Job<WorkData>): Promise<void> {
    const data = workData(job.data);
    if (!data) {
      const reply = (job.data as { reply?: unknown; id?: unknown } | null)?.reply;
      const id = (job.data as { id?: unknown } | null)?.id;
      if (typeof reply === 'string' && reply.startsWith('tilecam:replies:') && typeof id === 'string')
        await this.publish(reply, {
          id,
          error: { code: 'bad-request', message: 'the job is not one tilecam hands over' },
        });
      return;
    }
    const { job: work } = data;
    this.running.add(work.game);
    try {
      await this.decide(job, data);
    } finally {
      this.running.delete(work.game);
    }
  }

  private async decide(job: Job<WorkData>, { id, reply, job: work }: WorkData): Promise<void> {
    let answer: Reply;
    try {
      if (Date.now() - job.timestamp > ANSWER_MS)
        throw new ServiceError('unavailable', 'handed over too long ago: not decided (send it again)');
      // A lost worker's notes are looked at before the game's first job here, whatever it is.
      await this.look(work.game);
      const again = job.attemptsStarted > 1 || job.stalledCounter > 0;
      const started = again
        ? await this.commands.get(startKey(id))
        : await this.commands.set(
            startKey(id),
            await this.handler.version(work.game, false),
            'PX',
            2 * ANSWER_MS,
          );
      // Done again after its worker was lost: if the game moved on since that worker started it, it recorded it.
      if (
        again &&
        work.version === undefined &&
        started !== null &&
        (await this.handler.version(work.game, true)) !== Number(started)
      ) {
        this.done.again++;
        answer = {
          id,
          result: {
            status: 'unchanged',
            reasons: ['recorded by a worker that stopped before it could answer: nothing more recorded'],
          },
        };
      } else if (work.kind === 'frame') {
        const bytes = Buffer.from(work.frame, 'base64');
        // An End turn pressed (again) decides for itself; a frame that only feeds the views may go on with one.
        const goesOn = !work.endTurn && (await this.goesOn(work.game, work.camera));
        if (work.endTurn) this.inherited.get(work.game)?.marks.delete(work.camera);
        const result = await this.handler.frame(
          work.game,
          bytes,
          work.endTurn || goesOn,
          work.camera,
          work.version,
        );
        if (goesOn) {
          // Decided (the frame showed a board): the End turn has gone on here.
          this.inherited.get(work.game)?.marks.delete(work.camera);
          this.done.wentOn++;
        }
        const grid = this.handler.gridOf(work.game, bytes);
        const disturbed = this.handler.disturbanceOf(work.game);
        answer = { id, result, ...(grid ? { grid } : {}), ...(disturbed ? { disturbed } : {}) };
      } else answer = { id, result: await this.handler.act(work.game, work.action, work.version) };
    } catch (err) {
      // An expected failure is the client's answer; so is anything else (the database away), not a retry that would
      // run behind the game's later work.
      if (!(err instanceof ServiceError))
        console.error(`worker: game ${work.game}: ${(err as Error).stack ?? String(err)}`);
      // The database or Redis going away mid-job: a move may have been recorded before (its acknowledgement
      // lost), so the client is told it is not known, never that it failed; it reloads the game first.
      const away = lostDependency(err);
      answer =
        err instanceof ServiceError
          ? { id, error: { code: err.code, message: err.message } }
          : {
              id,
              error: {
                code: 'unknown',
                message: away
                  ? `unknown: ${away} went out of reach while it was decided, and it may have been recorded: reload the game before sending it again`
                  : 'unknown: the worker failed while deciding it (see its log): reload the game before sending it again',
              },
            };
    }
    // Noted before the answer goes: a client told its End turn waits has it noted for the next worker.
    await this.note(work.game);
    await this.publish(reply, answer);
    this.done.jobs++;
  }

  /**
   * Looks, at the game's first job here since its queue was taken, at the End turns a lost worker noted it was
   * waiting out a hand for (it answered "the next clear frame ends the turn", and died).
   */
  private async look(game: string): Promise<void> {
    if (this.looked.has(game)) return;
    const [all, left] = await Promise.all([
      this.commands.hgetall(handWaitKey(game)),
      this.commands.pttl(handWaitKey(game)),
    ]);
    const notes = Object.entries(all);
    if (notes.length > 0) {
      const marks = new Map<number, string>();
      for (const [camera, mark] of notes) if (/^\d{1,2}$/.test(camera)) marks.set(Number(camera), mark);
      // As long as the note had left to run (its wait began at most HAND_WAIT_KEEP_MS ago).
      this.inherited.set(game, { until: Date.now() + Math.min(Math.max(left, 0), HAND_WAIT_KEEP_MS), marks });
      // Written again (or deleted, when none stands) by the next note.
      this.noted.set(game, JSON.stringify(notes));
      // The game as stored, for the marks to be weighed against.
      await this.handler.version(game, true);
    }
    this.looked.add(game);
  }

  /** Whether camera `camera`'s frame of `game` goes on with an End turn a lost worker noted, which still stands. */
  private async goesOn(game: string, camera: number): Promise<boolean> {
    const inherited = this.inherited.get(game);
    const mark = inherited?.marks.get(camera);
    if (!inherited || mark === undefined) return false;
    await this.handler.version(game, false); // loaded, if it was dropped since
    if (Date.now() < inherited.until && this.handler.waitStands(game, camera, mark)) return true;
    inherited.marks.delete(camera);
    return false;
  }

  /** Notes in Redis the End turns of `game` waiting out a hand, here and taken over, when they changed. */
  private note(game: string): Promise<void> {
    const write = async () => {
      const here = this.handler.waitsOf(game);
      const want = new Map<number, string>();
      const inherited = this.inherited.get(game);
      const now = Date.now();
      if (inherited && now < inherited.until)
        for (const [camera, mark] of inherited.marks)
          if (this.handler.waitStands(game, camera, mark) !== false) want.set(camera, mark);
      for (const { camera, mark } of here ?? []) want.set(camera, mark);
      const text = JSON.stringify([...want].sort(([a], [b]) => a - b));
      if (text === (this.noted.get(game) ?? '[]')) return;
      const key = handWaitKey(game);
      // A wait begun here runs HAND_WAIT_KEEP_MS from now; one taken over, only what it had left.
      const keep = here && here.length > 0 ? HAND_WAIT_KEEP_MS : Math.max(1, (inherited?.until ?? now) - now);
      const multi = this.commands.multi().del(key);
      if (want.size > 0) multi.hset(key, Object.fromEntries(want)).pexpire(key, keep);
      try {
        const done = await multi.exec();
        for (const [err] of done ?? []) if (err) throw err;
      } catch (err) {
        // Written again at the next heartbeat (a text no state has).
        this.noted.set(game, '!');
        throw err;
      }
      if (want.size > 0) this.noted.set(game, text);
      else {
        this.noted.delete(game);
        this.inherited.delete(game);
      }
    };
    this.noting = this.noting
      .then(write)
      .catch((err: unknown) =>
        console.error(`worker: noting game ${game}'s End turns: ${(err as Error).message}`),
      );
    return this.noting;
  }

  /** Forgets the notes of queue `p`'s games (taken, or given up: their next owner looks at them afresh). */
  private forget(p: number): void {
    for (const set of [this.noted, this.inherited, this.looked])
      for (const game of set.keys()) if (partitionOf(game) === p) set.delete(game);
  }

  private async publish(channel: string, answer: Reply): Promise<void> {
    // Kept a while as well as published: an instance that missed the message looks it up (WorkQueue.lookUp). An
    // answer that cannot be sent at all is waited for until the instance gives up on it (ANSWER_MS).
    const text = JSON.stringify(answer);
    await this.commands
      .multi()
      // The first answer stands (a job done again after its worker was lost answers `unchanged`).
      .set(answerKey(answer.id), text, 'PX', ANSWER_KEEP_MS, 'NX')
      .publish(channel, text)
      .exec()
      .catch((err: unknown) => console.error(`worker: answering: ${(err as Error).message}`));
  }

  /** Stops taking jobs (the running ones finish) and leaves the live workers: the others take the queues. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.heartbeat);
    // Each step bounded: a worker stopping with Redis or the database away still stops within seconds.
    await this.beating;
    await Promise.allSettled([...this.workers.keys()].map((p) => this.giveUp(p)));
    await Promise.allSettled([...this.closing.values()]);
    await within(CLOSE_MS, this.commands.zrem(WORKERS_KEY, this.id)).catch(() => {});
    await within(CLOSE_MS, Promise.allSettled(this.queues.map((q) => q.close()))).catch(() => {});
    await within(CLOSE_MS, this.commands.quit()).catch(() => this.commands.disconnect());
  }
}
