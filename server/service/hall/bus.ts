/**
 * Tells the other instances of the service that a game changed, so that their viewers see it: one Redis pub/sub
 * channel for all games (REDIS_URL). A message names the game and the instance it came from; the game itself is
 * read again from the shared store, never from the message. What is not stored comes with it: the board-disturbed
 * notice of the last frame read (whichever instance or worker read it). Without Redis (one process) there is no bus.
 *
 * The camera pictures go over a channel of their own, and only for games whose cameras a page watches on another
 * instance: each instance notes in Redis, game by game, until when a page of its own watches (renewed while it
 * does), and whether one of them shows the pictures or all want only the grid (the camera page); an instance that
 * read a frame sends its picture (or only its grid) only when another's note has not run out.
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { type RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis } from 'rate-limiter-flexible';
import type { Thumbnail } from '../game/frames.ts';
import type { PictureShare, Watching } from '../game/live.ts';
import { isSquares } from '../validate.ts';

/** What a message says of the game besides that it changed: the squares of its board-disturbed notice now. */
export interface BusNote {
  readonly disturbed?: readonly { row: number; col: number }[];
}

export interface GameBus {
  /** This instance's name, on its own messages. */
  readonly instance: string;
  /** A connection for commands (the shared rate limits count there), when the bus is Redis: it fails at once
   *  while Redis is away (no queue of commands waiting for it), so a limiter falls back to counting in memory. */
  readonly redis?: Redis;
  /** Calls `listener` when the bus is back after losing Redis: messages sent meanwhile were missed. */
  onReconnect(listener: () => void): void;
  /** Tells the others that game `id` changed. */
  publish(id: string, note?: BusNote): Promise<void>;
  /** Calls `listener` with the id of every game another instance changed, and what the message said of it. */
  subscribe(listener: (id: string, note: BusNote) => void): void;
  /** Game `id`'s camera pictures shared with the other instances (alone, a share that no one watches). */
  pictures(id: string): PictureShare;
  /** Calls `listener` with every camera picture another instance sends, and its game. */
  onPicture(listener: (id: string, thumb: Thumbnail) => void): void;
  /**
   * A rate limit of `points` per `seconds`, named `name`: counted in Redis, one count for every instance (in memory
   * here should Redis stop answering), or alone in this process.
   */
  limiter(name: string, points: number, seconds: number): RateLimiterAbstract;
  close(): Promise<void>;
}

const CHANNEL = 'tilecam:games';
const PICTURES = 'tilecam:pictures';
/** Per game, each instance whose pages watch its cameras, and until when (Redis's clock, in ms); and in a key of its
 *  own, those with a page that shows the pictures. */
const watchKey = (id: string) => `tilecam:watching:${id}`;
const picturesKey = (id: string) => `tilecam:watching-pictures:${id}`;
/** An instance renews its notes this often; a note runs out after WATCH_MS (a crashed instance's too). */
const WATCH_RENEW_MS = 5000;
const WATCH_MS = 20_000;
/** Notes that instance ARGV[1] watches the games KEYS, until Redis's now + ARGV[2] ms. */
const NOTE = `local t = redis.call('time')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
for _, key in ipairs(KEYS) do
  redis.call('hset', key, ARGV[1], now + tonumber(ARGV[2]))
  redis.call('pexpire', key, ARGV[2])
end
return 1`;
/** 2 when an instance other than ARGV[1] has a note on KEYS[2] (pictures) that has not run out by Redis's clock, else
 *  1 when one has on KEYS[1] (the grid or the pictures), else 0. */
const WATCHED = `local t = redis.call('time')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
for k = 2, 1, -1 do
  local notes = redis.call('hgetall', KEYS[k])
  for i = 1, #notes, 2 do
    if notes[i] ~= ARGV[1] and tonumber(notes[i + 1]) > now then return k end
  end
end
return 0`;
/** The longest picture taken from the channel, in base64 characters (about 290 kB of JPEG; a thumbnail is 320 px,
 *  some 10–40 kB). */
const MAX_PICTURE_CHARS = 400_000;

/**
 * A camera picture as an instance sends it, checked (base64 data of the length allowed, or none for a grid alone,
 * the sizes, four corners or none, a seat) and rebuilt from those fields only; undefined for anything else.
 */
export function thumbnailOf(x: unknown): Thumbnail | undefined {
  if (!isThumbnail(x)) return undefined;
  const { jpeg, width, height, corners, camera } = x;
  return {
    ...(jpeg === undefined ? {} : { jpeg }),
    width,
    height,
    corners,
    ...(camera === undefined ? {} : { camera }),
  };
}

function isThumbnail(x: unknown): x is Thumbnail {
  if (typeof x !== 'object' || x === null) return false;
  const t = x as Record<string, unknown>;
  const side = (v: unknown) => Number.isInteger(v) && (v as number) > 0 && (v as number) <= 100_000;
  const point = (p: unknown) =>
    Array.isArray(p) && p.length === 2 && p.every((v) => typeof v === 'number' && Number.isFinite(v));
  return (
    (t.jpeg === undefined ||
      (typeof t.jpeg === 'string' &&
        t.jpeg.length > 0 &&
        t.jpeg.length <= MAX_PICTURE_CHARS &&
        /^[A-Za-z0-9+/]*={0,2}$/.test(t.jpeg))) &&
    side(t.width) &&
    side(t.height) &&
    (t.corners === null || (Array.isArray(t.corners) && t.corners.length === 4 && t.corners.every(point))) &&
    (t.camera === undefined ||
      (Number.isInteger(t.camera) && (t.camera as number) >= 0 && (t.camera as number) < 16))
  );
}
/** A game id as the service makes them; anything else on the channel is ignored. */
const GAME_ID = /^[\w-]{1,64}$/;

export class RedisBus implements GameBus {
  readonly instance = randomUUID();
  readonly redis: Redis;
  private readonly listeners = new Set<(id: string, note: BusNote) => void>();
  private readonly pictureListeners = new Set<(id: string, thumb: Thumbnail) => void>();
  /** The games whose cameras a page here watches, what of them, and the timer that renews their notes. */
  private readonly watched = new Map<string, 'pictures' | 'grid'>();
  private readonly renewal: NodeJS.Timeout;

  private readonly reconnected = new Set<() => void>();

  private constructor(
    private readonly pub: Redis,
    private readonly sub: Redis,
    commands: Redis,
  ) {
    this.redis = commands;
    // The subscriber ready again: it lost Redis for a while (ioredis subscribes again by itself). Its first ready
    // came before this (`open` waits for it), so every one heard here is a reconnection.
    sub.on('ready', () => {
      for (const listener of this.reconnected) listener();
    });
    sub.on('message', (channel: string, text: string) => {
      if (
        channel === PICTURES &&
        (this.pictureListeners.size === 0 || text.length > MAX_PICTURE_CHARS + 1000)
      )
        return;
      let message: { game?: unknown; from?: unknown; disturbed?: unknown; thumb?: unknown };
      try {
        message = JSON.parse(text) as typeof message;
      } catch {
        return;
      }
      if (message.from === this.instance || typeof message.game !== 'string' || !GAME_ID.test(message.game))
        return;
      if (channel === PICTURES) {
        const thumb = thumbnailOf(message.thumb);
        if (thumb) for (const listener of this.pictureListeners) listener(message.game, thumb);
        return;
      }
      // A notice that is not a short list of squares is left out, never passed on.
      const note: BusNote = isSquares(message.disturbed) ? { disturbed: message.disturbed } : {};
      for (const listener of this.listeners) listener(message.game, note);
    });
    this.renewal = setInterval(() => void this.note([...this.watched.keys()]), WATCH_RENEW_MS);
    this.renewal.unref();
  }

  /** Connects (two connections: one publishes, one listens) and subscribes to the channel. */
  static async open(url: string): Promise<RedisBus> {
    const options = { lazyConnect: true, maxRetriesPerRequest: 3, connectTimeout: 5000 };
    const pub = new Redis(url, options);
    const sub = new Redis(url, options);
    const commands = new Redis(url, { ...options, enableOfflineQueue: false });
    const all = [pub, sub, commands];
    // A dropped connection reconnects by itself; its errors are the log's, not a crash.
    for (const r of all) r.on('error', (err: Error) => console.error(`Redis: ${err.message}`));
    try {
      await Promise.all(all.map((r) => r.connect()));
      await sub.subscribe(CHANNEL);
    } catch (err) {
      for (const r of all) r.disconnect();
      throw err;
    }
    const bus = new RedisBus(pub, sub, commands);
    return bus;
  }

  async publish(id: string, note: BusNote = {}): Promise<void> {
    await this.pub.publish(CHANNEL, JSON.stringify({ ...note, game: id, from: this.instance }));
  }

  subscribe(listener: (id: string, note: BusNote) => void): void {
    this.listeners.add(listener);
  }

  pictures(id: string): PictureShare {
    return {
      watched: async (): Promise<Watching> => {
        const found = await this.redis.eval(WATCHED, 2, watchKey(id), picturesKey(id), this.instance);
        return found === 2 ? 'pictures' : found === 1 ? 'grid' : false;
      },
      send: (thumb) => {
        // A picture is not kept waiting for Redis to come back: the next frame brings a newer one.
        if (this.pub.status !== 'ready') return;
        this.pub
          .publish(PICTURES, JSON.stringify({ game: id, from: this.instance, thumb }))
          .catch((err: unknown) =>
            console.error(`game ${id}: sending a camera picture: ${(err as Error).message}`),
          );
      },
      watching: (here) => {
        const before = this.watched.get(id);
        if (here) {
          this.watched.set(id, here);
          void this.note([id]);
          // No page here shows the pictures any more: the others stop making them at once.
          if (before === 'pictures' && here === 'grid')
            this.redis.hdel(picturesKey(id), this.instance).catch(() => {});
        } else if (this.watched.delete(id)) {
          const batch = this.redis.multi();
          batch.hdel(watchKey(id), this.instance);
          batch.hdel(picturesKey(id), this.instance);
          batch.exec().catch(() => {});
        }
      },
    };
  }

  limiter(name: string, points: number, seconds: number): RateLimiterAbstract {
    return new RateLimiterRedis({
      storeClient: this.redis,
      points,
      duration: seconds,
      keyPrefix: `tilecam:${name}`,
      insuranceLimiter: new RateLimiterMemory({ points, duration: seconds, keyPrefix: `tilecam:${name}` }),
    });
  }

  onPicture(listener: (id: string, thumb: Thumbnail) => void): void {
    // Only a process that shows pictures hears them (a worker does not: it has no pages).
    if (this.pictureListeners.size === 0)
      this.sub
        .subscribe(PICTURES)
        .catch((err: unknown) =>
          console.error(`Redis: listening for camera pictures: ${(err as Error).message}`),
        );
    this.pictureListeners.add(listener);
  }

  /** Notes in Redis that pages here watch the cameras of `games` (and, for those where one shows them, the
   *  pictures), for WATCH_MS from now. */
  private async note(games: readonly string[]): Promise<void> {
    const keys = games.flatMap((id) =>
      this.watched.get(id) === 'pictures' ? [watchKey(id), picturesKey(id)] : [watchKey(id)],
    );
    if (keys.length === 0) return;
    await this.redis
      .eval(NOTE, keys.length, ...keys, this.instance, WATCH_MS)
      .catch((err: unknown) => console.error(`Redis: noting the pages watching: ${(err as Error).message}`));
  }

  onReconnect(listener: () => void): void {
    this.reconnected.add(listener);
  }

  async close(): Promise<void> {
    clearInterval(this.renewal);
    // The pages here no longer watch: the others stop sending at once rather than when the notes run out.
    if (this.watched.size > 0) {
      const batch = this.redis.multi();
      for (const id of this.watched.keys()) {
        batch.hdel(watchKey(id), this.instance);
        batch.hdel(picturesKey(id), this.instance);
      }
      await batch.exec().catch(() => {});
      this.watched.clear();
    }
    this.listeners.clear();
    this.pictureListeners.clear();
    this.reconnected.clear();
    await Promise.allSettled([this.sub.quit(), this.pub.quit(), this.redis.quit()]);
  }
}
