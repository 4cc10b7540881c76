/** The viewers of a game, told after each change, and catching up with the events another instance stored. */
/**
 * Who watches a game. Each change is told once, on the event loop's next turn however many changes were made
 * before it, with a fresh snapshot: the HTTP reply of a commit goes out first, and a thousand viewers cost the
 * scorekeeper nothing.
 */
export class Viewers<S> {
  private readonly listeners = new Set<(snapshot: S) => void>();
  private scheduled = false;
  /** Changes told so far (the service tells other instances when a request changed the game). */
  count = 0;

  constructor(private readonly snapshot: () => S) {}

  get size(): number {
    return this.listeners.size;
  }

  subscribe(listener: (snapshot: S) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Tells every viewer after the current request has been answered. `viewOnly`: nothing stored changed (a view
   *  worked out afterwards), so other instances are not told. */
  changed(viewOnly = false): void {
    if (!viewOnly) this.count++;
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      if (this.listeners.size === 0) return;
      const snapshot = this.snapshot();
      for (const listener of this.listeners) listener(snapshot);
    });
  }
}

/**
 * The stored events after version `seq`, which must follow it without a gap (a game catching up with what it or
 * another instance stored): a gap is a broken store, thrown.
 */
export function eventsAfter<E extends { readonly seq: number }>(
  events: readonly E[],
  seq: number,
  gameId: string,
): E[] {
  const newer = events.filter((e) => e.seq > seq);
  newer.forEach((e, k) => {
    if (e.seq !== seq + k + 1)
      throw new Error(`stored game ${gameId} skips from event ${seq + k} to ${e.seq}`);
  });
  return newer;
}
