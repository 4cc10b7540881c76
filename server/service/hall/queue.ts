/** The instance's side of the work queue (design: docs/design.md, "Workers"). */
import { randomUUID } from 'node:crypto';
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { errorStatus, ServiceError } from '../errors.ts';
import { isSquares } from '../validate.ts';
import { isGrid, type Reply, unknownAnswer, type WorkAnswer, type WorkData, type WorkJob } from './job.ts';
import {
  ANSWER_MS,
  answerKey,
  GONE_MS,
  NEXT_QUEUE_KEY,
  PARTITIONS,
  PLACE_MS,
  queueName,
  RECHECK_MS,
  REDIS_WAIT_MS,
  replies,
  WORKERS_KEY,
} from './keys.ts';
import { idInPartition, owners, partitionOf, placementOrder } from './partition.ts';
import { connect, within } from './redis.ts';

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
