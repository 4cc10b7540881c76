/** A game's work queue in one process: its frames and actions decided one at a time, in the order they came. */

/**
 * One game's work, one piece at a time in arrival order, with one waiting place per camera for frames that only
 * feed the views.
 */
export class GameQueue {
  private tail: Promise<unknown> = Promise.resolve();
  private pending = 0;
  private readonly feeds = new Map<
    number,
    { bytes: Uint8Array; resolve: (r: never) => void; reject: (e: unknown) => void }
  >();

  /** Nothing running or waiting. */
  get idle(): boolean {
    return this.pending === 0;
  }

  run<T>(task: () => Promise<T>): Promise<T> {
    this.pending++;
    const result = this.tail.then(task);
    this.tail = result.then(
      () => this.pending--,
      () => this.pending--,
    );
    return result;
  }

  feed<T>(
    camera: number,
    bytes: Uint8Array,
    read: (bytes: Uint8Array) => Promise<T>,
    skipped: T,
  ): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const waiting = this.feeds.get(camera);
      if (waiting) {
        (waiting.resolve as (r: T) => void)(skipped);
        Object.assign(waiting, { bytes, resolve, reject });
        return;
      }
      const entry = { bytes, resolve: resolve as (r: never) => void, reject };
      this.feeds.set(camera, entry);
      this.run(() => {
        this.feeds.delete(camera);
        return read(entry.bytes);
      }).then(
        (r) => (entry.resolve as (r: T) => void)(r),
        (e) => entry.reject(e),
      );
    });
  }
}
