/**
 * One Scrabble Me game being played (rule book 003): a board per player, a camera per seat, and the round scored
 * once every board still in play has ended its turn. The engine state is rebuilt from the stored events; the
 * readings of the round in progress live here until the round is scored. As in the classic game, the camera is
 * never trusted alone: a reading that is not a legal word on its board, or has squares in doubt that matter,
 * waits for the scorekeeper with its photo.
 *
 * Cameras are numbered by seat. A camera sees the board its seat's player holds (after a blank swap the boards
 * change places), but the tiles decide: a reading is matched to the board whose committed tiles it shows.
 *
 * Size: as classic.ts, one Scrabble Me game's state and every way it changes.
 */
import {
  afterChallenges,
  applyMeEvent,
  type Board,
  correctTile,
  describeOverdrawn,
  EMPTY,
  effectiveEvents,
  formatBoard,
  inferMove,
  type Lexicon,
  type MeEvent,
  type MeRoundRecord,
  type MeState,
  makeRules,
  matchBoard,
  meRounds,
  newMeGame,
  overdrawnBy,
  type Placement,
  parseBoard,
  roundFromReadings,
  type Square,
  squareName,
} from '../../engine/index.ts';
import {
  type Decision,
  type FrameResult,
  type MeAction,
  type MeSnapshot,
  meActionSchema,
  parseWith,
} from '../../protocol/index.ts';
import type { GameChanges, GameStore, StoredGame } from '../../store/types.ts';
import { ServiceError } from '../errors.ts';
import type { CameraPictures, Session } from './contract.ts';
import { HandWaits, STREAM_GAP_MS } from './hand-wait.ts';
import { interpret, maybeTiles, newTiles } from './interpret.ts';
import { eventsAfter, FrameIntake, HeldReadings, SourceBoard, Viewers } from './live.ts';
import { meSnapshotOf } from './me-snapshot.ts';

export type { MeAction } from '../../protocol/index.ts';

/** How a frame or an action ended; `board`: the board the frame showed. */
export type MeFrameResult = FrameResult;

export class MeSession implements Session {
  private state: MeState;
  private seq = 0;
  /** Boards whose turn has ended this round: the reading kept for each. */
  private readonly turns = new Map<number, Board>();
  /** Readings waiting for the scorekeeper, per board. */
  private readonly held: HeldReadings;
  /** The frame each held reading was read from (while the process runs): a camera keeps the squares committed empty
   *  empty while its last frame is that one (`FrameIntake.learn`). */
  private readonly heldFrames = new Map<number, Uint8Array>();
  private readonly intake: FrameIntake;
  /** The camera pictures: the intake's. */
  readonly pictures: CameraPictures;
  private rounds: readonly MeRoundRecord[] = [];
  /** How each board's last accepted reading was decided (read, by context, confirmed). */
  private readonly decided = new Map<number, Decision>();
  /** End turns waiting out a hand, per camera: the last reading, to hold when no clear frame comes. */
  private readonly handWaits = new HandWaits<{
    board: number;
    read: Board;
    doubts: Square[];
    bytes: Uint8Array;
  }>(
    (task) => this.defer(task),
    (_camera, last) => this.holdAfterHand(last),
  );
  /** When each camera last sent a frame that did not end a turn. */
  private readonly lastFeed = new Map<number, number>();
  /** The version of the last round scored or correction: the round being played began after it. */
  private roundFrom = 0;
  private readonly viewers = new Viewers<MeSnapshot>(() => this.snapshot());
  readonly sources = new SourceBoard(() => this.viewers.changed());

  private constructor(
    private readonly store: GameStore,
    readonly stored: Omit<StoredGame, 'events'>,
    /** Breaks ties between a camera's readings (interpret.ts); absent, the model's shares alone decide. */
    private readonly readingLexicon: Lexicon | undefined,
  ) {
    const { config } = stored;
    const start = newMeGame(
      config.players,
      makeRules({ lang: config.lang, players: config.players.length }),
      config.podium ?? '',
    );
    if (!start.ok) throw new ServiceError('bad-request', start.message);
    this.state = start.state;
    this.held = new HeldReadings(store, stored.id, (board) => `pending-board-${board + 1}-`, stored.held);
    this.pictures = this.intake = new FrameIntake(config.lang, config.players.length);
  }

  /** Rebuilds a session from its stored events, exactly as it was. */
  static load(store: GameStore, stored: StoredGame, readingLexicon?: Lexicon): MeSession {
    const session = new MeSession(store, stored, readingLexicon);
    session.catchUp(stored.events);
    return session;
  }

  /** Applies the stored events after this version, in order. */
  private catchUp(events: StoredGame['events']): void {
    for (const e of eventsAfter(events, this.seq, this.id)) {
      this.seq = e.seq;
      if (e.event.type === 'board-turn') {
        const read = parseBoard(e.event.reading);
        if (!read.ok) throw new Error(`stored game ${this.id}: event ${e.seq}: ${read.message}`);
        this.turns.set(e.event.board, read.board);
        if (e.decision) this.decided.set(e.event.board, e.decision);
        continue;
      }
      const step = applyMeEvent(this.state, e.event as MeEvent);
      if (!step.ok)
        throw new Error(`stored game ${this.id} does not replay at event ${e.seq}: ${step.message}`);
      this.state = step.state;
      if (e.event.type === 'round' || e.event.type === 'correction') {
        this.turns.clear();
        this.roundFrom = e.seq;
      }
      if (e.event.type === 'correction') this.decided.clear();
    }
    this.rounds = meRounds(this.state);
  }

  refresh(stored: GameChanges): void {
    const [before, round] = [this.seq, this.roundFrom];
    this.catchUp(stored.events);
    // Recorded elsewhere, as when recorded here: a correction makes the cameras forget what they learnt; a round
    // scored or corrected ends every End turn waiting out a hand, a board's turn recorded the waits over that board.
    if (eventsAfter(stored.events, before, this.id).some((e) => e.event.type === 'correction'))
      this.intake.forget();
    for (const [camera, wait] of this.handWaits.entries())
      if (this.roundFrom !== round || this.turns.has(wait.board)) this.handWaits.stop(camera);
    this.held.reset(stored.held ?? []);
    this.notify();
  }

  get changes(): number {
    return this.viewers.count;
  }

  get id(): string {
    return this.stored.id;
  }

  get players(): number {
    return this.state.players.length;
  }

  defer: (task: () => Promise<unknown>) => void = (task) => void task();

  get busy(): boolean {
    return this.handWaits.size > 0;
  }

  get endTurnsWaiting(): readonly { camera: number; mark: string }[] {
    // The round, the board, and the reading held for that board when the wait began, if one was.
    return this.handWaits.entries().map(([camera, wait]) => {
      const stamp = this.held.stamp(wait.board);
      return { camera, mark: `${this.roundFrom}/${wait.board}${stamp ? `/${stamp}` : ''}` };
    });
  }

  waitStands(camera: number, mark: string): boolean {
    // A wait ends with its round (scored, or corrected under it) or its board's turn; other boards' turns go on. So
    // does the reading held for its board when no clear frame came (its worker died before the note went).
    const [fromText, boardText, stamp = ''] = mark.split('/');
    const [from, board] = [Number(fromText), Number(boardText)];
    return (
      Number.isInteger(camera) &&
      camera >= 0 &&
      camera < this.players &&
      this.state.phase !== 'ended' &&
      from === this.roundFrom &&
      Number.isInteger(board) &&
      board >= 0 &&
      board < this.state.boards.length &&
      !this.turns.has(board) &&
      stamp === this.held.stamp(board)
    );
  }

  get seats(): number {
    return this.players;
  }

  get version(): number {
    return this.seq;
  }

  get watchers(): number {
    return this.viewers.size + this.intake.watchers;
  }

  explainTurn(): never {
    throw new ServiceError('not-allowed', 'a Scrabble Me move is explained on its round, on the scoreboard');
  }

  gcg(): string {
    throw new ServiceError('not-allowed', 'GCG records one board; a Scrabble Me game has no GCG form');
  }

  racksLeft(): never {
    throw new ServiceError('not-allowed', 'racks are kept for games on one board, not Scrabble Me');
  }

  keptRack(): never {
    throw new ServiceError('not-allowed', 'racks are kept for games on one board, not Scrabble Me');
  }

  subscribe(listener: (snapshot: MeSnapshot) => void): () => void {
    return this.viewers.subscribe(listener);
  }

  snapshot(): MeSnapshot {
    return meSnapshotOf(this.id, this.state, {
      version: this.seq,
      ended: (board) => this.turns.has(board),
      pending: (board) => this.held.view(board),
      decided: (board) => this.decided.get(board) ?? null,
      rounds: this.rounds,
      lang: this.stored.config.lang,
      sources: this.sources.view(),
    });
  }

  /**
   * A frame from the camera at seat `camera`. Without `endTurn` it only feeds the views; with it, the board the
   * frame shows has ended its turn (or, after the last round, the bonus word is read from it).
   */
  async submitFrame(
    bytes: Uint8Array,
    endTurn: boolean,
    { camera = 0, now = Date.now() }: { camera?: number; now?: number } = {},
  ): Promise<MeFrameResult> {
    if (this.state.phase === 'ended') throw new ServiceError('not-allowed', 'the game is over');
    if (!Number.isInteger(camera) || camera < 0 || camera >= this.players)
      throw new ServiceError('bad-request', `camera must be a seat from 0 to ${this.players - 1}`);
    if (endTurn && this.intake.repeated(camera, bytes, this.seq))
      return {
        status: 'unchanged',
        reasons: ['this very frame has just ended a turn: nothing more recorded'],
      };
    const result = await this.readAndDecide(bytes, endTurn, camera, now);
    if (endTurn && (result.status === 'committed' || result.status === 'ended-turn'))
      this.intake.endedTurn(camera, bytes, this.seq);
    return result;
  }

  private async readAndDecide(
    bytes: Uint8Array,
    endTurn: boolean,
    camera: number,
    now: number,
  ): Promise<MeFrameResult> {
    // An End turn, or a frame an End turn waiting out a hand takes as its own: an answer is waited for.
    const { reading, board: read } = await this.intake.read(
      bytes,
      camera,
      endTurn || this.handWaits.has(camera),
    );
    const board = matchBoard(read, this.state.boards) ?? this.state.holder.indexOf(camera);
    // A camera that keeps sending frames (the camera page, a pulled stream) can wait out a hand.
    const streaming = now - (this.lastFeed.get(camera) ?? Number.NEGATIVE_INFINITY) < STREAM_GAP_MS;
    if (!endTurn) this.lastFeed.set(camera, now);
    // While an End turn of this camera waits for a clear frame, its next frame is the End turn's.
    const waiting = this.handWaits.has(camera);
    const committed = this.state.boards[board]!;
    // Before a board's first turn its squares are empty, a fact: a frame of it that shows no tile, none in doubt and
    // no hand shows the camera the empty squares, kept as a turn keeps them (as a classic game's camera does), and
    // teaches it nothing (the printed squares are no examples of an empty square).
    const first = committed.cells.every((c) => c === EMPTY) && !this.turns.has(board);
    if (!endTurn && !waiting && !first) return { status: 'waiting', board };
    const seen = interpret(
      { board: read, unsure: reading.unsure, alternatives: reading.alternatives },
      {
        committed,
        layout: this.state.rules.base.layout,
        tileSet: this.state.rules.base.tileSet,
        lexicon: this.readingLexicon,
        // One bag for every board: the other boards' tiles count too.
        alsoCounted: this.state.boards.flatMap((b, i) => (i === board ? [] : [this.turns.get(i) ?? b])),
      },
    );
    if (first && !seen.hand && !newTiles(committed, seen.board, seen.doubts))
      this.intake.learn(camera, maybeTiles(committed, reading.alternatives), bytes, { teach: false });
    if (!endTurn && !waiting) return { status: 'waiting', board };
    this.checkMayEnd(board);
    if (seen.hand && (waiting || streaming)) {
      this.handWaits.wait(camera, { board, read: seen.board, doubts: [...seen.doubts], bytes });
      return { status: 'waiting', board, reasons: ['hand in view: the next clear frame ends the turn'] };
    }
    this.handWaits.stop(camera);
    if (seen.doubts.length > 0) {
      // A frame that only continued a wait, with nothing new and a doubt, is no word to hold.
      if (!endTurn && !newTiles(this.state.boards[board]!, seen.board, seen.doubts))
        return { status: 'waiting', board };
      const reason = seen.hand ? 'hand in view' : 'some squares could not be read with confidence';
      return this.hold(board, seen.board, [reason], [...seen.doubts], bytes);
    }
    const decision: Decision =
      seen.resolved.length > 0 ? { how: 'context', squares: seen.resolved } : { how: 'read' };
    return this.endTurn(board, seen.board, bytes, false, decision);
  }

  /** An End turn's wait out a hand is over with no clear frame: its last reading is held, saying a hand was in view. */
  private async holdAfterHand(last: { board: number; read: Board; doubts: Square[]; bytes: Uint8Array }) {
    // The board's turn ended another way meanwhile (confirmed, the game over): nothing to hold.
    if (this.state.phase === 'ended' || this.turns.has(last.board)) return;
    await this.hold(last.board, last.read, ['hand in view'], last.doubts, last.bytes);
  }

  /** Scrabble Me gives no board-disturbed notice. */
  disturbance(): readonly { row: number; col: number }[] {
    return [];
  }

  showDisturbance(): void {}

  async settleWaits(): Promise<void> {
    for (const [, last] of this.handWaits.stopAll()) await this.holdAfterHand(last);
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
  private async endTurn(
    board: number,
    read: Board,
    photo: Uint8Array | 'held' | undefined,
    confirmed = false,
    decision: Decision = confirmed ? { how: 'confirmed' } : { how: 'read' },
  ): Promise<MeFrameResult> {
    this.checkMayEnd(board);
    const holder = this.state.holder[board]!;
    // More tiles of a kind on the boards than the one bag holds: a misreading, unless the scorekeeper says otherwise.
    const overdrawn = (placements: readonly Placement[]): Promise<MeFrameResult> | undefined => {
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
      const name = `bonus-board-${board + 1}-${this.seq + 1}.jpg`;
      const prepared = await this.held.prepare(board, photo, name);
      let result: MeFrameResult;
      try {
        result = await this.apply(
          [{ type: 'bonus', player: holder, placements: inferred.move.placements }],
          board,
        );
      } catch (err) {
        await this.held.discard(prepared);
        throw err;
      }
      // Kept once the word is stored: a word refused leaves the held reading and its photo as they were.
      await this.held.settle(board, photo, name, prepared);
      this.notify();
      return result;
    }
    const inferred = inferMove(this.state.boards[board]!, read, { layout: this.state.rules.base.layout });
    if (!inferred.ok && inferred.reason !== 'no-change') {
      return this.hold(board, read, [inferred.message], [...(inferred.squares ?? [])], photo);
    }
    if (inferred.ok && inferred.kind !== 'play')
      return this.hold(board, read, ['tiles were taken off this board'], [], photo);
    const held = inferred.ok ? overdrawn(inferred.move.placements) : undefined;
    if (held) return held;
    const name = `round-${this.state.round}-board-${board + 1}-${this.seq + 1}.jpg`;
    const prepared = await this.held.prepare(board, photo, name);
    const path = prepared.path;
    const seq = this.seq + 1;
    const appended = this.store.appendEvents(this.id, [
      {
        seq,
        event: { type: 'board-turn', board, reading: formatBoard(read) },
        at: new Date().toISOString(),
        ...(path ? { photo: path } : {}),
        decision,
      },
    ]);
    try {
      await appended;
    } catch (err) {
      await this.held.discard(prepared);
      throw err;
    }
    this.seq = seq;
    this.turns.set(board, read);
    // The photo is named, and the held reading let go, once the turn is stored.
    await this.held.settle(board, photo, name, prepared);
    // The camera in front of this board learns this set's tiles from the reading accepted, and, when the reading is
    // its last frame's, keeps the squares committed empty empty while their pixels stay.
    const frame = photo === 'held' ? this.heldFrames.get(board) : photo;
    this.heldFrames.delete(board);
    if (photo) this.intake.learn(holder, read, frame);
    // A camera still waiting out a hand over this board has nothing left to end.
    for (const [camera, wait] of this.handWaits.entries())
      if (wait.board === board) this.handWaits.stop(camera);
    this.decided.set(board, decision);
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

  private async hold(
    board: number,
    read: Board,
    reasons: string[],
    squares: Square[],
    photo?: Uint8Array | 'held',
  ): Promise<MeFrameResult> {
    // The same reading held again keeps its first photo.
    if (photo instanceof Uint8Array) this.heldFrames.set(board, photo);
    if (
      await this.held.hold(
        board,
        read,
        reasons,
        squares,
        photo,
        photo instanceof Uint8Array ? this.intake.lookOf(photo) : undefined,
      )
    )
      this.notify();
    return { status: 'needs-confirmation', board, reasons: [...this.held.get(board)!.reasons] };
  }

  async act(body: unknown): Promise<MeFrameResult> {
    const parsed = parseWith(meActionSchema(this.players), body);
    if (!parsed.ok) throw new ServiceError('bad-request', parsed.message);
    return this.perform(parsed.value);
  }

  private async perform(action: MeAction): Promise<MeFrameResult> {
    const s = this.state;
    switch (action.type) {
      case 'end-turn': {
        return this.submitFrame(this.intake.last(action.camera), true, { camera: action.camera });
      }
      case 'confirm': {
        const given = action.reading ? parseBoard(action.reading) : undefined;
        if (given && !given.ok) throw new ServiceError('bad-request', given.message);
        const chosen = given?.board ?? this.held.get(action.board)?.board;
        if (!chosen)
          throw new ServiceError('not-allowed', `no reading of board ${action.board + 1} is waiting`);
        const result = await this.endTurn(action.board, chosen, 'held', true);
        if (result.status === 'needs-confirmation')
          throw new ServiceError('not-allowed', (result.reasons ?? []).join('; '));
        return result;
      }
      case 'correct': {
        if (!this.held.get(action.board))
          return this.correctCommitted(action.board, action.row, action.col, action.tile);
        const fixed = await this.held.correct(action.board, action.row, action.col, action.tile);
        this.notify();
        return { status: 'needs-confirmation', board: action.board, reasons: [...fixed.reasons] };
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
  private async apply(events: MeEvent[], board?: number): Promise<MeFrameResult> {
    let state = this.state;
    for (const event of events) {
      const step = applyMeEvent(state, event);
      if (!step.ok) throw new ServiceError('not-allowed', step.message);
      state = step.state;
    }
    const at = new Date().toISOString();
    // The events and the game's end are stored together or not at all.
    const first = this.seq;
    await this.store.appendEvents(
      this.id,
      events.map((event, k) => ({ seq: first + k + 1, event, at })),
      {
        scores: state.scores,
        ...((state.phase === 'ended') !== (this.state.phase === 'ended')
          ? { ended: state.phase === 'ended' ? at : null }
          : {}),
      },
    );
    this.seq = first + events.length;
    this.state = state;
    this.rounds = meRounds(state);
    // A round scored, or the boards corrected under them: the readings taken so far are spent.
    if (events.some((e) => e.type === 'round' || e.type === 'correction')) {
      this.turns.clear();
      this.roundFrom = this.seq;
      // An End turn still waiting out a hand belonged to the round now scored or corrected (stopped before the
      // store is waited on: nothing may note it meanwhile as waiting in the new round).
      this.handWaits.stopAll();
      await this.held.clear();
    }
    // A correction changes tiles under the readings' decisions: they no longer describe the boards, and what the
    // cameras learnt from them may be wrong.
    if (events.some((e) => e.type === 'correction')) {
      this.decided.clear();
      this.intake.forget();
    }
    this.notify();
    return { status: 'committed', event: events.at(-1)!, ...(board === undefined ? {} : { board }) };
  }

  /**
   * Fixes a committed tile: the round (or bonus) event whose word put a tile on that square of that board is
   * replaced by a correction with the tile as it really is (`.`: no tile there). Everything after it is derived
   * again; the engine refuses a correction that makes a later event illegal.
   */
  private correctCommitted(board: number, row: number, col: number, tile: string): Promise<MeFrameResult> {
    const correction = correctTile(this.state, board, row, col, tile);
    if (!correction)
      throw new ServiceError(
        'not-allowed',
        `no word put a tile on ${squareName({ row, col })} of board ${board + 1}`,
      );
    return this.apply([correction]);
  }

  /** Tells the viewers, after the current request has been answered (the audience never slows a commit). */
  private notify(): void {
    this.viewers.changed();
  }
}
