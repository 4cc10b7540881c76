/**
 * One game being played: the engine state rebuilt from the stored events, the reading waiting for confirmation,
 * and the frame intake that turns camera readings into events. The camera is never trusted alone: a reading that
 * is not a legal move from the last board, has squares in doubt, or puts more tiles of a letter on the board than
 * the set has, waits for the scorekeeper with its photo.
 */

import type { Corners } from '../../vision/index.ts';
import {
  applyEvent,
  type Board,
  describeOverdrawn,
  effectiveEvents,
  type GameEvent,
  type GameState,
  gcgFromGame,
  inferMove,
  type Lexicon,
  makeRules,
  nameBlanks,
  newGame,
  overdrawnBy,
  type Placement,
  parseBoard,
  removeTiles,
  squareName,
  writeGcg,
} from '../engine/index.ts';
import type { Action, GameSnapshot, PendingView } from '../protocol/index.ts';
import type { GameStore, StoredGame } from '../store/types.ts';
import { ServiceError } from './errors.ts';
import { makeThumbnail, readFrame, relevantDoubts, type Thumbnail } from './frames.ts';
import { FanOut, photoUrl, SourceBoard, TurnFrames } from './live.ts';
import { snapshotOf } from './snapshot.ts';

export type { Thumbnail } from './frames.ts';

/** `skipped`: a newer frame of the same camera arrived before this one was read, and was read instead. */
export type FrameStatus = 'committed' | 'unchanged' | 'waiting' | 'needs-confirmation' | 'skipped';

export interface FrameResult {
  status: FrameStatus;
  event?: GameEvent;
  reasons?: string[];
}

export type { Action } from '../protocol/index.ts';

interface Pending {
  board: Board;
  reasons: string[];
  squares: { row: number; col: number }[];
  /** Path of its photo, if one was kept. */
  photo: string | undefined;
}

/** Auto capture commits a reading once it has been the same for this many frames and this long. */
export interface CaptureTiming {
  frames: number;
  ms: number;
}

export class GameSession {
  private state: GameState;
  private pending: Pending | null = null;
  private corners: Corners | undefined;
  private stable: { text: string; count: number; since: number } | undefined;
  private lastFrame: Uint8Array | undefined;
  private seq: number;
  private readonly listeners = new Set<(snapshot: GameSnapshot) => void>();
  private readonly thumbnailListeners = new Set<(thumb: Thumbnail) => void>();
  private readonly fanOut = new FanOut(() => this.snapshot(), this.listeners);
  /** Camera streams the server pulls for this game, by seat, as the scorekeeper should see them. */
  readonly sources = new SourceBoard(() => this.fanOut.schedule());
  private readonly turnFrames = new TurnFrames();

  private constructor(
    private readonly store: GameStore,
    readonly stored: Omit<StoredGame, 'events'>,
    private readonly lexicon: Lexicon | undefined,
    private readonly timing: CaptureTiming,
  ) {
    const { config } = stored;
    if (config.variant === 'scrabble-me') throw new Error('a Scrabble Me game is a MeSession');
    const rules = makeRules({
      lang: config.lang,
      players: config.players.length,
      variant: config.variant,
      challenge: config.challengeRule,
      ...(config.levels ? { levels: config.levels } : {}),
    });
    const start = newGame(config.players, rules);
    if (!start.ok) throw new ServiceError('bad-request', start.message);
    this.state = start.state;
    this.seq = 0;
  }

  /** Rebuilds a session from its stored events, exactly as it was. */
  static load(
    store: GameStore,
    stored: StoredGame,
    lexicon: Lexicon | undefined,
    timing: CaptureTiming,
  ): GameSession {
    const session = new GameSession(store, stored, lexicon, timing);
    // A held reading lives in memory only: a photo of one left by a restart is referred to by nothing.
    store.deletePhotos(stored.id, 'pending-');
    for (const e of stored.events) {
      const step = applyEvent(session.state, e.event as GameEvent);
      if (!step.ok)
        throw new Error(`stored game ${stored.id} does not replay at event ${e.seq}: ${step.message}`);
      session.state = step.state;
      session.seq = e.seq;
    }
    return session;
  }

  get id(): string {
    return this.stored.id;
  }

  /** Cameras the game reads: one. */
  get seats(): number {
    return 1;
  }

  /** The number of the last stored event: a request made against an older version is stale. */
  get version(): number {
    return this.seq;
  }

  /** Viewers and cameras listening; a session nobody watches may be evicted from memory. */
  get watchers(): number {
    return this.listeners.size + this.thumbnailListeners.size;
  }

  /** A reading waiting for the scorekeeper (kept in memory only, so the session is not evicted). */
  get holding(): boolean {
    return this.pending !== null;
  }

  /** Forgets the last frame (its bytes can be large); End turn then needs a new frame. */
  dropFrames(): void {
    this.lastFrame = undefined;
    this.corners = undefined;
  }

  snapshot(): GameSnapshot {
    const pending: PendingView | null = this.pending && {
      board: this.pending.board.cells.join('').match(/.{15}/gu) ?? [],
      reasons: this.pending.reasons,
      squares: this.pending.squares,
      photo: photoUrl(this.id, this.pending.photo),
    };
    return snapshotOf(this.id, this.state, {
      pending,
      capture: this.stored.config.capture,
      lang: this.stored.config.lang,
      variant: this.stored.config.variant as GameSnapshot['variant'],
      version: this.seq,
      sources: this.sources.view(),
      ...(this.lexicon ? { lexicon: this.lexicon } : {}),
    });
  }

  /** The game so far as a GCG file. */
  gcg(): string {
    return writeGcg(gcgFromGame(this.state));
  }

  /** Receives a small JPEG of every camera frame and the grid found in it, for the camera and scoreboard views. */
  onThumbnail(listener: (thumb: Thumbnail) => void): () => void {
    this.thumbnailListeners.add(listener);
    return () => this.thumbnailListeners.delete(listener);
  }

  subscribe(listener: (snapshot: GameSnapshot) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** A camera frame: read it, and commit, hold or wait as the capture mode says. One camera: `camera` is 0. */
  async submitFrame(
    bytes: Uint8Array,
    endTurn: boolean,
    { camera = 0, now = Date.now() }: { camera?: number; now?: number } = {},
  ): Promise<FrameResult> {
    if (camera !== 0) throw new ServiceError('bad-request', 'this game has one camera (seat 0)');
    if (this.state.ended) throw new ServiceError('not-allowed', 'the game is over');
    if (endTurn && this.turnFrames.repeated(camera, bytes, this.seq, now))
      return {
        status: 'unchanged',
        reasons: ['this very frame has just ended a turn: nothing more recorded'],
      };
    const result = await this.readAndDecide(bytes, endTurn, now);
    if (endTurn && result.status === 'committed') this.turnFrames.remember(camera, bytes, this.seq, now);
    return result;
  }

  private async readAndDecide(bytes: Uint8Array, endTurn: boolean, now: number): Promise<FrameResult> {
    this.lastFrame = bytes;
    const { reading, board } = await readFrame(bytes, this.stored.config.lang, this.corners, (corners) =>
      this.thumbnail(bytes, corners),
    );
    this.corners = reading.corners;
    const text = reading.board.join('');
    const unsure = relevantDoubts(this.state.board, board, reading.unsure);
    const settled = this.settle(text, unsure.length === 0, now);
    const decide = this.stored.config.capture === 'button' ? endTurn : endTurn || settled;
    if (!decide) return { status: 'waiting' };
    if (unsure.length > 0) {
      return this.hold(board, ['some squares could not be read with confidence'], unsure, bytes);
    }
    return this.commitBoard(board, bytes, endTurn);
  }

  private async thumbnail(bytes: Uint8Array, corners: Corners | null): Promise<void> {
    if (this.thumbnailListeners.size === 0) return;
    const thumb = await makeThumbnail(bytes, corners);
    for (const listener of this.thumbnailListeners) listener(thumb);
  }

  /** Counts identical confident readings for auto capture. */
  private settle(text: string, confident: boolean, now: number): boolean {
    if (!confident) {
      this.stable = undefined;
      return false;
    }
    if (this.stable?.text === text) this.stable.count++;
    else this.stable = { text, count: 1, since: now };
    return this.stable.count >= this.timing.frames && now - this.stable.since >= this.timing.ms;
  }

  /** The move between the committed board and `board`; commits it, or holds it for the scorekeeper. */
  private commitBoard(
    board: Board,
    photo: Uint8Array | 'held' | undefined,
    endTurn: boolean,
    confirmed = false,
  ): FrameResult {
    const inferred = inferMove(this.state.board, board, {
      layout: this.state.rules.layout,
      ...(this.state.lastPlay ? { lastMove: this.state.lastPlay.placements } : {}),
    });
    if (!inferred.ok) {
      if (inferred.reason === 'no-change') {
        if (!endTurn && !confirmed) return { status: 'unchanged' };
        // An end of turn with nothing new on the board is a pass (the scorekeeper can make it an exchange).
        return this.commit([{ type: 'pass', player: this.state.toMove }], photo);
      }
      return this.hold(board, [inferred.message], [...(inferred.squares ?? [])], photo);
    }
    const events: GameEvent[] = [];
    const move = inferred.kind === 'withdrawal' ? inferred.next : inferred.move;
    // More tiles of a kind than the set has: a misreading, unless the scorekeeper says otherwise.
    const over = move && !confirmed ? overdrawnBy(this.state.rules.tileSet, board, move.placements) : [];
    if (over.length > 0) {
      return this.hold(
        board,
        over.map((o) => describeOverdrawn(o, this.state.rules.tileSet)),
        over.flatMap((o) => o.squares),
        photo,
      );
    }
    if (inferred.kind === 'withdrawal')
      events.push({ type: 'withdraw', player: this.state.lastPlay!.player });
    if (move) {
      // A blank read as `?` takes its letter from the lexicon when only one fits; otherwise it waits to be named.
      const before =
        inferred.kind === 'withdrawal' ? removeTiles(this.state.board, inferred.withdrawn) : this.state.board;
      const letters = this.state.rules.tileSet.letters.map(([l]) => l);
      const named =
        this.lexicon && nameBlanks(before, move.placements, move.direction, letters, this.lexicon);
      events.push({ type: 'play', player: this.state.toMove, placements: named ?? move.placements });
    }
    return this.commit(events, photo);
  }

  private hold(
    board: Board,
    reasons: string[],
    squares: { row: number; col: number }[],
    photo?: Uint8Array | 'held',
  ): FrameResult {
    // The same reading held again (a still board under auto capture) keeps its first photo.
    if (this.pending && this.pending.board.cells.join('') === board.cells.join('')) {
      return { status: 'needs-confirmation', reasons: this.pending.reasons };
    }
    const before = this.pending?.photo;
    const path =
      photo instanceof Uint8Array
        ? this.store.savePhoto(this.id, `pending-${++this.holds}.jpg`, photo)
        : before;
    // A reading replaced by a newer one: its photo goes with it.
    if (before && before !== path) this.store.deletePhoto(this.id, before);
    this.pending = { board, reasons, squares, photo: path };
    this.notify();
    return { status: 'needs-confirmation', reasons };
  }

  private holds = 0;

  /**
   * Applies events in order; all of them or none. `photo` is the frame the events were read from, or `held`: the
   * photo of the reading held for the scorekeeper, who confirmed it. A held reading's photo not used is removed.
   */
  private commit(events: GameEvent[], photo?: Uint8Array | 'held'): FrameResult {
    let state = this.state;
    for (const event of events) {
      const step = applyEvent(state, event);
      if (!step.ok) {
        throw new ServiceError('not-allowed', step.message);
      }
      state = step.state;
    }
    const at = new Date().toISOString();
    const name = `event-${this.seq + 1}.jpg`;
    const held = this.pending?.photo;
    const path =
      photo === 'held'
        ? held && this.store.renamePhoto(this.id, held, name)
        : photo && this.store.savePhoto(this.id, name, photo);
    if (held && photo !== 'held') this.store.deletePhoto(this.id, held);
    for (const event of events) {
      this.seq++;
      this.store.appendEvent(this.id, { seq: this.seq, event, at, ...(path ? { photo: path } : {}) });
    }
    if (Boolean(state.ended) !== Boolean(this.state.ended))
      this.store.setEnded(this.id, state.ended ? at : null);
    this.state = state;
    this.pending = null;
    this.stable = undefined;
    this.notify();
    return { status: 'committed', event: events.at(-1)! };
  }

  /** A scorekeeper's action. */
  async act(action: Action): Promise<FrameResult> {
    const player = this.state.toMove;
    switch (action.type) {
      case 'end-turn':
        if (!this.lastFrame) throw new ServiceError('not-allowed', 'no camera frame has arrived yet');
        return this.submitFrame(this.lastFrame, true);
      case 'pass':
        return this.commit([{ type: 'pass', player }]);
      case 'exchange':
        return this.commit([{ type: 'exchange', player, tiles: action.tiles ?? action.count ?? 0 }]);
      case 'challenge':
        return this.commit([{ type: 'challenge', player: action.player, acceptable: action.acceptable }]);
      case 'end':
        return this.commit([{ type: 'end', racks: action.racks }]);
      case 'confirm': {
        const board = action.board ? parseBoard(action.board) : undefined;
        if (board && !board.ok) throw new ServiceError('bad-request', board.message);
        const chosen = board?.board ?? this.pending?.board;
        if (!chosen) throw new ServiceError('not-allowed', 'there is no reading waiting for confirmation');
        return this.commitBoard(chosen, 'held', true, true);
      }
      case 'correct':
        return this.correctSquare(action.row, action.col, action.tile);
      case 'name-blank':
        return this.correctSquare(action.row, action.col, action.letter.toLowerCase(), true);
      case 'undo': {
        const last = this.lastEffectiveEvent();
        if (last === undefined) throw new ServiceError('not-allowed', 'there is nothing to undo');
        return this.commit([{ type: 'correction', target: last, event: null }]);
      }
    }
  }

  /**
   * Fixes one square: of the reading waiting for confirmation if there is one, otherwise of the committed play
   * that put a tile there (a correction event: every total after it re-derives).
   */
  private correctSquare(row: number, col: number, tile: string, blankOnly = false): FrameResult {
    if (this.pending && !blankOnly) {
      const cells = this.pending.board.cells.slice();
      cells[row * 15 + col] = tile;
      const fixed = parseBoard(cells.join('').match(/.{15}/gu) ?? []);
      if (!fixed.ok) throw new ServiceError('bad-request', fixed.message);
      this.pending = {
        ...this.pending,
        board: fixed.board,
        squares: this.pending.squares.filter((s) => s.row !== row || s.col !== col),
      };
      this.notify();
      return { status: 'needs-confirmation', reasons: this.pending.reasons };
    }
    const index = this.playAt(row, col);
    if (index === undefined)
      throw new ServiceError('not-allowed', `no committed play put a tile on ${squareName({ row, col })}`);
    const play = this.state.events[index] as Extract<GameEvent, { type: 'play' }>;
    const placements: Placement[] = play.placements.map((p) =>
      p.row === row && p.col === col ? { ...p, tile } : p,
    );
    return this.commit([{ type: 'correction', target: index, event: { ...play, placements } }]);
  }

  /** Index of the effective play event that placed a tile on the square. */
  private playAt(row: number, col: number): number | undefined {
    const effective = this.effective();
    for (let i = effective.length - 1; i >= 0; i--) {
      const { event, index } = effective[i]!;
      if (event.type === 'play' && event.placements.some((p) => p.row === row && p.col === col)) return index;
    }
    return undefined;
  }

  private lastEffectiveEvent(): number | undefined {
    return this.effective().at(-1)?.index;
  }

  private effective(): { event: GameEvent; index: number }[] {
    return effectiveEvents(this.state.events);
  }

  /** Tells the viewers, after the current request has been answered (the audience never slows a commit). */
  private notify(): void {
    this.fanOut.schedule();
  }
}
