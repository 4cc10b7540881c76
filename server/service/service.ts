/**
 * The games the server keeps: creation with a scorekeeper token, lookup (loading a game from storage on first use,
 * so a restart resumes every game exactly, and dropping it from memory again when nobody has watched it for a
 * while), token checks, and one queue per game: a game's frames and actions are decided one at a time, in the order
 * they came. Transport-free: HTTP and WebSocket call into it. The camera streams it pulls are cameras/streams.ts's.
 *
 * Size: the game cache and the worker handler share the `sessions` map and each game's queue, so they are one class;
 * catching up with other instances (hall/catch-up.ts), the streams (cameras/streams.ts), the queue (queue.ts) and the
 * listing (listing.ts) stand apart.
 */
import { createHash, createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { type RateLimiterAbstract, RateLimiterRes } from 'rate-limiter-flexible';
import type { Lexicon } from '../engine/index.ts';
import { defaultEnglishLexicon, readingLexicon } from '../lexicon/index.ts';
import type { FrameResult } from '../protocol/index.ts';
import { type GameConfig, type GameStore, StoreConflict } from '../store/types.ts';
import { CameraStreams } from './cameras/streams.ts';
import { ServiceError, storeOutage } from './errors.ts';
import { type CaptureTiming, GameSession } from './game/classic.ts';
import type { GameView, Session } from './game/contract.ts';
import { checkFrame } from './game/frames.ts';
import { MeSession } from './game/me.ts';
import type { BusNote, GameBus } from './hall/bus.ts';
import { CatchUp, type GameCopy, refresh } from './hall/catch-up.ts';
import { LocalBus } from './hall/local.ts';
import type { SharedSources } from './hall/sources.ts';
import { partitionOf, type WorkAnswer, type WorkHandler, type WorkJob } from './hall/work.ts';
import { defaultLimits, type Limits, type SourcePolicy } from './limits.ts';
import { ABANDONED_DAYS, abandoned, type Listing, type ListingQuery, listGames } from './listing.ts';
import { GameQueue } from './queue.ts';

export type { GameView, Session } from './game/contract.ts';

export interface ServiceOptions {
  /** Auto capture: identical readings needed before a commit. */
  readonly timing?: CaptureTiming;
  readonly limits?: Limits;
  /** Which addresses a camera stream URL may reach (default `lan`). */
  readonly sources?: SourcePolicy;
  /** Other instances of the service on the same store (Redis): told of every change, and telling of theirs. */
  readonly bus?: GameBus;
  /**
   * Where the games' frames and actions are decided, when not in this process: the work queue that `tilecam
   * worker` processes take them from (work.ts). This instance then only keeps its games' views up to date.
   */
  readonly work?: Work;
  /**
   * Whether the camera pictures taken here go to pages on the other instances over the bus, and theirs come here
   * (default yes). A worker shares none: the instance that handed it the frame shows it.
   */
  readonly pictures?: boolean;
  /**
   * The camera streams shared with the other instances through Redis (sources.ts): a stream pulled by an instance
   * that dies is taken over by another, one stopped on any instance stops, and every instance shows their states.
   * Without it, the streams this instance pulls are its own.
   */
  readonly sharedSources?: SharedSources;
}

/** The work queue, as the service uses it. */
interface Work {
  run(job: WorkJob): Promise<WorkAnswer>;
  /** An id for a new game that spreads the games evenly over the workers (WorkQueue.newGameId). */
  newGameId?(): Promise<string>;
}

/**
 * Where a game's frames and actions are decided: in this process (`GameService.here`) or by the workers of the work
 * queue (`GameService.byWorkers`), chosen once when the service is made, as the bus is. Each runs in the game's queue.
 */
interface Decider {
  /** An id for a new game. */
  newGameId(): Promise<string>;
  frame(
    live: Live,
    frame: Uint8Array,
    endTurn: boolean,
    camera: number,
    version: number | undefined,
  ): Promise<FrameResult>;
  act(live: Live, action: unknown, version: number | undefined): Promise<FrameResult>;
  /** A rack camera's frame at `player`'s place, looked at for their rack where the game's moves are decided. */
  rack(live: Live, frame: Uint8Array, player: number, now: number): Promise<FrameResult>;
}

/** A game in memory, with when it was last asked for, its queue and what catching up keeps. */
interface Live extends GameCopy {
  lastUsed: number;
}

/** The rack frames' places in a game's queue (GameQueue.feed), one per player: apart from its cameras' (seats). */
const RACK_FEED = 1000;

/** How long the frame that ended a turn, sent again, is known as a doubled End turn: a client's retry after the
 *  longest wait for an answer (work.ts, 60 s) and a reload. */
const TURN_FRAME_MS = 90_000;

export class GameService {
  private readonly sessions = new Map<string, Live>();
  private readonly loading = new Map<string, Promise<Live>>();
  readonly limits: Limits;
  private readonly timing: CaptureTiming;
  private readonly frameLimiter: RateLimiterAbstract;
  private readonly createLimiter: RateLimiterAbstract;
  private readonly sweeper: NodeJS.Timeout;
  /** Redis's bus in a hall, else a LocalBus that tells no one. */
  private readonly bus: GameBus;
  private readonly decider: Decider;
  private readonly pictures: boolean;
  private readonly streams: CameraStreams;
  private readonly catchUp: CatchUp;
  private closed = false;

  constructor(
    readonly store: GameStore,
    options: ServiceOptions | CaptureTiming = {},
  ) {
    const o: ServiceOptions = 'frames' in options ? { timing: options } : options;
    this.timing = o.timing ?? { frames: 3, ms: 1500 };
    this.limits = o.limits ?? defaultLimits;
    this.bus = o.bus ?? new LocalBus();
    this.decider = o.work ? this.byWorkers(o.work) : this.here();
    this.pictures = o.pictures ?? true;
    this.frameLimiter = this.limiter('frames', this.limits.framesPerSecond, 1);
    this.createLimiter = this.limiter('games', this.limits.gamesPerMinute, 60);
    this.sweeper = setInterval(() => this.sweep(), Math.min(this.limits.idleMs, 60_000));
    this.sweeper.unref();
    this.catchUp = new CatchUp(store, (copy) => !this.closed && this.sessions.get(copy.session.id) === copy);
    this.streams = new CameraStreams(
      {
        session: (id) => this.session(id),
        loaded: (id) => this.loadedGame(id),
        loadedGames: () => [...this.sessions].map(([id, live]) => [id, live.session]),
        feed: async (id, frame, camera) => {
          await this.admitFrame(id);
          return this.submitFrame(id, frame, false, { camera });
        },
      },
      this.limits,
      o.sources ?? 'lan',
      o.sharedSources,
    );
    this.bus.subscribe((id, note) => this.changedElsewhere(id, note));
    // A camera picture taken elsewhere, for the pages here watching that game's cameras.
    if (this.pictures)
      this.bus.onPicture((id, thumb) => this.sessions.get(id)?.session.pictures.showPicture(thumb));
    // Changes told while Redis was away were missed: every game in memory catches up from the store.
    this.bus.onReconnect(() => {
      for (const id of this.sessions.keys()) this.changedElsewhere(id);
    });
  }

  /**
   * A rate limit of `points` per `seconds`: counted in Redis when there are several instances (one count for all of
   * them; in memory here should Redis stop answering), else in this process.
   */
  limiter(name: string, points: number, seconds: number): RateLimiterAbstract {
    return this.bus.limiter(name, points, seconds);
  }

  /**
   * Another instance changed game `id`: if it is in memory here, it catches up from the store (in its queue, after
   * what is running); if not, it is read whole when next asked for.
   */
  private changedElsewhere(id: string, note: BusNote = {}): void {
    const live = this.sessions.get(id);
    if (!live) {
      // Being loaded now, perhaps from before that change: it catches up once loaded.
      this.loading.get(id)?.then(
        () => this.changedElsewhere(id, note),
        () => {},
      );
      return;
    }
    // The notice is not stored: it comes with the message, from the instance or worker that read the frame.
    if (note.disturbed) live.session.showDisturbance(note.disturbed);
    // Read again only if the store differs from memory: this instance may have caught up already (the answer of a
    // worker's job), and reading again would tell the viewers twice.
    this.catchUp.soon(live);
  }

  /**
   * `task` as the game's queue runs it: afterwards the other instances are told if the game changed. Another
   * instance having recorded the game's next event first (a StoreConflict) is `stale` for the client, and this
   * instance catches up: a move is recorded exactly once.
   */
  private guarded<T>(id: string, live: Live, task: () => Promise<T>): () => Promise<T> {
    return async () => {
      const before = live.session.changes;
      const notice = live.session.disturbance();
      try {
        return await task();
      } catch (err) {
        if (!(err instanceof StoreConflict)) throw err;
        const changes = await this.store.getChanges(id, live.session.version);
        if (changes) refresh(live, changes);
        throw new ServiceError(
          'stale',
          'another server recorded a move in this game first: look at the game again, then retry',
        );
      } finally {
        if (live.session.changes !== before)
          this.bus
            // The notice goes with the message only when this task changed it: an older one, from before a
            // frame read elsewhere, must not overwrite that frame's.
            .publish(
              id,
              live.session.disturbance() !== notice ? { disturbed: live.session.disturbance() } : {},
            )
            .catch((err: unknown) =>
              console.error(`game ${id}: telling the others: ${(err as Error).message}`),
            );
      }
    };
  }

  /** Throws `rate-limited` when `client` (an address) has created its share of games this minute. */
  async admitCreate(client: string): Promise<void> {
    await limit(this.createLimiter, client, `at most ${this.limits.gamesPerMinute} new games a minute`);
  }

  async create(config: GameConfig): Promise<{ id: string; token: string }> {
    const id = await this.decider.newGameId();
    const token = randomBytes(24).toString('base64url');
    await this.store
      .createGame({ id, tokenHash: hash(token), config })
      .catch(storeOutage('no game was made: try again in a few seconds'));
    return { id, token };
  }

  /** The game as the transport sees it (its views), loaded from the store on first use. */
  async get(id: string): Promise<GameView> {
    return this.session(id);
  }

  /** The game whole, loaded from the store on first use: for the service, the hall and their tests, not http/. */
  async session(id: string): Promise<Session> {
    return (await this.live(id)).session;
  }

  /** The game if it is in memory now (nothing is loaded). */
  loadedGame(id: string): Session | undefined {
    return this.sessions.get(id)?.session;
  }

  private async live(id: string): Promise<Live> {
    const ready = this.sessions.get(id);
    if (ready) {
      ready.lastUsed = Date.now();
      return ready;
    }
    // Two requests for a game not yet in memory load it once.
    let loading = this.loading.get(id);
    if (!loading) {
      loading = this.load(id).finally(() => this.loading.delete(id));
      this.loading.set(id, loading);
    }
    return loading;
  }

  private async load(id: string): Promise<Live> {
    const stored = await this.store.getGame(id).catch(storeOutage('try again in a few seconds'));
    if (!stored) throw new ServiceError('not-found', `no game ${id}`);
    const session: Session =
      stored.config.variant === 'scrabble-me'
        ? MeSession.load(
            this.store,
            stored,
            stored.config.lexicon === 'none' ? undefined : readingLexicon(stored.config.lang),
          )
        : GameSession.load(
            this.store,
            stored,
            lexiconFor(stored.config),
            this.timing,
            stored.config.lexicon === 'none' ? undefined : readingLexicon(stored.config.lang),
          );
    if (this.pictures) session.pictures.sharePictures(this.bus.pictures(id));
    const queue = new GameQueue();
    const live: Live = { session, lastUsed: Date.now(), queue, held: JSON.stringify(stored.held ?? []) };
    // Work the game schedules for later (an End turn waiting out a hand) runs in its queue like any other.
    session.defer = (task) => {
      queue
        .run(this.guarded(id, live, task))
        .catch((err: unknown) => console.error(`game ${id}: ${(err as Error).message}`));
    };
    this.sessions.set(id, live);
    // Room for it: the least recently used of the others go (never the game being loaded).
    if (this.sessions.size > this.limits.liveGames) this.sweep(Date.now(), id);
    return live;
  }

  /** The game's views, or a throw unless `token` is the game's scorekeeper token. */
  async authorize(id: string, token: string | undefined): Promise<GameView> {
    return this.authorized(id, token);
  }

  /**
   * The keys of the rack cameras of game `id`, one per player (0-based), for the scorekeeper (`token` checked) to hand
   * to each player's phone. A rack key lets its phone send that player's rack frames and nothing else: no other
   * player's, no board frame, no action, no rack read back. Worked out from the game's token hash (an HMAC), so none
   * is kept. None for a game that keeps no racks.
   */
  async rackKeys(id: string, token: string | undefined): Promise<string[]> {
    const session = await this.authorized(id, token);
    const { config, tokenHash } = session.stored;
    // None for a game that keeps no racks (Scrabble Me, nine-tile racks): no rack camera link is offered.
    if (config.variant === 'scrabble-me' || config.variant === 'nine-tile') return [];
    return config.players.map((_, player) => rackKey(tokenHash, id, player));
  }

  /** Throws unless `token` is game `id`'s scorekeeper token or the key of the rack camera at `player`'s place. */
  async authorizeRack(id: string, token: string | undefined, player: number): Promise<void> {
    const session = await this.session(id);
    const { tokenHash } = session.stored;
    const given = Buffer.from(token ?? '');
    const expected = Buffer.from(rackKey(tokenHash, id, player));
    if (token && given.length === expected.length && timingSafeEqual(given, expected)) return;
    if (token && timingSafeEqual(Buffer.from(tokenHash, 'hex'), Buffer.from(hash(token), 'hex'))) return;
    throw new ServiceError('unauthorized', "a valid key for this player's rack camera is needed");
  }

  private async authorized(id: string, token: string | undefined): Promise<Session> {
    const session = await this.session(id);
    const expected = Buffer.from(session.stored.tokenHash, 'hex');
    const given = Buffer.from(hash(token ?? ''), 'hex');
    if (!token || !timingSafeEqual(expected, given))
      throw new ServiceError('unauthorized', 'a valid scorekeeper token is needed');
    return session;
  }

  /** Throws `rate-limited` when the game has had its share of frames this second (HTTP, WebSocket and streams). */
  async admitFrame(id: string): Promise<void> {
    await limit(this.frameLimiter, id, `at most ${this.limits.framesPerSecond} frames a second per game`);
  }

  /**
   * A camera frame for game `id`, decided after everything before it. A frame that only feeds the views waits in
   * one place per camera: a newer one takes its place (the older is answered `skipped`), so a fast camera never
   * builds a queue. With `version`, the frame is refused as `stale` if the game has moved on since.
   */
  async submitFrame(
    id: string,
    bytes: Uint8Array,
    endTurn: boolean,
    { camera = 0, version }: { camera?: number; version?: number | undefined } = {},
  ): Promise<FrameResult> {
    const live = await this.live(id);
    const { queue } = live;
    const read = (frame: Uint8Array) => this.decider.frame(live, frame, endTurn, camera, version);
    if (endTurn || version !== undefined) return queue.run(() => read(bytes));
    return queue.feed<FrameResult>(camera, bytes, read, { status: 'skipped' });
  }

  /**
   * A frame of the rack camera at `player`'s place (0-based) in game `id`: looked at for that player's rack in the
   * background, never read as the board (GameSession.rackFrame). Its picture is checked here by its header; a game on
   * several boards (Scrabble Me) keeps no racks. The look runs where the game's moves are decided (here, or in a
   * hall by the game's worker), which keeps the rack for the move it records.
   */
  async submitRackFrame(
    id: string,
    bytes: Uint8Array,
    player: number,
    now = Date.now(),
  ): Promise<FrameResult> {
    const live = await this.live(id);
    if (!(live.session instanceof GameSession))
      throw new ServiceError('bad-request', 'racks are kept for games on one board, not Scrabble Me');
    await checkFrame(bytes);
    // In the game's queue, after what came before it; a newer rack frame of the same player takes a waiting one's
    // place.
    return live.queue.feed<FrameResult>(
      RACK_FEED + player,
      bytes,
      (frame) => this.decider.rack(live, frame, player, now),
      {
        status: 'skipped',
      },
    );
  }

  /**
   * A scorekeeper's action (a request body, validated by the game for its kind), decided after everything before
   * it; with `version`, refused if the game has moved on.
   */
  async act(id: string, action: unknown, version?: number): Promise<FrameResult> {
    const live = await this.live(id);
    return live.queue.run(() => this.decider.act(live, action, version));
  }

  /** Frames and actions decided in this process. */
  private here(): Decider {
    return {
      newGameId: async () => randomUUID().slice(0, 8),
      frame: (live, frame, endTurn, camera, version) => {
        const { session } = live;
        return this.guarded(session.id, live, () => {
          checkVersion(session, version);
          return session.submitFrame(frame, endTurn, { camera });
        })();
      },
      rack: async (live, frame, player, now) => {
        const { session } = live;
        if (!(session instanceof GameSession))
          throw new ServiceError('bad-request', 'racks are kept for games on one board, not Scrabble Me');
        return session.rackFrame(frame, player, now);
      },
      act: (live, action, version) => {
        const { session } = live;
        return this.guarded(session.id, live, async () => {
          checkVersion(session, version);
          return session.act(action).catch((err: unknown) => {
            throw this.streams.pulledElsewhere(session.id, err);
          });
        })();
      },
    };
  }

  /** Frames and actions decided by the workers (work.ts); this instance then keeps its games' views up to date. */
  private byWorkers(work: Work): Decider {
    const since = (version: number | undefined) => (version === undefined ? {} : { version });
    return {
      // The games are placed on the workers' queues in turn; a random id if the queues cannot say.
      newGameId: async () => {
        const placed = await work.newGameId?.().catch((err: unknown) => {
          console.error(`placing a new game on the work queues: ${(err as Error).message}`);
          return undefined;
        });
        return placed ?? randomUUID().slice(0, 8);
      },
      frame: (live, frame, endTurn, camera, version) =>
        this.remote(
          work,
          live,
          {
            kind: 'frame',
            game: live.session.id,
            frame: Buffer.from(frame.buffer, frame.byteOffset, frame.byteLength).toString('base64'),
            endTurn,
            camera,
            ...since(version),
          },
          frame,
        ),
      act: (live, action, version) =>
        this.remote(work, live, { kind: 'act', game: live.session.id, action, ...since(version) }),
      rack: (live, frame, player) =>
        this.remote(work, live, {
          kind: 'rack',
          game: live.session.id,
          frame: Buffer.from(frame.buffer, frame.byteOffset, frame.byteLength).toString('base64'),
          player,
        }),
    };
  }

  /**
   * Pulls a camera's MJPEG stream into a game, a frame at most every `everyMs`. Returns at once; the stream runs
   * until `stopSource`, or until it fails: then the game's snapshot says it stopped, and its sources' detail why.
   */
  startSource(id: string, url: string, everyMs = 1000, camera = 0): Promise<void> {
    return this.streams.start(id, url, everyMs, camera);
  }

  /** Stops the stream of game `id`'s seat `camera`, wherever it is pulled. Whether there was one. */
  stopSource(id: string, camera = 0): Promise<boolean> {
    return this.streams.stop(id, camera);
  }

  /** Stops every stream and the sweeper (server shutdown); the shared streams' leases are let go (after a scan
   *  running finishes), for the others to take them at once. */
  async stopAll(): Promise<void> {
    this.closed = true;
    clearInterval(this.sweeper);
    await this.streams.close();
  }

  /**
   * Games newest first, a page at a time; `next` continues the listing. Archived games are listed only with
   * `status: 'archived'`.
   */
  list(query: ListingQuery = {}): Promise<Listing> {
    return listGames(this.store, query);
  }

  /**
   * Archives a game (the scorekeeper's token): it leaves the listing. Only a game that has ended, or was abandoned
   * (nothing recorded for a week), so that a game being played never disappears; `archived: false` brings it back.
   */
  async archive(id: string, token: string | undefined, archived: boolean): Promise<void> {
    const session = await this.authorized(id, token);
    if (archived) {
      const snapshot = session.snapshot();
      const over = snapshot.variant === 'scrabble-me' ? snapshot.phase === 'ended' : snapshot.ended !== null;
      const last = (await this.store.getGame(id))?.events.at(-1)?.at ?? session.stored.createdAt;
      if (!over && !abandoned(last, Date.now()))
        throw new ServiceError(
          'not-allowed',
          `the game is still being played: archive it once it has ended, or after ${ABANDONED_DAYS} days without a move`,
        );
    }
    await this.store.setArchived(id, archived ? new Date().toISOString() : null);
  }

  /** Games in memory now (for tests and the soak bench). */
  get loaded(): number {
    return this.sessions.size;
  }

  /**
   * `job` decided by a worker (work.ts); then this instance's copy of the game catches up from the store, so that
   * the answer and the views show what the worker recorded.
   */
  private async remote(work: Work, live: Live, job: WorkJob, frame?: Uint8Array): Promise<FrameResult> {
    try {
      const { result, grid, disturbed } = await work.run(job);
      // The camera's page here is shown the frame with the grid the worker found in it, and the scorekeeper the
      // notice the worker gives (a committed square read as changed).
      if (frame && job.kind === 'frame' && grid)
        await live.session.pictures.showFrame(frame, job.camera, grid);
      if (disturbed) live.session.showDisturbance(disturbed);
      return result;
    } catch (err) {
      if (frame && job.kind === 'frame' && err instanceof ServiceError && err.code === 'no-board')
        await live.session.pictures.showFrame(frame, job.camera, null);
      throw err;
    } finally {
      // What the worker decided stands whatever happens here: a store that cannot be read now is caught up later,
      // with a backoff until it can.
      await this.catchUp.now(live);
    }
  }

  /**
   * An End turn decided by a worker, guarded against being doubled by the frame noted with the game in the store
   * (TurnFrame), not only in this process's memory: a client's retry of an End turn whose answer was lost (Redis
   * restarted, its worker replaced) is `unchanged`, never a pass. The very frame again within TURN_FRAME_MS with
   * nothing recorded since; with `version`, the version check alone decides.
   */
  private async endTurnOnce(
    game: string,
    bytes: Uint8Array,
    camera: number,
    version: number | undefined,
  ): Promise<FrameResult> {
    const digest = createHash('sha256').update(bytes).digest('base64');
    const live = await this.live(game);
    if (version === undefined && this.store.turnFrame) {
      const noted = await this.store.turnFrame(game, camera).catch(storeOutage('try again in a few seconds'));
      if (
        noted?.digest === digest &&
        noted.version === live.session.version &&
        Date.now() - Date.parse(noted.at) < TURN_FRAME_MS
      )
        return {
          status: 'unchanged',
          reasons: ['this very frame has just ended a turn: nothing more recorded'],
        };
    }
    const result = await this.submitFrame(game, bytes, true, { camera, version });
    if (result.status === 'committed')
      await this.store
        .noteTurnFrame?.(game, {
          camera,
          digest,
          version: live.session.version,
          at: new Date().toISOString(),
        })
        .catch((err: unknown) =>
          console.error(`game ${game}: noting the End turn's frame: ${(err as Error).message}`),
        );
    return result;
  }

  /** The work of a `tilecam worker` (work.ts): decided here, as without a queue. */
  readonly handler: WorkHandler = {
    frame: (game, bytes, endTurn, camera, version) =>
      endTurn
        ? this.endTurnOnce(game, bytes, camera, version)
        : this.submitFrame(game, bytes, false, { camera, version }),
    act: (game, action, version) => this.act(game, action, version),
    rack: (game, bytes, player) => this.submitRackFrame(game, bytes, player),
    gridOf: (game, frame) => this.sessions.get(game)?.session.pictures.gridOf(frame),
    disturbanceOf: (game) => this.sessions.get(game)?.session.disturbance(),
    waitsOf: (game) => this.sessions.get(game)?.session.endTurnsWaiting,
    waitStands: (game, camera, mark) => this.sessions.get(game)?.session.waitStands(camera, mark),
    version: async (game, fresh) => {
      const live = await this.live(game);
      if (fresh) await live.queue.run(() => this.catchUp.once(live));
      return live.session.version;
    },
    settlePartition: async (p) => {
      await Promise.all(
        [...this.sessions.entries()]
          .filter(([id, live]) => partitionOf(id) === p && live.session.busy)
          .map(([id, live]) => live.queue.run(this.guarded(id, live, () => live.session.settleWaits()))),
      );
    },
    dropPartition: (p) => {
      for (const [id, live] of this.sessions)
        if (partitionOf(id) === p && live.queue.idle && !live.session.busy) this.sessions.delete(id);
    },
  };

  /**
   * Drops from memory the games nobody watches, pulls or is using: those idle past the limit, and the least
   * recently used while more than the limit are loaded. Everything of a game is stored (its events, its held
   * readings), so it is loaded again exactly as it was; only the cameras' last frames are lost.
   */
  sweep(now = Date.now(), keep?: string): void {
    const candidates = [...this.sessions.entries()]
      .filter(
        ([id, live]) =>
          id !== keep &&
          live.session.watchers === 0 &&
          live.queue.idle &&
          !live.session.busy &&
          !this.streams.pulling(id),
      )
      .sort((a, b) => a[1].lastUsed - b[1].lastUsed);
    let excess = this.sessions.size - this.limits.liveGames;
    for (const [id, live] of candidates) {
      const idle = now - live.lastUsed >= this.limits.idleMs;
      if (!idle && excess <= 0) break;
      this.sessions.delete(id);
      excess--;
    }
  }
}

/** The game in memory as stored (another process changed it). */
function checkVersion(session: Session, version: number | undefined): void {
  if (version !== undefined && version !== session.version)
    throw new ServiceError(
      'stale',
      `the game has moved on (version ${session.version}, this request was made at ${version}): reload it; nothing was recorded`,
    );
}

export async function limit(limiter: RateLimiterAbstract, key: string, message: string): Promise<void> {
  try {
    await limiter.consume(key);
  } catch (err) {
    if (err instanceof RateLimiterRes) throw new ServiceError('rate-limited', message, err.msBeforeNext);
    throw err;
  }
}

function hash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** The key of the rack camera at `player`'s place in game `id`: an HMAC of them under the game's token hash. */
function rackKey(tokenHash: string, id: string, player: number): string {
  return createHmac('sha256', Buffer.from(tokenHash, 'hex'))
    .update(`${id}:rack:${player}`)
    .digest('base64url');
}

function lexiconFor(config: GameConfig): Lexicon | undefined {
  if (config.lexicon === 'none') return undefined;
  return config.lang === 'en' ? defaultEnglishLexicon() : undefined;
}
