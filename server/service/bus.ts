/**
 * Tells the other instances of the service that a game changed, so that their viewers see it: one Redis pub/sub
 * channel for all games (REDIS_URL). A message names the game and the instance it came from; the game itself is
 * read again from the shared store, never from the message. What is not stored comes with it: the board-disturbed
 * notice of the last frame read (whichever instance or worker read it). Without Redis (one process) there is no bus.
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { isSquares } from './validate.ts';

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
  close(): Promise<void>;
}

const CHANNEL = 'tilecam:games';
/** A game id as the service makes them; anything else on the channel is ignored. */
const GAME_ID = /^[\w-]{1,64}$/;

export class RedisBus implements GameBus {
  readonly instance = randomUUID();
  readonly redis: Redis;
  private readonly listeners = new Set<(id: string, note: BusNote) => void>();

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
    sub.on('message', (_channel: string, text: string) => {
      let message: { game?: unknown; from?: unknown; disturbed?: unknown };
      try {
        message = JSON.parse(text) as typeof message;
      } catch {
        return;
      }
      if (message.from === this.instance || typeof message.game !== 'string' || !GAME_ID.test(message.game))
        return;
      // A notice that is not a short list of squares is left out, never passed on.
      const note: BusNote = isSquares(message.disturbed) ? { disturbed: message.disturbed } : {};
      for (const listener of this.listeners) listener(message.game, note);
    });
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

  onReconnect(listener: () => void): void {
    this.reconnected.add(listener);
  }

  async close(): Promise<void> {
    this.listeners.clear();
    this.reconnected.clear();
    await Promise.allSettled([this.sub.quit(), this.pub.quit(), this.redis.quit()]);
  }
}
