/**
 * The bus of a server that runs alone (no Redis): there is no other instance to tell of a change or to hear from, so
 * every call does nothing. The service holds one instead of branching on "is there a bus" at each use, as colyseus's
 * `LocalPresence` stands in for its Redis presence.
 */
import { type RateLimiterAbstract, RateLimiterMemory } from 'rate-limiter-flexible';
import type { Thumbnail } from '../game/frames.ts';
import { NO_SHARE, type PictureShare } from '../game/live.ts';
import type { BusNote, GameBus } from './bus.ts';

export class LocalBus implements GameBus {
  readonly instance = 'local';

  onReconnect(_listener: () => void): void {}

  async publish(_id: string, _note?: BusNote): Promise<void> {}

  subscribe(_listener: (id: string, note: BusNote) => void): void {}

  pictures(_id: string): PictureShare {
    return NO_SHARE;
  }

  onPicture(_listener: (id: string, thumb: Thumbnail) => void): void {}

  limiter(name: string, points: number, seconds: number): RateLimiterAbstract {
    return new RateLimiterMemory({ points, duration: seconds, keyPrefix: `tilecam:${name}` });
  }

  async close(): Promise<void> {}
}
