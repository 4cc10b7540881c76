/**
 * A `tilecam worker`'s side of the work queue (design: docs/design.md, "Workers"). Size: one worker's life (heartbeat,
 * leases, rebuilding after Redis is lost, deciding a job) over state all of it shares.
 */
import { randomUUID } from 'node:crypto';
import { type Job, Queue, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Corners } from '../../../vision/index.ts';
import type { FrameResult } from '../../protocol/index.ts';
import { ServiceError } from '../errors.ts';
import { lostDependency, type Reply, type Square, type WorkData, workData } from './job.ts';
import {
  ANSWER_KEEP_MS,
  ANSWER_MS,
  answerKey,
  BEAT_MS,
  CLOSE_MS,
  GONE_MS,
  HAND_WAIT_KEEP_MS,
  HEARTBEAT_MS,
  handWaitKey,
  LOCK_MS,
  leaseKey,
  PARTITIONS,
  queueName,
  RENEW,
  SETTLE_MS,
  startKey,
  TAKE,
  WORKERS_KEY,
} from './keys.ts';
import { owners, partitionOf } from './partition.ts';
import { closeWorker, connect, within } from './redis.ts';
import { RELEASE } from './sources.ts';

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
  /** A rack camera's frame at `player`'s place, looked at for their rack (GameSession.rackFrame). */
  rack(game: string, bytes: Uint8Array, player: number): Promise<FrameResult>;
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
      } else if (work.kind === 'rack')
        answer = {
          id,
          result: await this.handler.rack(work.game, Buffer.from(work.frame, 'base64'), work.player),
        };
      else answer = { id, result: await this.handler.act(work.game, work.action, work.version) };
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
