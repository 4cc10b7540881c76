/**
 * One game being played: the engine state rebuilt from the stored events, the reading waiting for confirmation,
 * and the frame intake that turns camera readings into events. The camera is never trusted alone: a reading that
 * is not a legal move from the last board, has squares in doubt, or puts more tiles of a letter on the board than
 * the set has, waits for the scorekeeper with its photo.
 *
 * Size: one game's state and every way it changes (a frame, an action, a held reading confirmed, a refresh from
 * another instance) over that one state; what a frame means is decided in interpret.ts, what a board records or holds
 * in decide.ts, the live side in live.ts.
 */

import type { Corners, RackReading } from '../../../vision/index.ts';
import {
  applyEvent,
  type Board,
  EMPTY,
  effectiveEvents,
  emptyBoard,
  explainMove,
  explainTurn,
  formatBoard,
  type GameEvent,
  type GameState,
  gcgFromGame,
  hasLetter,
  inferMove,
  type Lexicon,
  makeRules,
  newGame,
  overtimePenalties,
  type Placement,
  parseBoard,
  racksLeft,
  recordedRack,
  type Square,
  squareName,
  unseenTiles,
  writeGcg,
} from '../../engine/index.ts';
import {
  type Action,
  actionSchema,
  type Decision,
  type FrameResult,
  type GameSnapshot,
  type PendingView,
  parseWith,
  type RevealedMove,
  type Verification,
} from '../../protocol/index.ts';
import type { GameChanges, GameStore, StoredGame } from '../../store/types.ts';
import { analyzeTurn } from '../analysis.ts';
import { verdictOf } from '../checks/verify.ts';
import { ServiceError } from '../errors.ts';
import type { CameraPictures, Session } from './contract.ts';
import { decideBoard } from './decide.ts';
import { foreignNote } from './foreign.ts';
import { HandWaits, STREAM_GAP_MS } from './hand-wait.ts';
import { type Interpretation, interpret, maybeTiles, newTiles, type RackSeen } from './interpret.ts';
import { type Behind, eventsAfter, FrameIntake, HeldReadings, SourceBoard, Viewers } from './live.ts';
import { RackWatch, rackOf, type SeenTile } from './rack-seen.ts';
import { rackReader } from './rack-thread.ts';
import { clockOf, snapshotOf } from './snapshot.ts';

export type { Action, FrameResult } from '../../protocol/index.ts';

/**
 * After the move of the player at the camera's place, their rack is not looked at for this long: they draw their new
 * tiles (seen short, the rack would take up the looks of their next move).
 */
const DRAWING_MS = 10_000;
/**
 * A move being recorded while the look at its player's rack still runs waits for it this long at most (the looks of
 * every game share one thread, rack-thread.ts): then it is recorded without the rack.
 */
const RACK_KEEP_MS = 10_000;
/** A frame showing the move being made waits this long at most for the turn's look at the rack to end. */
const RACK_WAIT_MS = 3_000;

/** Auto capture commits a reading once it has been the same for this many frames and this long. */
export interface CaptureTiming {
  frames: number;
  ms: number;
}

/** Held readings of a game on one board are all board 0's. */
const BOARD = 0;

export class GameSession implements Session {
  private state: GameState;
  private stable: { text: string; count: number; since: number } | undefined;
  private seq: number;
  /** Committed squares read confidently as something else in the last frame, and in two frames running. */
  private lastDisturbed: readonly { row: number; col: number }[] = [];
  private disturbed: readonly { row: number; col: number }[] = [];
  /** The move shown after the rack delay (reveal), and what it was worked out from. */
  private revealed?: { key: string; move: RevealedMove | null };
  /** When the last frame that only fed the views came. */
  private lastFeed = Number.NEGATIVE_INFINITY;
  /** An End turn waiting for a frame without a hand over the board: the last reading, held when none comes. */
  private readonly handWait = new HandWaits<{
    board: Board;
    doubts: Interpretation['doubts'];
    bytes: Uint8Array;
  }>(
    (task) => this.defer(task),
    (_camera, wait) => this.hold(wait.board, ['hand in view'], wait.doubts, wait.bytes),
  );
  /** How each move read by the camera was decided, by event index. */
  private readonly decisions = new Map<number, Decision>();
  /** When each event was recorded (ISO 8601) and who was to move before it, by index: the turn clock. */
  private readonly times: { at: string; toMove: number }[] = [];
  private readonly viewers = new Viewers<GameSnapshot>(() => this.snapshot());
  private readonly intake: FrameIntake;
  /** The camera pictures: the intake's. */
  readonly pictures: CameraPictures;
  private readonly held: HeldReadings;
  readonly sources = new SourceBoard(() => this.viewers.changed());
  /** What the last frame read showed, as the game took it (interpret.ts). */
  private lastSeen: Interpretation | undefined;
  /** The frame the reading held for the scorekeeper was read from (while this instance holds it): confirmed, the
   *  camera is told the board it showed (FrameIntake.learn). */
  private heldFrame: Uint8Array | undefined;
  /**
   * The racks looked for before their players' turns, by player: the rack of the player at whose place the camera
   * stands (`rackCamera`), and of each player whose place has a rack camera (`rackFrame`).
   */
  private readonly rackWatches = new Map<number, RackWatch>();
  /** When each player's last move was recorded (ms since the epoch). */
  private readonly movedAt = new Map<number, number>();

  private constructor(
    private readonly store: GameStore,
    readonly stored: Omit<StoredGame, 'events'>,
    private readonly lexicon: Lexicon | undefined,
    private readonly timing: CaptureTiming,
    /** Breaks ties between the camera's readings (see interpret.ts); the flagging lexicon is `lexicon`. */
    private readonly readingLexicon: Lexicon | undefined,
  ) {
    const { config } = stored;
    if (config.variant === 'scrabble-me') throw new Error('a Scrabble Me game is a MeSession');
    const rules = makeRules({
      lang: config.lang,
      players: config.players.length,
      variant: config.variant,
      challenge: config.challengeRule,
      ...(config.levels ? { levels: config.levels } : {}),
      ...(config.clockMinutes ? { clockMinutes: config.clockMinutes } : {}),
    });
    const start = newGame(config.players, rules);
    if (!start.ok) throw new ServiceError('bad-request', start.message);
    this.state = start.state;
    this.seq = 0;
    this.pictures = this.intake = new FrameIntake(config.lang, 1);
    this.held = new HeldReadings(store, stored.id, () => 'pending-', stored.held);
    if (config.rackCamera !== undefined) this.watchRack(config.rackCamera);
  }

  /** The watch on `player`'s rack, begun now if there was none. */
  private watchRack(player: number): RackWatch {
    let watch = this.rackWatches.get(player);
    if (!watch) {
      const { lang } = this.stored.config;
      watch = new RackWatch(async (bytes, corners, near) => {
        // Off the event loop: a look costs seconds of the processor (rack-thread.ts).
        const seen = await rackReader.read(bytes, corners, lang, near);
        return { rack: seen && this.mayBeRack(seen), distance: seen?.distance };
      }, this.state.rules.rackSize);
      this.rackWatches.set(player, watch);
    }
    return watch;
  }

  /** The tiles seen, when they may be the player's rack: no more than a rack holds. */
  private mayBeRack(seen: RackReading): RackReading['tiles'] | undefined {
    return seen.tiles.length <= this.state.rules.rackSize ? seen.tiles : undefined;
  }

  /** The rack the camera saw for `event`, made from `before`, settled with what the game knows (rack-seen.ts). */
  private rackSeen(tiles: readonly SeenTile[], before: GameState, event: GameEvent): string | undefined {
    const played =
      event.type === 'play'
        ? event.placements.map((p) => (p.tile === p.tile.toUpperCase() ? p.tile : '?'))
        : event.type === 'exchange' && typeof event.tiles === 'string'
          ? [...event.tiles]
          : [];
    const { rules, board, players } = before;
    const unseen = unseenTiles(rules.tileSet, board, {
      opponents: players.length - 1,
      rackSize: rules.rackSize,
    });
    // While the bag had tiles, the rack was full: tiles not seen were there all the same (a blank, a tile hidden).
    const size = unseen.bag > 0 ? rules.rackSize : undefined;
    const rack = rackOf(tiles, { available: unseen.tiles, played, size });
    return rack !== undefined && rackRefusal(rules, rack) === undefined ? rack : undefined;
  }

  /** Rebuilds a session from its stored events, exactly as it was. */
  static load(
    store: GameStore,
    stored: StoredGame,
    lexicon: Lexicon | undefined,
    timing: CaptureTiming,
    readingLexicon: Lexicon | undefined = lexicon,
  ): GameSession {
    const session = new GameSession(store, stored, lexicon, timing, readingLexicon);
    session.catchUp(stored.events);
    // A game loaded with a rack delay works out the move it shows (viewers are told when it is ready).
    void session.reveal();
    return session;
  }

  /** Applies the stored events after this version, in order. */
  private catchUp(events: StoredGame['events']): void {
    for (const e of eventsAfter(events, this.seq, this.id)) {
      const step = applyEvent(this.state, e.event as GameEvent);
      if (!step.ok)
        throw new Error(`stored game ${this.id} does not replay at event ${e.seq}: ${step.message}`);
      this.times.push({ at: e.at, toMove: this.state.ended ? -1 : this.state.toMove });
      this.state = step.state;
      this.seq = e.seq;
      if (e.decision) this.decisions.set(e.seq - 1, e.decision);
    }
  }

  refresh(stored: GameChanges): void {
    const before = this.seq;
    const earlier = this.state.events;
    this.catchUp(stored.events);
    // A correction recorded elsewhere may undo what the camera here learnt, as one recorded here does (commit).
    if (
      eventsAfter(stored.events, before, this.id).some(
        (e) =>
          e.event.type === 'correction' &&
          !rackOnly(earlier, e.event as Extract<GameEvent, { type: 'correction' }>),
      )
    )
      this.intake.forget();
    // Anything recorded elsewhere ends an End turn waiting here out a hand, as it would have here (waitStands).
    if (this.seq !== before) this.handWait.stop(0);
    this.held.reset(stored.held ?? []);
    this.stable = undefined;
    this.notify();
  }

  get changes(): number {
    return this.viewers.count;
  }

  get id(): string {
    return this.stored.id;
  }

  defer: (task: () => Promise<unknown>) => void = (task) => void task();

  get busy(): boolean {
    return this.handWait.size > 0;
  }

  get endTurnsWaiting(): readonly { camera: number; mark: string }[] {
    // The game's version, and the reading held when the wait began, if one was (`SEQ:STAMP`).
    const stamp = this.held.stamp(BOARD);
    return this.handWait.has(0)
      ? [{ camera: 0, mark: stamp ? `${this.seq}:${stamp}` : String(this.seq) }]
      : [];
  }

  waitStands(camera: number, mark: string): boolean {
    // Anything recorded ends a wait (a move, a pass, an undo, a confirmation); so does the reading held for the
    // scorekeeper when no clear frame came (its worker died before the note of the wait was taken away).
    const [seq, stamp = ''] = mark.split(':');
    return camera === 0 && !this.state.ended && seq === String(this.seq) && stamp === this.held.stamp(BOARD);
  }

  get seats(): number {
    return 1;
  }

  get version(): number {
    return this.seq;
  }

  get watchers(): number {
    return this.viewers.size + this.intake.watchers;
  }

  snapshot(): GameSnapshot {
    const pending = this.held.view(BOARD);
    return snapshotOf(this.id, this.state, {
      pending: pending && { ...pending, ...this.preview() },
      disturbed: this.disturbed,
      capture: this.stored.config.capture,
      lang: this.stored.config.lang,
      variant: this.stored.config.variant as GameSnapshot['variant'],
      version: this.seq,
      sources: this.sources.view(),
      decisions: this.decisions,
      ...(this.lexicon ? { lexicon: this.lexicon } : {}),
      times: { created: this.stored.createdAt, events: this.times },
      ...(this.stored.config.rackDelay === undefined ? {} : { revealed: this.revealed?.move ?? null }),
    });
  }

  /**
   * With a rack delay: the newest move at least that many moves old whose rack was kept, analysed (the lexicon loads
   * once, off the request's path), for the snapshot; viewers are told when it changes. Never a newer move.
   */
  private async reveal(): Promise<void> {
    const delay = this.stored.config.rackDelay;
    if (delay === undefined) return;
    const target = this.revealable(delay);
    const turn = target?.turn ?? 0;
    const rack = target?.rack;
    // Worked out again only for another move or rack, or a correction (which may change the board before it).
    const corrections = this.state.events.filter((e) => e.type === 'correction').length;
    const key = rack === undefined ? '' : `${turn}:${rack}:${corrections}`;
    if (this.revealed?.key === key) return;
    // The move shown until this one is worked out, while it may still be shown with that rack: never one now too
    // new (moves taken back) or a rack corrected away.
    const shown = this.revealed?.move;
    const keep =
      shown !== undefined &&
      shown !== null &&
      shown.turn <= turn &&
      shown.turn <= this.movesMade() &&
      this.keptRack(shown.turn) === shown.rack &&
      this.mayShow(delay)(shown.turn);
    this.revealed = { key, move: keep ? shown : null };
    if (rack === undefined) {
      this.viewers.changed(true);
      return;
    }
    // After the reply and the viewers' news: the move generation is the slow part.
    await new Promise((resolve) => setImmediate(resolve));
    if (this.revealed?.key !== key) return;
    let move: RevealedMove;
    try {
      const a = await analyzeTurn(this, turn, rack);
      const best = a.best[0];
      move = {
        turn,
        player: a.player,
        rack,
        played: { position: a.played.position, word: a.played.word, score: a.played.score },
        best: best ? { position: best.position, word: best.word, score: best.score } : null,
        equityLost: a.equityLost,
      };
    } catch (err) {
      // The rack, without a best play, rather than nothing (a rack the analysis refuses, a record it cannot read).
      console.error(`game ${this.id}: the best play of move ${turn}: ${(err as Error).message}`);
      const t = this.state.turns.filter((x) => MOVE_KINDS.has(x.kind))[turn - 1]!;
      move = {
        turn,
        player: this.state.players[t.player]!,
        rack,
        played: {
          position: '',
          word: t.kind === 'play' ? (t.score?.words[0]?.word ?? '') : '-',
          score: t.points,
        },
        best: null,
        equityLost: null,
      };
    }
    // A newer change meanwhile works out its own.
    if (this.revealed?.key !== key) return;
    this.revealed = { key, move };
    this.viewers.changed(true);
  }

  /**
   * The newest move whose kept rack may be shown after `delay` moves: counted from the last move that rack was used
   * in, since a pass, a play challenged off or a turn lost leaves a player the same rack for their next move.
   */
  private revealable(delay: number): { turn: number; rack: string } | undefined {
    const mayShow = this.mayShow(delay);
    for (let turn = this.movesMade(); turn >= 1; turn--) {
      const rack = this.keptRack(turn);
      if (rack !== undefined && mayShow(turn)) return { turn, rack };
    }
    return undefined;
  }

  private movesMade(): number {
    return this.state.turns.filter((t) => MOVE_KINDS.has(t.kind)).length;
  }

  /** Whether `delay` moves have followed the last use of a move's rack: that move, or its player's later moves that
   *  left it unchanged (a pass, a play challenged off, a turn lost). The moves are listed once for every turn asked. */
  private mayShow(delay: number): (turn: number) => boolean {
    const moves = this.state.turns.flatMap((t, index) => (MOVE_KINDS.has(t.kind) ? [{ ...t, index }] : []));
    const withdrawn = new Set(this.state.turns.flatMap((t) => (t.kind === 'withdraw' ? [t.withdraws] : [])));
    const changesRack = (t: (typeof moves)[number]) =>
      (t.kind === 'play' && !withdrawn.has(t.index)) || t.kind === 'exchange';
    return (turn) => {
      const move = moves[turn - 1];
      if (!move) return false;
      let last = turn;
      if (!changesRack(move))
        for (let k = turn + 1; k <= moves.length; k++) {
          const m = moves[k - 1]!;
          if (m.player !== move.player) continue;
          last = k;
          if (changesRack(m)) break;
        }
      return moves.length - last >= delay;
    };
  }

  /** Each player's time used up to `now` (the running turn's included). */
  private clock(now: number): { used: number[] } {
    const clock = clockOf(this.state, { created: this.stored.createdAt, events: this.times });
    const running = clock.running ? Math.max(0, now - Date.parse(clock.since)) : 0;
    return { used: clock.used.map((ms, i) => ms + (i === this.state.toMove ? running : 0)) };
  }

  /** What the held reading would score, confirmed as it stands: only when it is one legal play. */
  private preview(): { preview: NonNullable<PendingView['preview']> } | undefined {
    const held = this.held.get(BOARD);
    if (!held) return undefined;
    const inferred = inferMove(this.state.board, held.board, { layout: this.state.rules.layout });
    if (!inferred.ok || inferred.kind !== 'play') return undefined;
    const { move, points, sentence, words } = explainMove(held.board, inferred.move, this.state.rules);
    return { preview: { position: move.position, points, sentence, words: words.map((w) => w.sentence) } };
  }

  explainTurn(turn: number): { verification: Verification; player: string } {
    const explained = explainTurn(this.state, turn);
    if (!explained.ok)
      throw new ServiceError(explained.reason === 'no-turn' ? 'not-found' : 'not-allowed', explained.message);
    const boards = { before: formatBoard(explained.before), after: formatBoard(explained.after) };
    return {
      verification: verdictOf(explained.explanation, null, this.state.rules, boards),
      player: this.state.players[this.state.turns[turn]!.player]!,
    };
  }

  gcg({ racks = false }: { racks?: boolean } = {}): string {
    return writeGcg(gcgFromGame(this.state, { racks }));
  }

  subscribe(listener: (snapshot: GameSnapshot) => void): () => void {
    return this.viewers.subscribe(listener);
  }

  /** A camera frame: read it, and commit, hold or wait as the capture mode says. One camera: `camera` is 0. */
  async submitFrame(
    bytes: Uint8Array,
    endTurn: boolean,
    { camera = 0, now = Date.now() }: { camera?: number; now?: number } = {},
  ): Promise<FrameResult> {
    if (camera !== 0) throw new ServiceError('bad-request', 'this game has one camera (seat 0)');
    if (this.state.ended) throw new ServiceError('not-allowed', 'the game is over');
    if (endTurn && this.intake.repeated(camera, bytes, this.seq, now))
      return {
        status: 'unchanged',
        reasons: ['this very frame has just ended a turn: nothing more recorded'],
      };
    const result = await this.readAndDecide(bytes, endTurn, now);
    if (endTurn && result.status === 'committed') this.intake.endedTurn(camera, bytes, this.seq, now);
    // The frame that ended the last turn shows the board as the game now has it.
    this.lookForRack(bytes, now, result.status !== 'committed');
    return result;
  }

  /**
   * The frame (one that showed the board) is looked at for the rack of the player at the camera's place (rack-seen.ts),
   * in the background, for their next move: from their opponents' turns on (they drew after their own move, and the
   * rack stands whole in front of them until they play from it), and in their own turn until they lay tiles.
   */
  private lookForRack(bytes: Uint8Array, now: number, asRead = true): void {
    const corners = this.intake.gridOf(bytes);
    const place = this.stored.config.rackCamera;
    if (!corners || place === undefined) return;
    // Only while the frame (`asRead`: as the game took it) shows no new tile, not even one in doubt: once they have
    // laid tiles, the rack in front of them may already hold the tiles drawn after the move (and tiles laid that the
    // game has not taken yet may be theirs, or a frame of another time).
    const seen = this.lastSeen;
    if (asRead && (!seen || newTiles(this.state.board, seen.board, seen.doubts))) return;
    this.offerRack(place, bytes, corners, now);
  }

  /**
   * A frame of the rack camera at `player`'s place (a phone at their seat, looking across the board with their rack in
   * front of it): looked at for their rack only, in the background, as the board camera's frames are for the player
   * at its place (lookForRack); never read as the board. The board is found in the frame itself.
   */
  rackFrame(bytes: Uint8Array, player: number, now = Date.now()): { status: 'looking' | 'skipped' } {
    if (!Number.isInteger(player) || player < 0 || player >= this.state.players.length)
      throw new ServiceError(
        'bad-request',
        `rack must be one of the ${this.state.players.length} players (0 to ${this.state.players.length - 1})`,
      );
    if (this.state.rules.rackSize !== 7)
      throw new ServiceError('bad-request', 'racks are kept for seven-tile racks only');
    // As the board camera's frames last showed it: a player to move who has laid tiles may hold the new ones already.
    const seen = this.lastSeen;
    if (seen && newTiles(this.state.board, seen.board, seen.doubts)) return { status: 'skipped' };
    return { status: this.offerRack(player, bytes, undefined, now) ? 'looking' : 'skipped' };
  }

  /** Offers a frame to the watch on `player`'s rack when a look is due now: whether one began. */
  private offerRack(player: number, bytes: Uint8Array, corners: Corners | undefined, now: number): boolean {
    if (this.state.ended) return false;
    const n = this.state.players.length;
    // How many moves until theirs.
    const ahead = (player - this.state.toMove + n) % n;
    // Just after their own move they have not drawn yet (a short rack, which would take up the looks of the move).
    if (ahead === n - 1 && now - (this.movedAt.get(player) ?? Number.NEGATIVE_INFINITY) < DRAWING_MS)
      return false;
    return this.watchRack(player).offer(bytes, corners, this.state.turns.length + ahead, now);
  }

  /** Waits for a look at the rack of the move at `turn` still running, RACK_WAIT_MS at most: whether one ended. */
  private async rackLookedAt(turn: number): Promise<boolean> {
    return (await this.rackWatches.get(this.state.toMove)?.lookAt(turn, RACK_WAIT_MS)) ?? false;
  }

  /** The rack of the player to move, when the camera at their place has seen it this turn (for interpret). */
  private rackInView(): RackSeen | undefined {
    const tiles = this.rackWatches.get(this.state.toMove)?.seenFor(this.state.turns.length);
    if (!tiles) return undefined;
    return {
      tiles: tiles.map((t) => (t.sure ? [t.options[0]!.letter] : t.options.map((o) => o.letter))),
      unseen: Math.max(0, this.state.rules.rackSize - tiles.length),
    };
  }

  /** Resolves when no look for a rack is running (tests). */
  async racksLooked(): Promise<void> {
    for (const watch of this.rackWatches.values()) await watch.settled();
  }

  /**
   * The events with the rack the camera saw kept in the move of the player at its place (a rack the scorekeeper
   * kept stays theirs): a play, a pass or an exchange, as the game stood when it was seen.
   */
  private async withRackSeen(events: readonly GameEvent[]): Promise<GameEvent[]> {
    if (this.rackWatches.size === 0) return [...events];
    let state = this.state;
    const out: GameEvent[] = [];
    for (const event of events) {
      const before = state;
      const step = applyEvent(state, event);
      if (step.ok) state = step.state;
      const watch = 'player' in event ? this.rackWatches.get(event.player) : undefined;
      if (
        watch &&
        (event.type === 'play' || event.type === 'pass' || event.type === 'exchange') &&
        event.rack === undefined
      ) {
        const tiles = await watch.rackFor(before.turns.length, RACK_KEEP_MS);
        const rack = tiles && this.rackSeen(tiles, before, event);
        out.push(rack ? { ...event, rack } : event);
      } else out.push(event);
    }
    return out;
  }

  private async readAndDecide(bytes: Uint8Array, endTurn: boolean, now: number): Promise<FrameResult> {
    // An End turn, or a frame an End turn waiting out a hand takes as its own: an answer is waited for.
    const { reading, board: read } = await this.intake.read(bytes, 0, endTurn || this.handWait.has(0));
    const take = () =>
      interpret(
        { board: read, unsure: reading.unsure, alternatives: reading.alternatives },
        {
          committed: this.state.board,
          layout: this.state.rules.layout,
          tileSet: this.state.rules.tileSet,
          lastMove: this.state.lastPlay?.placements,
          lexicon: this.readingLexicon,
          rack: this.rackInView(),
        },
      );
    let seen = take();
    // A move being made while the turn's look at the rack still runs (a move within a few seconds of the turn's
    // start): its tiles come from that rack, so the look is waited for, and the frame taken again with it.
    if (
      newTiles(this.state.board, seen.board, seen.doubts) &&
      (await this.rackLookedAt(this.state.turns.length))
    )
      seen = take();
    this.notice(seen.disturbed);
    this.lastSeen = seen;
    // Before the first move the board is empty, a fact: a frame that shows no tile, none in doubt and no hand shows
    // the camera the empty squares, kept as a commit keeps them. A printed premium square the model reads in doubt
    // is then empty on the first move's frame while its pixels stay (vision's Camera.learn). Not taught as
    // examples of an empty square: the printed ones would teach the memory what no tile looks like.
    if (
      this.state.board.cells.every((c) => c === EMPTY) &&
      !seen.hand &&
      !newTiles(this.state.board, seen.board, seen.doubts)
    )
      this.intake.learn(0, maybeTiles(this.state.board, reading.alternatives), bytes, { teach: false });
    // A camera that keeps sending frames (the camera page, a pulled stream) can wait out a hand.
    const streaming = now - this.lastFeed < STREAM_GAP_MS;
    if (!endTurn) this.lastFeed = now;
    // While an End turn waits for a clear frame, the next frame is the End turn's.
    const ending = endTurn || this.handWait.has(0);
    // Automatic capture decides on a board that has stayed the same for long enough.
    const still = this.settle(seen.board.cells.join(''), now);
    if (!ending && !(this.stored.config.capture === 'auto' && still)) return { status: 'waiting' };
    if (seen.hand && (this.handWait.has(0) || (endTurn && streaming))) {
      this.handWait.wait(0, { board: seen.board, doubts: seen.doubts, bytes });
      return { status: 'waiting', reasons: ['hand in view: the next clear frame ends the turn'] };
    }
    this.handWait.stop(0);
    const queued = await this.waitBehind(seen.board, seen.doubts);
    if (queued) return queued;
    // New tiles that look like another set's letters (an Ä in an English game): the values would be wrong.
    const lang = this.stored.config.lang;
    const strange = (reading.foreign ?? []).filter(
      (f) => this.state.board.cells[f.row * this.state.board.size + f.col] === EMPTY,
    );
    const note = foreignNote(
      strange,
      lang,
      (set) => `start a ${set} game, or confirm if these are its own tiles`,
    );
    if (note) return this.hold(seen.board, [note], [], bytes);
    // Tiles of earlier moves that this photo confidently shows otherwise (gone, or other letters), several at once:
    // an old photo sent again, the board cleared or knocked, another game. Read as the game's facts they would
    // record a withdrawal or a pass nobody made: only the scorekeeper decides.
    const withdrawing = (this.state.lastPlay?.placements ?? []).some(
      (p) => seen.board.cells[p.row * seen.board.size + p.col] === EMPTY,
    );
    if (seen.disturbed.length >= DISTURBED_HOLD || (seen.disturbed.length > 0 && withdrawing))
      return this.hold(
        seen.board,
        [
          `${seen.disturbed.length} tiles of earlier moves look different or gone in this photo (${seen.disturbed
            .slice(0, 4)
            .map(squareName)
            .join(
              ', ',
            )}${seen.disturbed.length > 4 ? '…' : ''}): an earlier photo, another game, or the board knocked? Take the reading back, or confirm the board as the game has it`,
        ],
        [],
        bytes,
      );
    if (seen.doubts.length > 0) {
      // A still board with nothing new on it but doubts (or a hand resting on it) is no move to hold: confirmed,
      // it would record a pass.
      if (!ending && !newTiles(this.state.board, seen.board, seen.doubts)) return { status: 'waiting' };
      const reason = seen.hand ? 'hand in view' : 'some squares could not be read with confidence';
      return this.hold(seen.board, [reason], seen.doubts, bytes);
    }
    const decision: Decision =
      seen.resolved.length > 0 ? { how: 'context', squares: seen.resolved } : { how: 'read' };
    return this.commitBoard(seen.board, bytes, ending, false, decision);
  }

  /**
   * A turn ended while a reading is held: when the board shows the held reading's new tiles and more (the game has
   * gone on), it waits behind it, to be decided in order once the scorekeeper has settled the held one; a board
   * with the same new squares as the last turn held or waiting is a better look at that turn, and takes its place.
   * Undefined: no reading is held, or this one is to be decided (it replaces the held reading) as before.
   */
  private async waitBehind(board: Board, doubts: readonly Square[]): Promise<FrameResult | undefined> {
    const held = this.held.get(BOARD);
    if (!held) return undefined;
    const behind = held.behind ?? [];
    const fresh = newSquares(this.state.board, board);
    const last = newSquares(this.state.board, behind.at(-1)?.board ?? held.board);
    const covers = [...last].every((q) => fresh.has(q));
    if (covers && fresh.size > last.size) await this.held.queue(BOARD, { board, doubts });
    else if (covers && fresh.size === last.size && behind.length > 0)
      await this.held.replaceLast(BOARD, { board, doubts });
    else return undefined;
    this.notify();
    const waiting = this.held.get(BOARD)?.behind?.length ?? 0;
    return {
      status: 'needs-confirmation',
      reasons: [
        `a move waits for the scorekeeper: this turn waits behind it (${waiting === 1 ? '1 turn waits' : `${waiting} turns wait`})`,
      ],
    };
  }

  /**
   * The turns that waited behind a held reading, now settled (confirmed or taken back), decided in order as if each
   * End turn came now; at the first that is held in its turn, the rest wait behind it.
   */
  private async decideBehind(behind: readonly Behind[], result: FrameResult): Promise<FrameResult> {
    let last = result;
    for (const [k, turn] of behind.entries()) {
      if (this.state.ended) break;
      last =
        turn.doubts.length > 0
          ? await this.hold(turn.board, ['some squares could not be read with confidence'], turn.doubts)
          : await this.commitBoard(turn.board, undefined, true);
      if (last.status === 'needs-confirmation') {
        for (const rest of behind.slice(k + 1)) await this.held.queue(BOARD, rest);
        this.notify();
        break;
      }
    }
    return last;
  }

  /** A board-disturbed notice for the squares read as changed in this frame and the one before. */
  private notice(now: readonly { row: number; col: number }[]): void {
    const twice = now.filter((q) => this.lastDisturbed.some((p) => p.row === q.row && p.col === q.col));
    this.lastDisturbed = now;
    this.showDisturbance(twice);
  }

  disturbance(): readonly { row: number; col: number }[] {
    return this.disturbed;
  }

  showDisturbance(squares: readonly { row: number; col: number }[]): void {
    const key = (l: readonly { row: number; col: number }[]) => l.map((q) => `${q.row},${q.col}`).join(' ');
    if (key(squares) === key(this.disturbed)) return;
    this.disturbed = squares;
    this.notify();
  }

  async settleWaits(): Promise<void> {
    const wait = this.handWait.stop(0);
    if (wait) await this.hold(wait.board, ['hand in view'], wait.doubts, wait.bytes);
  }

  /** Counts identical readings for auto capture: true once one has been the same for enough frames and time. */
  private settle(text: string, now: number): boolean {
    if (this.stable?.text === text) this.stable.count++;
    else this.stable = { text, count: 1, since: now };
    return this.stable.count >= this.timing.frames && now - this.stable.since >= this.timing.ms;
  }

  /** The move between the committed board and `board`; commits it, or holds it for the scorekeeper. */
  private async commitBoard(
    board: Board,
    photo: Uint8Array | 'held' | undefined,
    endTurn: boolean,
    confirmed = false,
    decision: Decision | undefined = confirmed ? { how: 'confirmed' } : undefined,
  ): Promise<FrameResult> {
    // The game's lexicon names a blank, or where the game has none (a German game), the one the camera reads with.
    const naming = this.lexicon ?? this.readingLexicon;
    const decided = decideBoard(this.state, board, { endTurn, confirmed, ...(naming ? { naming } : {}) });
    if (decided.kind === 'unchanged')
      return { status: 'unchanged', ...(decided.reasons ? { reasons: [...decided.reasons] } : {}) };
    if (decided.kind === 'hold') return this.hold(board, [...decided.reasons], decided.squares, photo);
    return this.commit([...decided.events], photo, decision);
  }

  private async hold(
    board: Board,
    reasons: string[],
    squares: readonly { row: number; col: number }[],
    photo?: Uint8Array | 'held',
  ): Promise<FrameResult> {
    // The same reading held again (a still board under auto capture) keeps its first photo.
    const look = photo instanceof Uint8Array ? this.intake.lookOf(photo) : undefined;
    if (photo instanceof Uint8Array) this.heldFrame = photo;
    if (await this.held.hold(BOARD, board, reasons, squares, photo, look)) this.notify();
    return { status: 'needs-confirmation', reasons: [...this.held.get(BOARD)!.reasons] };
  }

  /**
   * Applies events in order; all of them or none. `photo` is the frame the events were read from, or `held`: the
   * photo of the reading held for the scorekeeper, who confirmed it. A held reading's photo not used is removed.
   */
  private async commit(
    given: GameEvent[],
    photo?: Uint8Array | 'held',
    decision?: Decision,
  ): Promise<FrameResult> {
    const events = await this.withRackSeen(given);
    let state = this.state;
    const earlier = state.events;
    for (const event of events) {
      const step = applyEvent(state, event);
      if (!step.ok) {
        throw new ServiceError('not-allowed', step.message);
      }
      state = step.state;
    }
    this.handWait.stop(0);
    const at = new Date().toISOString();
    const name = `event-${this.seq + 1}.jpg`;
    const prepared = await this.held.prepare(BOARD, photo, name);
    const path = prepared.path;
    // The events (two for a forgotten End turn) and the game's end are stored together or not at all; the photo and
    // the held reading change only once they are.
    const first = this.seq;
    const appended = this.store.appendEvents(
      this.id,
      events.map((event, k) => {
        const decided = event.type === 'play' ? decision : undefined;
        return {
          seq: first + k + 1,
          event,
          at,
          ...(path ? { photo: path } : {}),
          ...(decided ? { decision: decided } : {}),
        };
      }),
      {
        scores: state.scores,
        ...(Boolean(state.ended) !== Boolean(this.state.ended) ? { ended: state.ended ? at : null } : {}),
      },
    );
    try {
      await appended;
    } catch (err) {
      await this.held.discard(prepared);
      throw err;
    }
    await this.held.settle(BOARD, photo, name, prepared);
    events.forEach((event, k) => {
      if (event.type === 'play' && decision) this.decisions.set(first + k, decision);
    });
    this.seq = first + events.length;
    // Who was to move before each event: the time up to it was theirs unless the event is another's turn.
    let before = this.state;
    for (const event of events) {
      this.times.push({ at, toMove: before.ended ? -1 : before.toMove });
      const step = applyEvent(before, event);
      if (step.ok) before = step.state;
    }
    this.state = state;
    this.stable = undefined;
    // A player draws after their move: their rack is not looked at again for a while.
    for (const e of events)
      if (e.type === 'play' || e.type === 'pass' || e.type === 'exchange')
        this.movedAt.set(e.player, Date.now());
    // The camera learns this set's tiles from a move read from it (or read and confirmed).
    if (photo && events.some((e) => e.type === 'play'))
      this.intake.learn(0, state.board, photo === 'held' ? this.heldFrame : photo);
    // A correction (a square fixed, a move taken back) may undo what a camera learnt: it starts afresh.
    if (events.some((e) => e.type === 'correction' && !rackOnly(earlier, e))) this.intake.forget();
    this.notify();
    return { status: 'committed', event: events.at(-1)! };
  }

  async act(body: unknown): Promise<FrameResult> {
    const parsed = parseWith(actionSchema, body);
    if (!parsed.ok) throw new ServiceError('bad-request', parsed.message);
    return this.perform(parsed.value);
  }

  private async perform(action: Action): Promise<FrameResult> {
    const player = this.state.toMove;
    switch (action.type) {
      case 'end-turn': {
        return this.submitFrame(this.intake.last(0), true);
      }
      case 'pass':
        return this.commit([{ type: 'pass', player }]);
      case 'exchange':
        return this.commit([{ type: 'exchange', player, tiles: action.tiles ?? action.count ?? 0 }]);
      case 'challenge':
        return this.commit([{ type: 'challenge', player: action.player, acceptable: action.acceptable }]);
      case 'end': {
        if (this.state.ended?.racksSettled)
          throw new ServiceError(
            'not-allowed',
            'the game is over: its racks are counted already (Undo first)',
          );
        // Over the game clock: the penalties are recorded with the end, before it (its racks are settled last);
        // an end taken back and made again adds only what more time has cost.
        const { used } = this.clock(Date.now());
        const recorded = new Array<number>(this.state.players.length).fill(0);
        for (const t of this.state.turns)
          if (t.kind === 'time-penalty') recorded[t.player] = (recorded[t.player] ?? 0) - t.points;
        const penalties = overtimePenalties(this.state.rules, used).flatMap((points, player) => {
          const more = points - (recorded[player] ?? 0);
          return more > 0 ? [{ type: 'time-penalty' as const, player, points: more }] : [];
        });
        return this.commit([...penalties, { type: 'end', racks: action.racks }]);
      }
      case 'confirm': {
        const board = action.board ? parseBoard(action.board) : undefined;
        if (board && !board.ok) throw new ServiceError('bad-request', board.message);
        const chosen = board?.board ?? this.held.get(BOARD)?.board;
        if (!chosen) throw new ServiceError('not-allowed', 'there is no reading waiting for confirmation');
        const behind = this.held.get(BOARD)?.behind ?? [];
        // The frame of the reading held, if one is (a board typed with none held has no frame).
        const frame = this.held.get(BOARD) ? this.heldFrame : undefined;
        this.heldFrame = frame;
        const result = await this.commitBoard(chosen, 'held', true, true);
        if (result.status === 'committed') this.heldFrame = undefined;
        // The frame held showed the board as the turn ended, and so the rack of the player to move next as their turn
        // starts (no turn waits behind it: one would have been played since).
        if (result.status === 'committed' && frame && behind.length === 0)
          this.lookForRack(frame, Date.now(), false);
        // Held again (the confirmed board is no move either): the turns behind it still wait.
        return result.status === 'committed' ? this.decideBehind(behind, result) : result;
      }
      case 'dismiss': {
        // The reading was no move of the game (a board being set up, names laid out): it goes, and the turns that
        // waited behind it are decided in order.
        const held = this.held.get(BOARD);
        if (!held) throw new ServiceError('not-allowed', 'there is no reading waiting for confirmation');
        await this.held.drop(BOARD);
        this.heldFrame = undefined;
        this.notify();
        return this.decideBehind(held.behind ?? [], {
          status: 'unchanged',
          reasons: ['the reading was let go'],
        });
      }
      case 'correct':
        return this.correctSquare(action.row, action.col, action.tile);
      case 'name-blank':
        return this.correctSquare(action.row, action.col, action.letter.toLowerCase(), true);
      case 'rack':
        return this.keepRack(action.turn, action.rack);
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
  private async correctSquare(
    row: number,
    col: number,
    tile: string,
    blankOnly = false,
  ): Promise<FrameResult> {
    if (this.held.get(BOARD) && !blankOnly) {
      const fixed = await this.held.correct(BOARD, row, col, tile);
      this.notify();
      return { status: 'needs-confirmation', reasons: fixed.reasons };
    }
    const index = this.playAt(row, col);
    if (index === undefined)
      throw new ServiceError('not-allowed', `no committed play put a tile on ${squareName({ row, col })}`);
    // The play as it now stands: a rack kept with it, or a square fixed before, stays.
    const play = this.effective().find((e) => e.index === index)!.event as Extract<
      GameEvent,
      { type: 'play' }
    >;
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

  /**
   * Keeps `rack` with move `turn` (1-based: plays, passes and exchanges, as the analysis numbers them): its event
   * corrected in place with the rack ('' takes it away). A rack no player can hold is refused; one that does not hold
   * the tiles played is kept, and the analysis says so (`rackHolds`).
   */
  private async keepRack(turn: number, rack: string): Promise<FrameResult> {
    const { move, event } = this.move(turn);
    if (!event)
      throw new ServiceError('not-allowed', `move ${turn} was a turn lost to a challenge: it has no rack`);
    // Recorded as any correction is, it would settle a reading waiting for the scorekeeper and end a wait for a clear
    // frame: the rack waits for them instead.
    if (this.held.get(BOARD) || this.handWait.has(0))
      throw new ServiceError(
        'not-allowed',
        'a reading waits for you (or the camera for a clear frame): settle it first, then keep the rack',
      );
    const refused = rackRefusal(this.state.rules, rack);
    if (refused) throw new ServiceError('bad-request', refused);
    if ((event.rack ?? '') === rack) return { status: 'unchanged', reasons: ['that rack is kept already'] };
    const { rack: _old, ...rest } = event;
    return this.commit([{ type: 'correction', target: move.event, event: rack ? { ...rest, rack } : rest }]);
  }

  racksLeft(): (string | null)[] {
    return racksLeft(this.state);
  }

  keptRack(turn: number): string | undefined {
    return recordedRack(this.move(turn).event);
  }

  /** Move `turn` (1-based: plays, passes and exchanges) and its event as it now stands (none for a lost turn). */
  private move(turn: number) {
    const moves = this.state.turns.filter((t) => MOVE_KINDS.has(t.kind));
    const move = moves[turn - 1];
    if (!move) throw new ServiceError('bad-request', `the game has ${moves.length} moves, not ${turn}`);
    // A lost turn's is the challenge's (or, after a replay, another) event: it has no rack of its own.
    const event =
      move.kind === 'lost-turn' ? undefined : this.effective().find((e) => e.index === move.event)?.event;
    const moveEvent =
      event?.type === 'play' || event?.type === 'pass' || event?.type === 'exchange' ? event : undefined;
    return { move, event: moveEvent };
  }

  private lastEffectiveEvent(): number | undefined {
    return this.effective().at(-1)?.index;
  }

  private effective(): { event: GameEvent; index: number }[] {
    return effectiveEvents(this.state.events);
  }

  /** Tells the viewers, after the current request has been answered (the audience never slows a commit). */
  private notify(): void {
    this.viewers.changed();
    void this.reveal();
  }
}

/**
 * How many tiles of earlier moves a photo must show otherwise, with confidence, to be held (fewer are a notice to the
 * scorekeeper: one tile knocked, or one misread, is no reason to stop the game); with the last move's tiles gone as
 * well, one is enough (a withdrawal takes the last move's tiles only).
 */
const DISTURBED_HOLD = 3;

/** The squares empty on `committed` that hold a tile on `board`, as `row,col`. */
function newSquares(committed: Board, board: Board): Set<string> {
  const out = new Set<string>();
  for (let i = 0; i < committed.cells.length; i++)
    if (committed.cells[i] === EMPTY && board.cells[i] !== EMPTY)
      out.add(`${Math.floor(i / committed.size)},${i % committed.size}`);
  return out;
}

/** The score sheet's lines that are moves, as GCG writes them (a turn lost to a challenge is a pass there). */
const MOVE_KINDS: ReadonlySet<string> = new Set(['play', 'pass', 'exchange', 'lost-turn']);

/** Whether `correction` changes only the rack kept with its target (the board and the scores stay). */
function rackOnly(
  events: readonly GameEvent[],
  correction: Extract<GameEvent, { type: 'correction' }>,
): boolean {
  const target = effectiveEvents(events).find((e) => e.index === correction.target)?.event;
  if (!target || !correction.event) return false;
  const strip = (e: GameEvent) => JSON.stringify({ ...e, rack: undefined });
  return strip(target) === strip(correction.event);
}

/** Why no player can hold `rack` under `rules` (a tile the set lacks, too many tiles, more of a tile than the set
 *  has), or undefined when one can. */
function rackRefusal(rules: GameState['rules'], rack: string): string | undefined {
  const odd = [...rack].find((t) => t !== '?' && !hasLetter(rules.tileSet, t));
  if (odd) return `the ${rules.tileSet.name} set has no tile ${odd}`;
  if ([...rack].length > rules.rackSize)
    return `a rack holds at most ${rules.rackSize} tiles, not ${[...rack].length}`;
  const over = unseenTiles(rules.tileSet, emptyBoard(rules.layout), { rack }).overdrawn;
  if (over.length > 0) return `the ${rules.tileSet.name} set has fewer ${over.join(', ')} than that rack`;
  return undefined;
}
