/**
 * End turns waiting out a hand over the board, one per camera (a classic game has one camera, 0). The camera's next
 * clear frame ends the turn; after HAND_WAIT_MS without one, the last reading given is handed to `expire`, which
 * holds it for the scorekeeper, saying a hand was in view. Both kinds of game wait so (classic.ts, me.ts).
 */

/** How long an End turn waits out a hand over the board for a clear frame. */
export const HAND_WAIT_MS = 4000;

/** A camera that sent a frame this recently is streaming: it will send more, so an End turn can wait out a hand.
 *  The camera page sends one at least every 5 s (web/ui/frame-gate.ts: a board that has not changed for a few seconds
 *  is sent that often, not every second), on a timer of its own that may run late (a tick a second: 5–6 s apart),
 *  over a network that may be slow. */
export const STREAM_GAP_MS = 10_000;

export class HandWaits<T> {
  private readonly waits = new Map<number, { timer: NodeJS.Timeout; last: T }>();

  constructor(
    /** Runs a task in the game's queue: a clear frame being read when the time is up is decided first. */
    private readonly defer: (task: () => Promise<unknown>) => void,
    /** The time is up for `camera`'s wait, and `last` is the last reading it was given. */
    private readonly expire: (camera: number, last: T) => Promise<unknown>,
    private readonly ms = HAND_WAIT_MS,
  ) {}

  get size(): number {
    return this.waits.size;
  }

  has(camera: number): boolean {
    return this.waits.has(camera);
  }

  /** Each camera waiting and its last reading, as they are now. */
  entries(): [number, T][] {
    return [...this.waits].map(([camera, w]) => [camera, w.last]);
  }

  /** Starts `camera`'s wait with `last`, or gives the wait going on its newer reading (its time runs on). */
  wait(camera: number, last: T): void {
    const going = this.waits.get(camera);
    if (going) {
      going.last = last;
      return;
    }
    const timer = setTimeout(
      () =>
        this.defer(async () => {
          const now = this.waits.get(camera);
          if (!now || now.timer !== timer) return;
          this.waits.delete(camera);
          await this.expire(camera, now.last);
        }),
      this.ms,
    );
    timer.unref();
    this.waits.set(camera, { timer, last });
  }

  /** Ends `camera`'s wait without a hold; its last reading, if it was waiting. */
  stop(camera: number): T | undefined {
    const going = this.waits.get(camera);
    if (!going) return undefined;
    clearTimeout(going.timer);
    this.waits.delete(camera);
    return going.last;
  }

  /** Ends every wait without a hold; each camera's last reading. */
  stopAll(): [number, T][] {
    const all = this.entries();
    for (const [camera] of all) this.stop(camera);
    return all;
  }
}
