/**
 * Scores checked from photos, kept for their permalinks (`/check?id=…`) with a PNG card; a live game's move
 * explained; a GCG record rescored to its first wrong score. The reading and the verdict are verify.ts's.
 */
import { randomBytes } from 'node:crypto';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { readingLexicon } from '../../lexicon/index.ts';
import {
  type CheckFields,
  type CheckView,
  checkFieldsSchema,
  type GcgCheck,
  parseWith,
  type TurnCheck,
} from '../../protocol/index.ts';
import { type GameStore, type StoredCheck, type StoredImage, StoreFull } from '../../store/types.ts';
import { ServiceError } from '../errors.ts';
import { keptPhoto } from '../game/frames.ts';
import { type GameService, limit } from '../service.ts';
import { renderCard } from './card.ts';
import { GcgRescorer } from './off-thread.ts';
import { type PhotoReader, readPhoto, verifyAnnouncedPhoto, verifyPhotos } from './verify.ts';

/** An uploaded photo (its type is the one its bytes show, whatever the client declared). */
export interface Upload {
  readonly bytes: Uint8Array;
}

/** A kept check as the store gives it back, without its photos' bytes. */
type KeptCheck = NonNullable<Awaited<ReturnType<GameStore['getCheck']>>>;

export class CheckService {
  private readonly limiter: RateLimiterAbstract;
  private readonly cards = new Map<string, Buffer>();
  private readonly rescorer = new GcgRescorer();

  constructor(
    private readonly store: GameStore,
    private readonly games: GameService,
    private readonly read: PhotoReader = readPhoto,
  ) {
    this.limiter = games.limiter('checks', games.limits.checksPerMinute, 60);
  }

  async admit(client: string): Promise<void> {
    await limit(this.limiter, client, `at most ${this.games.limits.checksPerMinute} checks a minute`);
  }

  /** Validates the form (fields as sent, photos as uploaded), checks the score and keeps the check. */
  async create(fields: unknown, photos: { before?: Upload; after?: Upload }): Promise<CheckView> {
    const parsed = parseWith(checkFieldsSchema, fields);
    if (!parsed.ok) throw new ServiceError('bad-request', parsed.message);
    const form: CheckFields = parsed.value;
    if (!photos.after) throw new ServiceError('bad-request', 'the photo after the move (`after`) is missing');
    if (form.move === undefined && !photos.before)
      throw new ServiceError(
        'bad-request',
        'the photo before the move (`before`) is missing (or give the announced `move`)',
      );
    if (form.move !== undefined && photos.before)
      throw new ServiceError('bad-request', 'with an announced `move`, send only the photo after it');
    const after = await imageOf(photos.after, 'after');
    const before = photos.before && form.move === undefined ? await imageOf(photos.before, 'before') : null;
    const options = {
      lang: form.lang,
      variant: form.variant,
      claimed: form.claimed ?? null,
      lexicon: readingLexicon(form.lang),
    };
    const verification =
      form.move !== undefined
        ? await verifyAnnouncedPhoto(after.bytes, form.move, options, this.read)
        : await verifyPhotos(before!.bytes, after.bytes, options, this.read);
    const check: StoredCheck = {
      id: randomBytes(9).toString('base64url'),
      createdAt: new Date().toISOString(),
      lang: form.lang,
      verification,
      before,
      after,
    };
    try {
      await this.store.saveCheck(check, this.games.limits.checksKept);
    } catch (err) {
      if (err instanceof StoreFull)
        throw new ServiceError(
          'storage-full',
          "the server's photo storage is full: this check cannot be kept (its operator can raise --limit photoBytesTotal)",
        );
      throw err;
    }
    return view(check);
  }

  async get(id: string): Promise<CheckView> {
    return view(await this.stored(id));
  }

  async photo(id: string, which: 'before' | 'after'): Promise<StoredImage> {
    await this.stored(id);
    const image = await this.store.getCheckPhoto(id, which);
    if (!image)
      throw new ServiceError('not-found', `this check has no photo ${which} (a move was announced)`);
    return image;
  }

  async card(id: string): Promise<Buffer> {
    const cached = this.cards.get(id);
    if (cached) return cached;
    const png = await renderCard((await this.stored(id)).verification);
    // A check never changes: its card is drawn once (the last few kept).
    this.cards.set(id, png);
    if (this.cards.size > 32) this.cards.delete(this.cards.keys().next().value!);
    return png;
  }

  /** Turn `turn` of a live game explained. */
  async turn(gameId: string, turn: number): Promise<TurnCheck> {
    const session = await this.games.session(gameId);
    const { verification, player } = session.explainTurn(turn);
    const snapshot = session.snapshot();
    return {
      verification,
      game: { id: gameId, players: snapshot.players.map((p) => p.name) },
      turn,
      player,
    };
  }

  /** A GCG record rescored (gcg-check.ts), in a worker thread: the service answers others meanwhile. */
  gcg(bytes: Uint8Array, lang?: string): Promise<GcgCheck> {
    return this.rescorer.rescore(bytes, lang);
  }

  private async stored(id: string): Promise<KeptCheck> {
    const check = /^[\w-]{1,32}$/.test(id) ? await this.store.getCheck(id) : undefined;
    if (!check) throw new ServiceError('not-found', `no check '${id}'`);
    return check;
  }
}

function view(check: KeptCheck): CheckView {
  const base = `/api/checks/${check.id}`;
  return {
    id: check.id,
    createdAt: check.createdAt,
    lang: check.lang,
    verification: check.verification,
    photos: { before: check.before ? `${base}/before` : null, after: `${base}/after` },
    links: { page: `/check?id=${check.id}`, card: `${base}/card.png` },
  };
}

/**
 * The upload as a stored image (frames.ts keptPhoto: its type the one its bytes show, never more than its picture,
 * at most 2000 px a side); a file that is no JPEG, PNG or WebP is refused naming the photo, one over the pixel
 * limit as too large.
 */
async function imageOf(upload: Upload, which: string): Promise<StoredImage> {
  try {
    return await keptPhoto(upload.bytes);
  } catch (err) {
    if (err instanceof ServiceError && err.code === 'too-large')
      throw new ServiceError('too-large', `the photo ${which}: ${err.message}`);
    if (err instanceof ServiceError)
      throw new ServiceError('unsupported-media', `the photo ${which} is not a JPEG, PNG or WebP image`);
    throw err;
  }
}
