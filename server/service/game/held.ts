/** The readings held for the scorekeeper, with their photos: stored, shown, confirmed or taken back. */
import { createHash, randomUUID } from 'node:crypto';
import { type Board, formatBoard, parseBoard, type Square } from '../../engine/index.ts';
import type { Look, PendingView } from '../../protocol/index.ts';
import type { GameStore, StoredHeld } from '../../store/types.ts';
import { ServiceError } from '../errors.ts';
import { keptPhoto } from './frames.ts';

/** A reading waiting for the scorekeeper. */
export interface Held {
  readonly board: Board;
  readonly reasons: readonly string[];
  readonly squares: readonly Square[];
  /** Path of its photo, if one was kept. */
  readonly photo: string | undefined;
  /** Where the board is in the photo and the readings of its unsure squares. */
  readonly look?: Look | undefined;
  /** Later turns ended while this one was held, oldest first: decided in order once it is. */
  readonly behind?: readonly Behind[] | undefined;
}

/** A turn ended while another waited for the scorekeeper: the board it showed and the squares in doubt on it. */
export interface Behind {
  readonly board: Board;
  readonly doubts: readonly Square[];
}

/**
 * Readings held for the scorekeeper, by board (0 for a game on one board), and their photos, kept in the store as
 * they change so that a restart loses none: a reading replaced by a newer one, or dropped, takes its photo with
 * it; a confirmed one hands its photo to the move.
 */
export class HeldReadings {
  private readonly held = new Map<number, Held>();

  constructor(
    private readonly store: GameStore,
    private readonly gameId: string,
    /** The start of a held photo's name (`pending-`: a photo no held reading refers to is found by it). */
    private readonly prefix: (board: number) => string,
    stored: readonly StoredHeld[] = [],
  ) {
    this.reset(stored);
    // A photo of a held reading that is no longer held (a crash between two writes) is named by none: it goes. The
    // store reads the held readings itself, as they are now: another instance may be holding one meanwhile.
    store
      .sweepPhotos(gameId, 'pending-')
      .catch((err: unknown) => console.error(`game ${gameId}: ${(err as Error).message}`));
  }

  get size(): number {
    return this.held.size;
  }

  get(board: number): Held | undefined {
    return this.held.get(board);
  }

  /** Which reading board `board` holds, in a few characters ('' for none): the same on every instance that loads
   *  it, so that a mark taken before a hold tells, after a restart elsewhere, that the reading was held since. */
  stamp(board: number): string {
    const held = this.held.get(board);
    if (!held) return '';
    const what = JSON.stringify([held.board.cells.join(''), held.reasons, held.squares]);
    return createHash('sha256').update(what).digest('base64url').slice(0, 12);
  }

  /** The readings held as stored (by another instance, or before a restart), in place of those in memory. */
  reset(stored: readonly StoredHeld[]): void {
    this.held.clear();
    for (const h of stored) {
      const read = parseBoard(h.reading);
      if (!read.ok)
        throw new Error(`game ${this.gameId}: the reading held for board ${h.board + 1}: ${read.message}`);
      const behind = (h.behind ?? []).map((b) => {
        const board = parseBoard(b.reading);
        if (!board.ok)
          throw new Error(`game ${this.gameId}: a turn waiting on board ${h.board + 1}: ${board.message}`);
        return { board: board.board, doubts: b.doubts };
      });
      this.held.set(h.board, {
        board: read.board,
        reasons: h.reasons,
        squares: h.squares,
        photo: h.photo,
        look: h.look,
        ...(behind.length > 0 ? { behind } : {}),
      });
    }
  }

  /**
   * Holds `read` for board `board`. The same reading held again keeps its first photo, and answers false (nothing
   * new to tell) unless it is held for other reasons now; `photo` is the frame it was read from, or `held` for the
   * photo already held.
   */
  async hold(
    board: number,
    read: Board,
    reasons: readonly string[],
    squares: readonly Square[],
    photo?: Uint8Array | 'held',
    /** What the photo showed (a new frame's); a reading held again from the held photo keeps its look. */
    look?: Look,
  ): Promise<boolean> {
    const before = this.held.get(board);
    if (before && before.board.cells.join('') === read.cells.join('')) {
      // The same reading held again keeps its photo; if it is held for another reason now (a confirm that still
      // is no legal move), the reason is what the scorekeeper must see.
      const same = (a: readonly unknown[], b: readonly unknown[]) => JSON.stringify(a) === JSON.stringify(b);
      if (same(before.reasons, reasons) && same(before.squares, squares)) return false;
      await this.set(board, { ...before, reasons, squares });
      return true;
    }
    const seen = photo instanceof Uint8Array ? look : before?.look;
    const held: Held = {
      board: read,
      reasons,
      squares,
      photo: before?.photo,
      ...(seen ? { look: seen } : {}),
      ...(before?.behind ? { behind: before.behind } : {}),
    };
    if (photo instanceof Uint8Array) {
      // A name no other instance holding a reading of this game can take, and the reading stored naming it before
      // the photo is saved: a photo no held reading names is swept away when any instance loads the game.
      const name = `${this.prefix(board)}${randomUUID()}.jpg`;
      const named = `photos/${this.gameId}/${name}`;
      await this.set(board, { ...held, photo: named });
      let saved: string | undefined;
      try {
        saved = await this.store.savePhoto(this.gameId, name, (await keptPhoto(photo)).bytes);
      } catch (err) {
        // The reading is held all the same, without its photo.
        console.error(`game ${this.gameId}: keeping a held reading's photo: ${(err as Error).message}`);
      }
      // Over the game's cap on photos (or not kept): the reading is held without one.
      if (saved !== named) await this.set(board, { ...held, photo: saved });
    } else await this.set(board, held);
    const path = this.held.get(board)?.photo;
    if (before?.photo && before.photo !== path) await this.store.deletePhoto(this.gameId, before.photo);
    return true;
  }

  /** Fixes one square of the reading held for `board`. */
  async correct(board: number, row: number, col: number, tile: string): Promise<Held> {
    const held = this.held.get(board);
    if (!held) throw new ServiceError('not-allowed', 'there is no reading waiting for confirmation');
    const cells = held.board.cells.slice();
    cells[row * 15 + col] = tile;
    const fixed = parseBoard(cells.join('').match(/.{15}/gu) ?? []);
    if (!fixed.ok) throw new ServiceError('bad-request', fixed.message);
    const next = {
      ...held,
      board: fixed.board,
      squares: held.squares.filter((q) => q.row !== row || q.col !== col),
    };
    await this.set(board, next);
    return next;
  }

  /**
   * Before board `board`'s move is stored from `photo` (a frame, or `held`: the held reading's, confirmed): a new
   * frame is kept under a name of its own (the game's photo cap checked), and the path the move's photo will have as
   * `name` is said (undefined: no photo, or over the cap). `settle` then names it so, once the move is stored;
   * `discard` lets it go if the store refuses the move.
   */
  async prepare(
    board: number,
    photo: Uint8Array | 'held' | undefined,
    name: string,
  ): Promise<{ path: string | undefined; upload?: string }> {
    const path = `photos/${this.gameId}/${name}`;
    if (photo === 'held') return { path: this.held.get(board)?.photo === undefined ? undefined : path };
    if (!photo) return { path: undefined };
    let kept: Uint8Array;
    try {
      kept = (await keptPhoto(photo)).bytes;
    } catch {
      return { path: undefined }; // a frame the vision read is a picture: this is not expected, and costs no move
    }
    const upload = await this.store.savePhoto(this.gameId, `upload-${randomUUID()}.jpg`, kept);
    return upload ? { path, upload } : { path: undefined };
  }

  /** The move was not stored: its frame, kept by `prepare`, goes. */
  async discard(prepared: { upload?: string }): Promise<void> {
    if (prepared.upload) await this.store.deletePhoto(this.gameId, prepared.upload);
  }

  /**
   * Board `board`'s move has been stored from `photo`: its photo takes the name `prepare` said, and the held
   * reading goes, with its photo unless it became the move's. A move the store refused changed nothing of this.
   */
  async settle(
    board: number,
    photo: Uint8Array | 'held' | undefined,
    name: string,
    prepared: { path: string | undefined; upload?: string },
  ): Promise<void> {
    const held = this.held.get(board)?.photo;
    // The move is stored: a photo that cannot be named as its own (gone: a crash between a held reading's two
    // writes) is said in the log, and the held reading goes all the same.
    const rename = (from: string) =>
      this.store
        .renamePhoto(this.gameId, from, name)
        .catch((err: unknown) =>
          console.error(`game ${this.gameId}: naming the photo of a move: ${(err as Error).message}`),
        );
    if (prepared.upload) await rename(prepared.upload);
    else if (photo === 'held' && held && prepared.path) await rename(held);
    if (this.held.has(board)) await this.set(board, undefined);
    if (held && photo !== 'held') await this.store.deletePhoto(this.gameId, held);
  }

  /** A later turn ended while board `board`'s reading is held: it waits behind it (in the store too). */
  async queue(board: number, turn: Behind): Promise<void> {
    const held = this.held.get(board);
    if (!held) throw new Error('no reading is held to wait behind');
    await this.set(board, { ...held, behind: [...(held.behind ?? []), turn] });
  }

  /** A better look at the last turn waiting behind board `board`'s held reading takes its place. */
  async replaceLast(board: number, turn: Behind): Promise<void> {
    const held = this.held.get(board);
    if (!held?.behind?.length) throw new Error('no turn waits to be replaced');
    await this.set(board, { ...held, behind: [...held.behind.slice(0, -1), turn] });
  }

  /** The turns waiting behind board `board`'s held reading, taken out of it (they are decided next). */
  async takeBehind(board: number): Promise<readonly Behind[]> {
    const held = this.held.get(board);
    if (!held?.behind?.length) return [];
    const { behind, ...rest } = held;
    await this.set(board, rest);
    return behind;
  }

  /** Lets board `board`'s held reading go, with its photo (the turns waiting behind it stay the caller's). */
  async drop(board: number): Promise<void> {
    const held = this.held.get(board);
    if (!held) return;
    await this.set(board, undefined);
    if (held.photo) await this.store.deletePhoto(this.gameId, held.photo);
  }

  /** Lets every held reading go, with its photo. */

  async clear(): Promise<void> {
    for (const [board, { photo }] of [...this.held]) {
      await this.set(board, undefined);
      if (photo) await this.store.deletePhoto(this.gameId, photo);
    }
  }

  /** Changes the reading held for a board, in memory and in the store. */
  private async set(board: number, held: Held | undefined): Promise<void> {
    // The store first: a write that fails leaves the reading in memory as it is stored.
    await this.store.setHeld(
      this.gameId,
      board,
      held
        ? {
            board,
            reading: formatBoard(held.board),
            reasons: held.reasons,
            squares: held.squares,
            ...(held.photo ? { photo: held.photo } : {}),
            ...(held.look ? { look: held.look } : {}),
            ...(held.behind?.length
              ? { behind: held.behind.map((b) => ({ reading: formatBoard(b.board), doubts: b.doubts })) }
              : {}),
          }
        : null,
    );
    if (held) this.held.set(board, held);
    else this.held.delete(board);
  }

  /** The reading held for `board` as the protocol shows it. */
  view(board: number): PendingView | null {
    const held = this.held.get(board);
    return held
      ? {
          board: formatBoard(held.board),
          reasons: held.reasons,
          squares: held.squares,
          photo: photoUrl(this.gameId, held.photo),
          ...(held.look && held.photo ? { look: held.look } : {}),
          waiting: held.behind?.length ?? 0,
        }
      : null;
  }
}

/** The URL a page loads a stored photo from ('' when the photo was not kept). */
export function photoUrl(gameId: string, path: string | undefined): string {
  const name = path?.split('/').pop();
  return name ? `/api/games/${gameId}/photos/${encodeURIComponent(name)}` : '';
}
