/**
 * Catching a game in memory up with the store, when another instance or a worker recorded in it: the events recorded
 * after the version in memory, and the held readings when they differ from those last read. Should the store fail (the
 * database restarting), it is tried again after a backoff until it succeeds or the game leaves memory: a copy is never
 * left stale without a retry.
 */
import type { GameChanges, GameStore } from '../../store/types.ts';
import type { Session } from '../game/contract.ts';
import type { GameQueue } from '../queue.ts';

/** A game in memory, as catching up sees it. */
export interface GameCopy {
  readonly session: Session;
  readonly queue: GameQueue;
  /** The held readings as last read from the store (an instance whose games a worker decides compares them). */
  held: string;
  /** A catching up that failed, tried again at this timer, and the wait before the next. */
  retry?: { timer: NodeJS.Timeout; ms: number };
}

/** Catching up that failed is tried again after this, doubling up to MAX_MS, until it succeeds. */
const FIRST_MS = 250;
const MAX_MS = 4000;

export class CatchUp {
  constructor(
    private readonly store: Pick<GameStore, 'getChanges'>,
    /** Whether `copy` is still the one in memory (a retry for a game dropped meanwhile is not made). */
    private readonly current: (copy: GameCopy) => boolean,
  ) {}

  /** Catches `copy` up in its queue, after what runs there. */
  soon(copy: GameCopy): void {
    copy.queue
      .run(() => this.once(copy))
      .then(
        () => this.done(copy),
        (err: unknown) => this.later(copy, err),
      );
  }

  /** Catches `copy` up now, outside its queue (after a worker's answer): a failure is tried again later. */
  async now(copy: GameCopy): Promise<void> {
    await this.once(copy).then(
      () => this.done(copy),
      (err: unknown) => this.later(copy, err),
    );
  }

  /** Catches `copy` up once, throwing what the store throws. */
  async once(copy: GameCopy): Promise<void> {
    const changes = await this.store.getChanges(copy.session.id, copy.session.version);
    if (!changes) return;
    if (changes.events.length > 0 || JSON.stringify(changes.held ?? []) !== copy.held) refresh(copy, changes);
  }

  private done(copy: GameCopy): void {
    if (copy.retry) clearTimeout(copy.retry.timer);
    copy.retry = undefined;
  }

  private later(copy: GameCopy, err: unknown): void {
    const ms = copy.retry ? Math.min(copy.retry.ms * 2, MAX_MS) : FIRST_MS;
    console.error(`game ${copy.session.id}: catching up: ${(err as Error).message}; again in ${ms} ms`);
    if (copy.retry) clearTimeout(copy.retry.timer);
    const timer = setTimeout(() => {
      // Dropped from memory meanwhile: it is read whole when next asked for.
      if (!this.current(copy)) copy.retry = undefined;
      else this.soon(copy);
    }, ms);
    timer.unref();
    copy.retry = { timer, ms };
  }
}

/** `changes` applied to the copy, and its held readings noted as last read. */
export function refresh(copy: GameCopy, changes: GameChanges): void {
  copy.session.refresh(changes);
  copy.held = JSON.stringify(changes.held ?? []);
}
