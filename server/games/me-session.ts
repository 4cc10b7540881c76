/**
 * One Scrabble Me game being played (rule book 003): a board per player, a camera per seat, and the round scored
 * once every board still in play has ended its turn. The engine state is rebuilt from the stored events; the
 * readings of the round in progress live here until the round is scored. As in the classic game, the camera is
 * never trusted alone: a reading that is not a legal word on its board, or has squares in doubt that matter,
 * waits for the scorekeeper with its photo.
 *
 * Cameras are numbered by seat. A camera sees the board its seat's player holds (after a blank swap the boards
 * change places), but the tiles decide: a reading is matched to the board whose committed tiles it shows.
 */
import type { Corners } from '../../vision/index.ts';
import {
  afterChallenges,
  applyMeEvent,
  type Board,
  describeOverdrawn,
  effectiveEvents,
  formatBoard,
  inferMove,
  lowestScorer,
  type MeEvent,
  type MeState,
  makeRules,
  matchBoard,
  newMeGame,
  overdrawnBy,
  type Placement,
  parseBoard,
  roundFromReadings,
  squareName,
} from '../engine/index.ts';
import type { MeAction, MeRoundView, MeSnapshot, MeWordView, PendingView } from '../protocol/index.ts';
import type { GameStore, StoredGame } from '../store/types.ts';
import { ServiceError } from './errors.ts';
import { makeThumbnail, readFrame, relevantDoubts, type Square, type Thumbnail } from './frames.ts';
import { FanOut, photoUrl, SourceBoard, TurnFrames } from './live.ts';

export type { MeAction } from '../protocol/index.ts';

export interface MeFrameResult {
  /** `skipped`: a newer frame of the same camera arrived before this one was read, and was read instead. */
  status: 'committed' | 'waiting' | 'ended-turn' | 'needs-confirmation' | 'skipped' | 'unchanged';
  /** The board the frame showed. */
  board?: number;
  event?: MeEvent;
  reasons?: string[];
}

interface Held {
  board: Board;
  reasons: string[];
  squares: Square[];
  /** Path of its photo, if one was kept. */
  photo: string | undefined;
}

export class MeSession {
  private state: MeState;
  private seq = 0;
  /** Boards whose turn has ended this round: the reading kept for each. */
  private readonly turns = new Map<number, Board>();
  /** Readings waiting for the scorekeeper, per board. */
  private readonly held = new Map<number, Held>();
  private readonly corners = new Map<number, Corners>();
  private readonly lastFrames = new Map<number, Uint8Array>();
  private rounds: { round: number; words: MeWordView[]; bonus: MeRoundView['bonus'] }[] = [];
  private readonly listeners = new Set<(snapshot: MeSnapshot) => void>();
  private readonly thumbnailListeners = new Set<(thumb: Thumbnail) => void>();
  private readonly fanOut = new FanOut(() => this.snapshot(), this.listeners);
  /** Camera streams the server pulls for this game, by seat, as the scorekeeper should see them. */
  readonly sources = new SourceBoard(() => this.fanOut.schedule());
  private holds = 0;
  private readonly turnFrames = new TurnFrames();

  private constructor(
    private readonly store: GameStore,
    readonly stored: Omit<StoredGame, 'events'>,
  ) {
    const { config } = stored;
    const start = newMeGame(
      config.players,
      makeRules({ lang: config.lang, players: config.players.length }),
      config.podium ?? '',
    );
    if (!start.ok) throw new ServiceError('bad-request', start.message);
    this.state = start.state;
  }

  /** Rebuilds a session from its stored events, exactly as it was. */
  static load(store: GameStore, stored: StoredGame): MeSession {
    const session = new MeSession(store, stored);
    // A held reading lives in memory only: a photo of one left by a restart is referred to by nothing.
    store.deletePhotos(stored.id, 'pending-');
    for (const e of stored.events) {
      session.seq = e.seq;
      if (e.event.type === 'board-turn') {
        const read = parseBoard(e.event.reading);
        if (!read.ok) throw new Error(`stored game ${stored.id}: event ${e.seq}: ${read.message}`);
        session.turns.set(e.event.board, read.board);
        continue;
      }
      const step = applyMeEvent(session.state, e.event as MeEvent);
      if (!step.ok)
        throw new Error(`stored game ${stored.id} does not replay at event ${e.seq}: ${step.message}`);
      session.state = step.state;
      if (e.event.type === 'round' || e.event.type === 'correction') session.turns.clear();
    }
    session.rebuildRounds();
    return session;
  }

  get id(): string {
    return this.stored.id;
  }

  get players(): number {
    return this.state.players.length;
  }

  /** Cameras the game reads: one per seat. */
  get seats(): number {
    return this.players;
  }

  /** The number of the last stored record: a request made against an older version is stale. */
  get version(): number {
    return this.seq;
  }

  /** Viewers and cameras listening; a session nobody watches may be evicted from memory. */
  get watchers(): number {
    return this.listeners.size + this.thumbnailListeners.size;
  }

  /** Readings waiting for the scorekeeper (kept in memory only, so the session is not evicted). */
  get holding(): boolean {
    return this.held.size > 0;
  }

  /** Forgets the cameras' last frames (their bytes can be large); End turn then needs new frames. */
  dropFrames(): void {
    this.lastFrames.clear();
    this.corners.clear();
  }

  gcg(): string {
    throw new ServiceError('not-allowed', 'GCG records one board; a Scrabble Me game has no GCG form');
  }

  subscribe(listener: (snapshot: MeSnapshot) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  onThumbnail(listener: (thumb: Thumbnail) => void): () => void {
    this.thumbnailListeners.add(listener);
    return () => this.thumbnailListeners.delete(listener);
  }

  snapshot(): MeSnapshot {
    const s = this.state;
    const view = afterChallenges(s);
    const thisRound = new Map(s.words.filter((w) => !w.withdrawn).map((w) => [w.board, w]));
    const scored = s.words.length > 0 && s.phase !== 'build';
    return {
      id: this.id,
      version: this.seq,
      variant: 'scrabble-me',
      players: s.players.map((name, i) => ({
        name,
        score: s.scores[i]!,
        board: s.holder.indexOf(i),
        sittingOut: s.phase === 'build' && s.sittingOut.includes(i),
      })),
      boards: s.boards.map((board, i) => ({
        board: formatBoard(board),
        holder: s.holder[i]!,
        lastWord: (thisRound.get(i)?.placements ?? []).map(({ row, col }) => ({ row, col })),
        ended: this.turns.has(i),
        pending: this.pendingView(i),
      })),
      phase: view.phase,
      round: s.round,
      lastRound: s.lastRound,
      rounds: this.rounds.map((r) => ({ ...r })),
      swaps: s.swaps,
      picks: view.phase === 'refill' ? view.picks : [],
      firstPick: scored ? lowestScorer(s) : null,
      podium: s.podium,
      bag: s.bag,
      bonusPlayer: view.phase === 'bonus' ? (view.bonusPlayer ?? null) : null,
      ended:
        s.phase === 'ended'
          ? {
              reason:
                effectiveEvents<MeEvent>(s.events).at(-1)?.event.type === 'bonus'
                  ? 'the bonus word after the last round'
                  : 'no word built',
              winners: s.scores.flatMap((score, i) => (score === Math.max(...s.scores) ? [i] : [])),
            }
          : null,
      capture: 'button',
      lang: this.stored.config.lang,
      sources: this.sources.view(),
    };
  }

  private pendingView(board: number): PendingView | null {
    const held = this.held.get(board);
    return held
      ? {
          board: formatBoard(held.board),
          reasons: held.reasons,
          squares: held.squares,
          photo: photoUrl(this.id, held.photo),
        }
      : null;
  }

  /**
   * A frame from the camera at seat `camera`. Without `endTurn` it only feeds the views; with it, the board the
   * frame shows has ended its turn (or, after the last round, the bonus word is read from it).
   */
  async submitFrame(
    bytes: Uint8Array,
    endTurn: boolean,
    { camera = 0 }: { camera?: number } = {},
  ): Promise<MeFrameResult> {
    if (this.state.phase === 'ended') throw new ServiceError('not-allowed', 'the game is over');
    if (!Number.isInteger(camera) || camera < 0 || camera >= this.players)
      throw new ServiceError('bad-request', `camera must be a seat from 0 to ${this.players - 1}`);
    if (endTurn && this.turnFrames.repeated(camera, bytes, this.seq))
      return {
        status: 'unchanged',
        reasons: ['this very frame has just ended a turn: nothing more recorded'],
      };
    const result = await this.readAndDecide(bytes, endTurn, camera);
    if (endTurn && (result.status === 'committed' || result.status === 'ended-turn'))
      this.turnFrames.remember(camera, bytes, this.seq);
    return result;
  }

  private async readAndDecide(bytes: Uint8Array, endTurn: boolean, camera: number): Promise<MeFrameResult> {
    this.lastFrames.set(camera, bytes);
    const { reading, board: read } = await readFrame(
      bytes,
      this.stored.config.lang,
      this.corners.get(camera),
      (corners) => this.thumbnail(bytes, corners, camera),
    );
    this.corners.set(camera, reading.corners);
    const board = matchBoard(read, this.state.boards) ?? this.state.holder.indexOf(camera);
    if (!endTurn) return { status: 'waiting', board };
    this.checkMayEnd(board);
    const doubts = relevantDoubts(this.state.boards[board]!, read, reading.unsure);
    if (doubts.length > 0)
      return this.hold(board, read, ['some squares could not be read with confidence'], doubts, bytes);
    return this.endTurn(board, read, bytes);
  }

  /** Throws unless the board's turn may end now: in a round, by a player not sitting out; or the bonus word. */
  private checkMayEnd(board: number): void {
    const view = afterChallenges(this.state);
    const holder = this.state.holder[board]!;
    if (view.phase === 'bonus') {
      if (holder !== view.bonusPlayer)
        throw new ServiceError(
          'not-allowed',
          `only ${this.state.players[view.bonusPlayer!]} builds a bonus word; board ${board + 1} is ${this.state.players[holder]}'s`,
        );
      return;
    }
    if (view.phase !== 'build')
      throw new ServiceError('not-allowed', `the round is ${this.state.phase}: ${this.nextStep()}`);
    if (view.sittingOut.includes(holder))
      throw new ServiceError(
        'not-allowed',
        `${this.state.players[holder]} sits out this round (a wrong challenge)`,
      );
  }

  /** A board's reading, accepted as its turn: the round is scored once every board in play has one. */
  private endTurn(
    board: number,
    read: Board,
    photo: Uint8Array | 'held' | undefined,
    confirmed = false,
  ): MeFrameResult {
    this.checkMayEnd(board);
    const holder = this.state.holder[board]!;
    // More tiles of a kind on the boards than the one bag holds: a misreading, unless the scorekeeper says otherwise.
    const overdrawn = (placements: readonly Placement[]): MeFrameResult | undefined => {
      if (confirmed) return undefined;
      const boards = this.state.boards.map((b, i) => (i === board ? read : (this.turns.get(i) ?? b)));
      const set = this.state.rules.base.tileSet;
      const over = overdrawnBy(set, boards, placements);
      if (over.length === 0) return undefined;
      const reasons = over.map((o) => describeOverdrawn(o, set, 'the boards'));
      return this.hold(
        board,
        read,
        reasons,
        over.flatMap((o) => o.squares),
        photo,
      );
    };
    if (afterChallenges(this.state).phase === 'bonus') {
      const inferred = inferMove(this.state.boards[board]!, read, { layout: this.state.rules.base.layout });
      if (!inferred.ok && inferred.reason === 'no-change')
        return this.apply([{ type: 'bonus', player: holder, placements: null }], board);
      if (!inferred.ok || inferred.kind !== 'play')
        return this.hold(board, read, [inferred.ok ? 'tiles were taken off' : inferred.message], [], photo);
      const held = overdrawn(inferred.move.placements);
      if (held) return held;
      this.keepPhoto(board, photo, `bonus-board-${board + 1}.jpg`);
      return this.apply([{ type: 'bonus', player: holder, placements: inferred.move.placements }], board);
    }
    const inferred = inferMove(this.state.boards[board]!, read, { layout: this.state.rules.base.layout });
    if (!inferred.ok && inferred.reason !== 'no-change') {
      return this.hold(board, read, [inferred.message], [...(inferred.squares ?? [])], photo);
    }
    if (inferred.ok && inferred.kind !== 'play')
      return this.hold(board, read, ['tiles were taken off this board'], [], photo);
    const held = inferred.ok ? overdrawn(inferred.move.placements) : undefined;
    if (held) return held;
    const path = this.keepPhoto(board, photo, `round-${this.state.round}-board-${board + 1}.jpg`);
    this.seq++;
    this.store.appendEvent(this.id, {
      seq: this.seq,
      event: { type: 'board-turn', board, reading: formatBoard(read) },
      at: new Date().toISOString(),
      ...(path ? { photo: path } : {}),
    });
    this.turns.set(board, read);
    // The round as the engine will see it (a scored round with nothing left to refill has moved on).
    const round = roundFromReadings(afterChallenges(this.state), this.turns);
    if (!round.ok) {
      // Each reading was checked against its own board above: only boards still building can stop the round.
      if (round.reason !== 'missing-board') throw new Error(`round refused: ${round.message}`);
      this.notify();
      return { status: 'ended-turn', board, reasons: [round.message] };
    }
    return this.apply([round.event], board);
  }

  /** What the table has to do before the next round, for messages. */
  private nextStep(): string {
    const s = afterChallenges(this.state);
    if (s.phase === 'scored')
      return `${this.state.players[s.swaps[0]!]} swaps boards first (a blank was played)`;
    if (s.phase === 'refill')
      return `the racks are refilled first, ${this.state.players[s.picks[0]!]} to pick`;
    if (s.phase === 'podium') return 'the podium is refilled first';
    return s.phase;
  }

  /**
   * Stores the photo a board's accepted reading came from (`held`: the photo of the reading the scorekeeper
   * confirmed) as `name`, and lets go of the board's held reading and any photo of it not used.
   */
  private keepPhoto(board: number, photo: Uint8Array | 'held' | undefined, name: string): string | undefined {
    const held = this.held.get(board)?.photo;
    const path =
      photo === 'held'
        ? held && this.store.renamePhoto(this.id, held, name)
        : photo && this.store.savePhoto(this.id, name, photo);
    if (held && photo !== 'held') this.store.deletePhoto(this.id, held);
    this.held.delete(board);
    return path;
  }

  /** Lets go of every held reading, and their photos. */
  private dropHeld(): void {
    for (const { photo } of this.held.values()) if (photo) this.store.deletePhoto(this.id, photo);
    this.held.clear();
  }

  private hold(
    board: number,
    read: Board,
    reasons: string[],
    squares: Square[],
    photo?: Uint8Array | 'held',
  ): MeFrameResult {
    const same = this.held.get(board);
    if (same && same.board.cells.join('') === read.cells.join(''))
      return { status: 'needs-confirmation', board, reasons: same.reasons };
    const path =
      photo instanceof Uint8Array
        ? this.store.savePhoto(this.id, `pending-board-${board + 1}-${++this.holds}.jpg`, photo)
        : same?.photo;
    // A reading replaced by a newer one: its photo goes with it.
    if (same?.photo && same.photo !== path) this.store.deletePhoto(this.id, same.photo);
    this.held.set(board, { board: read, reasons, squares, photo: path });
    this.notify();
    return { status: 'needs-confirmation', board, reasons };
  }

  /** A scorekeeper's action. */
  async act(action: MeAction): Promise<MeFrameResult> {
    const s = this.state;
    switch (action.type) {
      case 'end-turn': {
        const frame = this.lastFrames.get(action.camera);
        if (!frame)
          throw new ServiceError(
            'not-allowed',
            `no frame has arrived from the camera at seat ${action.camera}`,
          );
        return this.submitFrame(frame, true, { camera: action.camera });
      }
      case 'confirm': {
        const given = action.reading ? parseBoard(action.reading) : undefined;
        if (given && !given.ok) throw new ServiceError('bad-request', given.message);
        const chosen = given?.board ?? this.held.get(action.board)?.board;
        if (!chosen)
          throw new ServiceError('not-allowed', `no reading of board ${action.board + 1} is waiting`);
        const result = this.endTurn(action.board, chosen, 'held', true);
        if (result.status === 'needs-confirmation')
          throw new ServiceError('not-allowed', (result.reasons ?? []).join('; '));
        return result;
      }
      case 'correct': {
        const held = this.held.get(action.board);
        if (!held) return this.correctCommitted(action.board, action.row, action.col, action.tile);
        const cells = held.board.cells.slice();
        cells[action.row * 15 + action.col] = action.tile;
        const fixed = parseBoard(cells.join('').match(/.{15}/gu) ?? []);
        if (!fixed.ok) throw new ServiceError('bad-request', fixed.message);
        this.held.set(action.board, {
          ...held,
          board: fixed.board,
          squares: held.squares.filter((q) => q.row !== action.row || q.col !== action.col),
        });
        this.notify();
        return { status: 'needs-confirmation', board: action.board, reasons: held.reasons };
      }
      case 'challenge':
        return this.apply([action]);
      case 'swap':
        return this.apply([action]);
      case 'podium': {
        const set = new Set(this.state.rules.base.tileSet.letters.map(([l]) => l));
        const stray = [...action.letters].find((t) => t !== '?' && !set.has(t));
        if (stray) throw new ServiceError('bad-request', `${stray} is not a tile of this game's set`);
        return this.apply([action]);
      }
      case 'no-bonus': {
        const view = afterChallenges(s);
        if (view.phase !== 'bonus')
          throw new ServiceError('not-allowed', 'there is no bonus word to build now');
        return this.apply([{ type: 'bonus', player: view.bonusPlayer!, placements: null }]);
      }
      case 'undo': {
        const last = effectiveEvents<MeEvent>(s.events).at(-1);
        if (!last) throw new ServiceError('not-allowed', 'there is nothing to undo');
        return this.apply([{ type: 'correction', target: last.index, event: null }]);
      }
      case 'refill': {
        // Each pick goes to whoever the rules say picks next.
        const events: MeEvent[] = [];
        let state = s;
        for (const pick of action.picks) {
          const player = afterChallenges(state).picks[0];
          if (player === undefined || afterChallenges(state).phase !== 'refill')
            throw new ServiceError('not-allowed', 'no more tiles are due to anyone now');
          const event: MeEvent =
            pick === 'bag'
              ? { type: 'pick', player, from: 'bag' }
              : { type: 'pick', player, from: 'podium', letter: pick };
          const step = applyMeEvent(state, event);
          if (!step.ok) throw new ServiceError('not-allowed', step.message);
          state = step.state;
          events.push(event);
        }
        return this.apply(events);
      }
    }
  }

  /** Applies events in order, all or none, and stores them. */
  private apply(events: MeEvent[], board?: number): MeFrameResult {
    let state = this.state;
    for (const event of events) {
      const step = applyMeEvent(state, event);
      if (!step.ok) throw new ServiceError('not-allowed', step.message);
      state = step.state;
    }
    const at = new Date().toISOString();
    for (const event of events) {
      this.seq++;
      this.store.appendEvent(this.id, { seq: this.seq, event, at });
    }
    if ((state.phase === 'ended') !== (this.state.phase === 'ended'))
      this.store.setEnded(this.id, state.phase === 'ended' ? at : null);
    this.state = state;
    this.rebuildRounds();
    // A round scored, or the boards corrected under them: the readings taken so far are spent.
    if (events.some((e) => e.type === 'round' || e.type === 'correction')) {
      this.turns.clear();
      this.dropHeld();
    }
    this.notify();
    return { status: 'committed', event: events.at(-1)!, ...(board === undefined ? {} : { board }) };
  }

  /** The rounds' words for the scoreboard, derived from the events that count (corrections applied). */
  private rebuildRounds(): void {
    this.rounds = [];
    this.replay((event, before, after) => {
      const words = () =>
        [...after.words]
          .sort((a, b) => a.player - b.player)
          .map((w) => ({
            player: w.player,
            board: w.board,
            word: w.score.words[0]?.word ?? '',
            words: w.score.words.map((x) => ({ word: x.word, score: x.score })),
            score: w.score.score,
            withdrawn: w.withdrawn,
          }));
      const last = this.rounds[this.rounds.length - 1];
      if (event.type === 'round') this.rounds.push({ round: after.round, words: words(), bonus: null });
      else if (event.type === 'challenge' && last) last.words = words();
      else if (event.type === 'bonus' && last)
        last.bonus = {
          player: event.player,
          score: after.scores[event.player]! - before.scores[event.player]!,
        };
    });
  }

  /** Walks the events that count from the start of the game, with the state before and after each. */
  private replay(visit: (event: MeEvent, before: MeState, after: MeState, index: number) => void): void {
    const { players, rules, origin } = this.state;
    const start = newMeGame(players, rules.base, origin.podium, { bag: origin.bag });
    if (!start.ok) throw new Error(start.message);
    let s = start.state;
    for (const { event, index } of effectiveEvents<MeEvent>(this.state.events)) {
      const step = applyMeEvent(s, event);
      if (!step.ok) throw new Error(`game ${this.id} does not replay at event ${index + 1}: ${step.message}`);
      visit(event, s, step.state, index);
      s = step.state;
    }
  }

  /**
   * Fixes a committed tile: the round (or bonus) event whose word put a tile on that square of that board is
   * replaced by a correction with the tile as it really is (`.`: no tile there). Everything after it is derived
   * again; the engine refuses a correction that makes a later event illegal.
   */
  private correctCommitted(board: number, row: number, col: number, tile: string): MeFrameResult {
    // The event, and the player whose word on this board it was.
    let found:
      | { index: number; event: Extract<MeEvent, { type: 'round' | 'bonus' }>; player: number }
      | undefined;
    const here = (p: Placement) => p.row === row && p.col === col;
    this.replay((event, before, _after, index) => {
      const player = before.holder[board]!;
      if (event.type === 'round') {
        if (event.words.some((w) => w.player === player && w.placements.some(here)))
          found = { index, event, player };
      } else if (event.type === 'bonus') {
        if (event.player === player && event.placements?.some(here)) found = { index, event, player };
      }
    });
    if (!found) {
      throw new ServiceError(
        'not-allowed',
        `no word put a tile on ${squareName({ row, col })} of board ${board + 1}`,
      );
    }
    const fix = (placements: readonly Placement[]) =>
      placements.flatMap((p) => (!here(p) ? [p] : tile === '.' ? [] : [{ ...p, tile }]));
    const { event, player } = found;
    const corrected: MeEvent =
      event.type === 'round'
        ? {
            ...event,
            words: event.words
              .map((w) => (w.player === player ? { ...w, placements: fix(w.placements) } : w))
              .filter((w) => w.placements.length > 0),
          }
        : { ...event, placements: event.placements ? fix(event.placements) : null };
    return this.apply([{ type: 'correction', target: found.index, event: corrected }]);
  }

  private async thumbnail(bytes: Uint8Array, corners: Corners | null, camera: number): Promise<void> {
    if (this.thumbnailListeners.size === 0) return;
    const thumb = { ...(await makeThumbnail(bytes, corners)), camera };
    for (const listener of this.thumbnailListeners) listener(thumb);
  }

  /** Tells the viewers, after the current request has been answered (the audience never slows a commit). */
  private notify(): void {
    this.fanOut.schedule();
  }
}
