/**
 * The games the server keeps: creation with a scorekeeper token, lookup (loading a game from storage on first use,
 * so a restart resumes every game exactly), and token checks. Transport-free: HTTP and WebSocket call into it.
 */
import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { join } from 'node:path';
import type { Lexicon } from '../engine/index.ts';
import { defaultEnglishLexicon } from '../lexicon/index.ts';
import type { GameConfig, GameStore } from '../store/types.ts';
import { ServiceError } from './errors.ts';
import { MeSession } from './me-session.ts';
import { mjpegFrames } from './mjpeg.ts';
import { type CaptureTiming, GameSession } from './session.ts';

/** A game being played: the classic game (and its variants on one board), or Scrabble Me. */
export type Session = GameSession | MeSession;

export class GameService {
  private readonly sessions = new Map<string, Session>();

  constructor(
    readonly store: GameStore,
    private readonly dataDir: string,
    private readonly timing: CaptureTiming = { frames: 3, ms: 1500 },
  ) {}

  /** Folder of a game's photos. */
  photoDir(id: string): string {
    return join(this.dataDir, 'photos', id);
  }

  create(config: GameConfig): { id: string; token: string } {
    const id = randomUUID().slice(0, 8);
    const token = randomBytes(24).toString('base64url');
    this.store.createGame({ id, tokenHash: hash(token), config });
    return { id, token };
  }

  get(id: string): Session {
    let session = this.sessions.get(id);
    if (!session) {
      const stored = this.store.getGame(id);
      if (!stored) throw new ServiceError('not-found', `no game ${id}`);
      session =
        stored.config.variant === 'scrabble-me'
          ? MeSession.load(this.store, stored)
          : GameSession.load(this.store, stored, lexiconFor(stored.config), this.timing);
      this.sessions.set(id, session);
    }
    return session;
  }

  /** Throws unless `token` is the game's scorekeeper token. */
  authorize(id: string, token: string | undefined): Session {
    const session = this.get(id);
    const expected = Buffer.from(session.stored.tokenHash, 'hex');
    const given = Buffer.from(hash(token ?? ''), 'hex');
    if (!token || !timingSafeEqual(expected, given))
      throw new ServiceError('unauthorized', 'a valid scorekeeper token is needed');
    return session;
  }

  private readonly sources = new Map<string, AbortController>();

  /**
   * Pulls a camera's MJPEG stream into a game, a frame at most every `everyMs`. Returns at once; the stream runs
   * until `stopSource`, or until it fails (then the game is told through an error the scorekeeper sees in the log).
   * A Scrabble Me game pulls one stream per camera seat.
   */
  startSource(id: string, url: string, everyMs = 1000, camera = 0): void {
    const session = this.get(id);
    const seats = session instanceof MeSession ? session.players : 1;
    if (!Number.isInteger(camera) || camera < 0 || camera >= seats)
      throw new ServiceError('bad-request', `camera must be a seat from 0 to ${seats - 1}`);
    const key = sourceKey(id, camera);
    this.stopSource(id, camera);
    const controller = new AbortController();
    this.sources.set(key, controller);
    void (async () => {
      let last = 0;
      try {
        for await (const frame of mjpegFrames(url, controller.signal)) {
          if (Date.now() - last < everyMs) continue;
          last = Date.now();
          await session.submitFrame(frame, false, { camera }).catch((err: unknown) => {
            if (!(err instanceof ServiceError)) throw err;
          });
        }
      } catch (err) {
        if (!controller.signal.aborted)
          console.error(`game ${id}: camera stream stopped: ${(err as Error).message}`);
      } finally {
        if (this.sources.get(key) === controller) this.sources.delete(key);
      }
    })();
  }

  stopSource(id: string, camera = 0): boolean {
    const key = sourceKey(id, camera);
    this.sources.get(key)?.abort();
    return this.sources.delete(key);
  }

  /** Stops every stream (server shutdown). */
  stopAll(): void {
    for (const controller of this.sources.values()) controller.abort();
    this.sources.clear();
  }

  list(): { id: string; players: readonly string[]; variant: string; createdAt: string }[] {
    return this.store.listGames().map((g) => ({
      id: g.id,
      players: g.config.players,
      variant: g.config.variant,
      createdAt: g.createdAt,
    }));
  }
}

function sourceKey(id: string, camera: number): string {
  return `${id}/${camera}`;
}

function hash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

function lexiconFor(config: GameConfig): Lexicon | undefined {
  if (config.lexicon === 'none') return undefined;
  return config.lang === 'en' ? defaultEnglishLexicon() : undefined;
}
