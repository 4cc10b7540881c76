/**
 * The camera streams the server pulls into games (MJPEG, what phone "IP camera" apps serve; mjpeg.ts pulls one), at
 * most `limits.sources` at once. In a hall the list of streams is shared through Redis (hall/sources.ts): a stream
 * pulled by an instance that dies is taken over by another at the next scan, one stopped on any instance stops, and
 * every instance shows their states. Without it, the streams this instance pulls are its own.
 */

import { ServiceError } from '../errors.ts';
import type { Session } from '../game/contract.ts';
import { NoFrameYet } from '../game/live.ts';
import { fieldOf, type SharedSources, type SourceEntry, sourceField } from '../hall/sources.ts';
import type { Limits, SourcePolicy } from '../limits.ts';
import { checkSourceUrl, mjpegFrames, SourceError } from './mjpeg.ts';

/** What the streams need of the games: the service (service.ts). */
export interface StreamGames {
  /** Game `id`, loaded from the store if need be (`not-found` when there is none). */
  session(id: string): Promise<Session>;
  /** Game `id` if it is in memory now. */
  loaded(id: string): Session | undefined;
  /** Every game in memory now. */
  loadedGames(): Iterable<[string, Session]>;
  /** A frame of seat `camera`'s stream, as any camera frame (rate-limited; refused as a ServiceError). */
  feed(id: string, frame: Uint8Array, camera: number): Promise<unknown>;
}

export class CameraStreams {
  /** The camera streams pulled here, by `GAME/SEAT`. */
  private readonly sources = new Map<string, Pull>();
  /** Streams about to be pulled here (being listed, or their lease taken), and how many starts of each are under
   *  way: they count towards the `sources` limit already. */
  private readonly starting = new Map<string, number>();
  private readonly scanTimer: NodeJS.Timeout | undefined;
  /** The scan of the shared streams running, if one is. */
  private scan: Promise<void> | undefined;
  private closed = false;

  constructor(
    private readonly games: StreamGames,
    private readonly limits: Limits,
    private readonly policy: SourcePolicy,
    private readonly shared?: SharedSources,
  ) {
    if (shared) {
      this.scanTimer = setInterval(() => void this.scanSources(), shared.timing.scanMs);
      this.scanTimer.unref();
    }
  }

  /**
   * `err`, or for End turn on a camera whose stream another instance of the hall pulls (listed as pulled, not here:
   * its frames arrive there, and without workers End turn is read where they arrive), what to do about it.
   */
  pulledElsewhere(id: string, err: unknown): unknown {
    if (!(err instanceof NoFrameYet) || !this.shared) return err;
    const key = sourceField(id, err.seat);
    if (this.sources.has(key) || !this.games.loaded(id)?.sources.streamed(err.seat)) return err;
    return new ServiceError(
      'not-allowed',
      `${err.message}: another server of the hall pulls this camera's stream, and End turn is read where its frames arrive; run the hall with workers (--queue and tilecam worker) to press End turn on any server`,
    );
  }

  /**
   * Pulls a camera's MJPEG stream into a game, a frame at most every `everyMs`. Returns at once; the stream runs
   * until `stop`, or until it fails: then the game's snapshot says it stopped, and its sources' detail why
   * (the scorekeeper's only, and the log).
   * A Scrabble Me game pulls one stream per camera seat.
   */
  async start(id: string, url: string, everyMs = 1000, camera = 0): Promise<void> {
    const session = await this.games.session(id);
    if (!Number.isInteger(camera) || camera < 0 || camera >= session.seats)
      throw new ServiceError('bad-request', `camera must be a seat from 0 to ${session.seats - 1}`);
    let checked: URL;
    try {
      checked = checkSourceUrl(url, this.policy);
    } catch (err) {
      throw new ServiceError(this.policy === 'none' ? 'forbidden' : 'bad-request', (err as Error).message);
    }
    const key = sourceField(id, camera);
    if (this.closed) throw new ServiceError('unavailable', 'this server is shutting down');
    if (!this.sources.has(key) && !this.starting.has(key) && this.busy() >= this.limits.sources)
      throw new ServiceError(
        'not-allowed',
        `this server already pulls ${this.limits.sources} camera streams, its most at once`,
      );
    const entry: SourceEntry = { url, everyMs, host: checked.host, state: 'pulling', error: null };
    this.reserve(key);
    try {
      // Listed first: with the hall's list out of reach nothing changes here (the stream pulled before goes on).
      await this.shared?.start(key, entry).catch(listOutOfReach);
    } finally {
      this.unreserve(key);
    }
    // Shut down meanwhile (stopAll does not wait for this): taken off the list again, as the answer says.
    if (this.closed) {
      await this.shared?.withdraw(key, entry).catch(() => {});
      throw new ServiceError(
        'unavailable',
        'this server is shutting down: start the stream again (on another server)',
      );
    }
    this.pull(id, camera, entry);
  }

  /** Pulls the stream of game `id`'s seat `camera` here (the game loaded) until it stops, is stopped or let go. */
  private pull(id: string, camera: number, entry: SourceEntry): void {
    const { url, everyMs, host } = entry;
    const key = sourceField(id, camera);
    // One pull a seat: the one before it (another URL, a double click) stops.
    this.stopPulling(key);
    const controller = new Pull(entry);
    this.sources.set(key, controller);
    this.games.loaded(id)?.sources.set({ camera, host, state: 'pulling', error: null });
    void (async () => {
      let last = 0;
      let error = 'the stream ended';
      try {
        const frames = mjpegFrames(url, controller.signal, {
          policy: this.policy,
          timeoutMs: this.limits.sourceTimeoutMs,
        });
        for await (const frame of frames) {
          if (Date.now() - last < everyMs) continue;
          last = Date.now();
          try {
            await this.games.feed(id, frame, camera);
          } catch (err) {
            if (!(err instanceof ServiceError)) throw err;
          }
        }
      } catch (err) {
        error = err instanceof SourceError ? err.message : `the stream failed: ${(err as Error).message}`;
      } finally {
        if (this.sources.get(key) === controller) {
          this.sources.delete(key);
          if (!controller.signal.aborted) {
            console.error(`game ${id}: camera stream at seat ${camera} stopped: ${error}`);
            this.games.loaded(id)?.sources.set({ camera, host, state: 'stopped', error });
            // Kept on the hall's list, stopped, with why: every instance's scorekeeper can read it.
            this.shared
              ?.stopped(key, { url, everyMs, host, state: 'stopped', error, at: Date.now() })
              .catch((err: unknown) => console.error(`game ${id}: camera stream: ${(err as Error).message}`));
          }
        }
      }
    })();
  }

  /** Stops the stream of game `id`'s seat `camera`, wherever it is pulled. Whether there was one. */
  async stop(id: string, camera = 0): Promise<boolean> {
    const key = sourceField(id, camera);
    // Off the list first: with it out of reach the stream goes on (stopped here only, another would take it over).
    const listed = (await this.shared?.remove(key).catch(listOutOfReach)) ?? false;
    const here = this.stopPulling(key);
    this.games.loaded(id)?.sources.delete(camera);
    return here || listed;
  }

  /** Stops pulling stream `key` here. Whether it was pulled here. */
  private stopPulling(key: string): boolean {
    this.sources.get(key)?.abort();
    return this.sources.delete(key);
  }

  /**
   * The hall's shared camera streams (sources.ts), every scan: keeps those pulled here (lets go those stopped or
   * started elsewhere), takes over those nobody pulls any more (their instance died), up to this instance's limit,
   * and shows every loaded game's streams as the list has them.
   */
  private scanSources(): Promise<void> {
    this.scan ??= this.scanOnce().finally(() => {
      this.scan = undefined;
    });
    return this.scan;
  }

  private async scanOnce(): Promise<void> {
    const shared = this.shared;
    if (!shared || this.closed) return;
    try {
      // Those let go are stopped here only if still the pull that was renewed (not one started again meanwhile).
      const pulled = new Map(this.sources);
      const entries = new Map([...pulled].map(([key, pull]) => [key, pull.entry]));
      for (const key of await shared.renew(entries))
        if (this.sources.get(key) === pulled.get(key)) this.stopPulling(key);
      const list = await shared.list();
      for (const [id, session] of this.games.loadedGames())
        for (const { camera } of session.sources.view()) {
          const key = sourceField(id, camera);
          if (!list.has(key) && !this.sources.has(key)) session.sources.delete(camera);
        }
      for (const [key, { entry, text }] of list) {
        const { game, camera } = fieldOf(key)!;
        if (this.sources.has(key)) continue;
        this.games
          .loaded(game)
          ?.sources.set({ camera, host: entry.host, state: entry.state, error: entry.error });
        if (entry.state !== 'pulling' || this.starting.has(key) || this.busy() >= this.limits.sources)
          continue;
        // The list is outside input: the URL is checked again against this instance's policy.
        let checked: URL;
        try {
          checked = checkSourceUrl(entry.url, this.policy);
        } catch {
          continue;
        }
        if (this.closed) continue;
        // Counted towards the limit from here: a stream started here meanwhile waits for its slot.
        this.reserve(key);
        try {
          if (!(await shared.take(key, text))) continue;
          let session: Session | undefined;
          try {
            session = await this.games.session(game);
          } catch (err) {
            // Its game is gone (nothing to pull it into): off the list. Anything else (the database away): let go,
            // for the next scan here or elsewhere.
            if (err instanceof ServiceError && err.code === 'not-found') await shared.remove(key);
            else await shared.release([key]);
            continue;
          }
          // Shutting down (before the lease was looked at, or while): let go at once. Stopped meanwhile (its lease
          // deleted with it): not pulled. Started here meanwhile (its own lease): not pulled again from what was read.
          if (this.closed || !(await shared.holds(key)) || this.closed) {
            if (this.closed) await shared.release([key]);
            continue;
          }
          if (this.sources.has(key)) continue;
          if (camera >= session.seats) {
            await shared.remove(key);
            continue;
          }
          console.error(`game ${game}: taking over the camera stream at seat ${camera} (${checked.host})`);
          this.pull(game, camera, { ...entry, host: checked.host });
        } finally {
          this.unreserve(key);
        }
      }
    } catch (err) {
      console.error(`camera streams: ${(err as Error).message}`);
    }
  }
  /** Stops every stream pulled here; the shared streams' leases are let go (after a scan running finishes), for
   *  the others to take them at once. */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.scanTimer);
    const pulled = [...this.sources.keys()];
    for (const controller of this.sources.values()) controller.abort();
    this.sources.clear();
    // A scan running takes and pulls nothing more now (`closed`); its leases are let go with the rest.
    await this.scan;
    await this.shared
      ?.release(pulled)
      .catch((err: unknown) => console.error(`camera streams: letting go: ${(err as Error).message}`));
  }

  /** Whether a stream of game `id` is pulled here (the game stays in memory while it is). */
  pulling(id: string): boolean {
    for (const key of this.sources.keys()) if (key.startsWith(`${id}/`)) return true;
    return false;
  }

  private reserve(key: string): void {
    this.starting.set(key, (this.starting.get(key) ?? 0) + 1);
  }

  private unreserve(key: string): void {
    const left = (this.starting.get(key) ?? 1) - 1;
    if (left > 0) this.starting.set(key, left);
    else this.starting.delete(key);
  }

  /** The streams pulled here or about to be: what the `sources` limit counts. */
  private busy(): number {
    let n = this.sources.size;
    for (const key of this.starting.keys()) if (!this.sources.has(key)) n++;
    return n;
  }
}

/** A camera stream pulled here: stopped by aborting it; `entry` is how it was started (listed again with it should
 *  the hall's list be lost). */
class Pull extends AbortController {
  constructor(readonly entry: SourceEntry) {
    super();
  }
}

/** The hall's list of camera streams (Redis) could not be reached: the client's answer, nothing changed. */
function listOutOfReach(err: unknown): never {
  throw new ServiceError(
    'unavailable',
    `the hall's list of camera streams is out of reach: ${(err as Error).message}`,
  );
}
