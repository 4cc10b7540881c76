/**
 * What both kinds of game share on their live side: telling the viewers after a change (once per change, after
 * the request that made it has been answered), the camera streams shown to the scorekeeper, and photo URLs.
 */
import { createHash } from 'node:crypto';
import type { SourceView } from '../protocol/index.ts';

/**
 * Calls every listener with a fresh snapshot, once, on the event loop's next turn however many changes were made
 * before it: the HTTP reply of a commit goes out first, and a thousand viewers cost the scorekeeper nothing.
 */
export class FanOut<S> {
  private scheduled = false;

  constructor(
    private readonly snapshot: () => S,
    private readonly listeners: ReadonlySet<(snapshot: S) => void>,
  ) {}

  schedule(): void {
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

/** The camera streams pulled for a game, by seat: pulling, or stopped with the reason the scorekeeper sees. */
export class SourceBoard {
  private readonly seats = new Map<number, SourceView>();

  constructor(private readonly changed: () => void) {}

  set(view: SourceView): void {
    this.seats.set(view.camera, view);
    this.changed();
  }

  delete(camera: number): void {
    if (this.seats.delete(camera)) this.changed();
  }

  view(): SourceView[] {
    return [...this.seats.values()].sort((a, b) => a.camera - b.camera);
  }
}

/** The URL a page loads a stored photo from ('' when the photo was not kept). */
export function photoUrl(gameId: string, path: string | undefined): string {
  const name = path?.split('/').pop();
  return name ? `/api/games/${gameId}/photos/${encodeURIComponent(name)}` : '';
}

/**
 * Remembers, per camera, the frame that last ended a turn and the game's version right after it: the same bytes
 * again, with nothing recorded since and within a few seconds, are a doubled or retried End turn (two clicks, a
 * client's retry), not a second turn, and must not record a pass.
 */
export class TurnFrames {
  private readonly last = new Map<number, { digest: string; version: number; at: number }>();

  constructor(private readonly windowMs = 10_000) {}

  repeated(camera: number, bytes: Uint8Array, version: number, now = Date.now()): boolean {
    const last = this.last.get(camera);
    return (
      last !== undefined &&
      last.version === version &&
      now - last.at < this.windowMs &&
      last.digest === digest(bytes)
    );
  }

  remember(camera: number, bytes: Uint8Array, version: number, now = Date.now()): void {
    this.last.set(camera, { digest: digest(bytes), version, at: now });
  }
}

function digest(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('base64');
}
