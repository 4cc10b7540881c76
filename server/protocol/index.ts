/**
 * The wire protocol shared by the server and web/: every WebSocket message is `{ type, seq, data }`. The server
 * sends a full snapshot on connect and after every change (snapshots are small), with `seq` counting up per
 * connection so a client can see a gap; a heartbeat every few seconds. The views and replies are declared here, the requests
 * (with their validation) in requests.ts. Pure: no Node or DOM APIs.
 */

import type {
  AnalyzedTurn,
  Cause,
  Explanation,
  GameEvent,
  MeEvent,
  MeRoundRecord,
  MeRoundWord,
} from '../engine/index.ts';

export interface PlayerView {
  readonly name: string;
  readonly score: number;
}

export interface WordView {
  readonly word: string;
  readonly score: number;
  readonly wordMultiplier: number;
  /** Letters with their premium under a tile placed this turn (2 or 3), for showing the premiums. */
  readonly premiums: readonly { readonly tile: string; readonly letterMultiplier: number }[];
  /** Not in the game's lexicon: flagged for the players, never rejected. */
  readonly unknown: boolean;
}

export interface TurnView {
  readonly player: number;
  readonly kind: string;
  readonly points: number;
  readonly cumulative: number;
  readonly position?: string;
  readonly words?: readonly WordView[];
  readonly bingo?: number;
  /** How a move read by the camera was decided (absent for what the scorekeeper entered by hand). */
  readonly decided?: Decision;
}

/**
 * How a move was decided: `read` with certainty; `context`, some squares the camera was unsure of decided by the
 * game's context (the legal move, the tile counts, the lexicon): each with the readings weighed and the share of
 * weight the one taken carried; `confirmed` by the scorekeeper, after the camera held it.
 */
export interface Decision {
  readonly how: 'read' | 'context' | 'confirmed';
  readonly squares?: readonly {
    readonly row: number;
    readonly col: number;
    readonly tile: string;
    readonly options: readonly { readonly tile: string; readonly p: number }[];
    readonly share: number;
  }[];
}

export interface PendingView {
  /** What the camera read, board text. */
  readonly board: readonly string[];
  readonly reasons: readonly string[];
  /** Squares in doubt, 0-based. */
  readonly squares: readonly { readonly row: number; readonly col: number }[];
  /** URL of the photo behind it. */
  readonly photo: string;
  /**
   * Where the board is in that photo and what the camera saw on the squares in doubt, for showing each of them
   * zoomed with its likeliest readings: the grid's corners in the photo's pixels (upright board: top-left,
   * top-right, bottom-right, bottom-left), and per unsure square its readings with the model's shares.
   */
  readonly look?: Look;
  /** Turns ended since, waiting behind this one: decided in order once it is confirmed or taken back. */
  readonly waiting: number;
  /** What the reading would score if confirmed as it stands, when it is one legal play. */
  readonly preview?: {
    /** GCG position of the main word: `8H` across, `H8` down. */
    readonly position: string;
    readonly points: number;
    /** The total as a sentence: `QUIZ 69 + ZA 22 + bingo 50 = 141` (`69` for one word). */
    readonly sentence: string;
    /** One sentence per word formed: `QUIZ: Q 10 × 3 (triple letter 8D) + … = 69`. */
    readonly words: readonly string[];
  };
}

export interface Look {
  readonly corners: readonly (readonly [number, number])[];
  readonly squares: readonly {
    readonly row: number;
    readonly col: number;
    readonly options: readonly { readonly tile: string; readonly p: number }[];
  }[];
}

/** A camera stream the server pulls into the game (a phone's MJPEG app), as the scorekeeper's page shows it. */
export interface SourceView {
  /** The seat of the camera (0 in a classic game). */
  readonly camera: number;
  /** The stream's host (never its path or credentials: viewers see this too). */
  readonly host: string;
  readonly state: 'pulling' | 'stopped';
  /** When it failed: in the snapshot only "the camera stream stopped"; why, in `GET …/source` with the token. */
  readonly error: string | null;
}

export interface GameSnapshot {
  readonly id: string;
  /** The number of events stored so far: an End turn sent with an older version is refused as stale. */
  readonly version: number;
  readonly variant: 'classic' | 'nine-tile' | 'finish-line' | 'uk';
  readonly players: readonly PlayerView[];
  readonly toMove: number;
  readonly board: readonly string[];
  /** Squares of the last play on the board. */
  readonly lastMove: readonly { readonly row: number; readonly col: number }[];
  readonly turns: readonly TurnView[];
  readonly unseen: {
    readonly tiles: Readonly<Record<string, number>>;
    readonly total: number;
    readonly vowels: number;
    readonly consonants: number;
    readonly blanks: number;
    readonly bag: number;
  };
  readonly pending: PendingView | null;
  /**
   * Squares of earlier moves the camera has read confidently as something else in two frames running: the board
   * may have been knocked. A notice for the scorekeeper to look; it never holds a move.
   */
  readonly disturbed: readonly { readonly row: number; readonly col: number }[];
  readonly ended: { readonly reason: string; readonly winners: readonly number[] } | null;
  readonly capture: 'auto' | 'button';
  readonly lang: string;
  readonly sources: readonly SourceView[];
  /** The turn clock: each player's time used, from when each turn ended (see ClockView). */
  readonly clock: ClockView;
  /**
   * With the game's `rackDelay`: the newest move at least that many moves old whose rack the scorekeeper kept, with
   * its rack and the best play of it (null while there is none). Absent without a delay: racks stay private.
   */
  readonly revealed?: RevealedMove | null;
}

/** A move shown with its rack after the game's rack delay (GameSnapshot.revealed). */
export interface RevealedMove {
  /** 1-based, over plays, passes and exchanges (as the analysis numbers them). */
  readonly turn: number;
  readonly player: string;
  readonly rack: string;
  readonly played: { readonly position: string; readonly word: string; readonly score: number };
  /** The best play of the rack by equity (null: none generated). */
  readonly best: { readonly position: string; readonly word: string; readonly score: number } | null;
  /** The equity the move gave up against the best; null when it was not among the rack's plays. */
  readonly equityLost: number | null;
}

/**
 * Each player's time used: the time between one recorded event and the next belongs to the player whose turn it was
 * (a challenge's time is the challenger's, as on a chess clock). A viewer adds its own clock's now − `since` to the
 * player `toMove` while `running` (a snapshot changes only when the game does).
 */
export interface ClockView {
  /** When the game was created (ISO 8601). */
  readonly started: string;
  /** When the last event was recorded, or the game created: the running turn's start. */
  readonly since: string;
  /** Milliseconds used per player, up to `since`. */
  readonly used: readonly number[];
  /** Whether a turn is running (the game is live). */
  readonly running: boolean;
  /**
   * The game clock, when the game has one: each player's minutes for the whole game, and the points each minute
   * over it (or part of one) costs at the end.
   */
  readonly limit?: { readonly minutes: number; readonly pointsPerMinute: number };
}

/** A word of a Scrabble Me round, as the engine derives it (main word, every word formed, score, withdrawn). */
export type MeWordView = MeRoundWord;

/** A Scrabble Me round's words, and the last round's bonus word once built (score 0 when there was none). */
export type MeRoundView = MeRoundRecord;

/** A Scrabble Me game (rule book 003): a board per player, rounds built at the same time. */
export interface MeSnapshot {
  readonly id: string;
  /** The number of events stored so far: an End turn sent with an older version is refused as stale. */
  readonly version: number;
  readonly variant: 'scrabble-me';
  /** Each player's total, the board they hold now, and whether they sit out this round. */
  readonly players: readonly (PlayerView & { readonly board: number; readonly sittingOut: boolean })[];
  readonly boards: readonly {
    readonly board: readonly string[];
    /** Seat of the player holding it. */
    readonly holder: number;
    /** Squares of the word built on it in the round being shown. */
    readonly lastWord: readonly { readonly row: number; readonly col: number }[];
    /** Its turn has ended in the round being built. */
    readonly ended: boolean;
    readonly pending: PendingView | null;
    /** How its last accepted reading was decided: read with certainty, by context (which squares), or confirmed. */
    readonly decided: Decision | null;
  }[];
  /** build: words being built; scored: challenges and blank swaps; refill; podium; bonus; ended. */
  readonly phase: 'build' | 'scored' | 'refill' | 'podium' | 'bonus' | 'ended';
  readonly round: number;
  readonly lastRound: boolean;
  readonly rounds: readonly MeRoundView[];
  /** Players still to swap boards, in order. */
  readonly swaps: readonly number[];
  /** Refill picks still to come, one entry per tile, next first. */
  readonly picks: readonly number[];
  /** The round's lowest scorer, who picks first. */
  readonly firstPick: number | null;
  readonly podium: readonly string[];
  readonly bag: number;
  readonly bonusPlayer: number | null;
  readonly ended: { readonly reason: string; readonly winners: readonly number[] } | null;
  readonly capture: 'auto' | 'button';
  readonly lang: string;
  readonly sources: readonly SourceView[];
}

export type Snapshot = GameSnapshot | MeSnapshot;

export type ServerMessage =
  | { readonly type: 'snapshot'; readonly seq: number; readonly data: Snapshot }
  /** The latest camera frame, small, and where the grid was found in it (the frame's own pixels), if it was. */
  | {
      readonly type: 'thumbnail';
      readonly seq: number;
      readonly data: {
        /** The picture, base64; absent for a connection that asked for the grid only (`camera-view` with
         *  `pictures: false`: the camera page, which shows its own live view). */
        readonly jpeg?: string;
        readonly width: number;
        readonly height: number;
        readonly corners: readonly (readonly [number, number])[] | null;
        /** Scrabble Me: the seat of the camera it came from. */
        readonly camera?: number;
      };
    }
  | { readonly type: 'heartbeat'; readonly seq: number; readonly data: { readonly at: number } }
  | {
      readonly type: 'error';
      readonly seq: number;
      readonly data: { readonly code: string; readonly message: string };
    };

/** How a camera frame or a scorekeeper's action ended (`POST …/frames`, `POST …/actions` with the snapshot). */
export interface FrameResult {
  /**
   * `committed`: recorded; `unchanged`: nothing new (or the very frame that just ended a turn, sent again);
   * `waiting`: auto capture waits for the board to settle, or a frame only fed the views; `needs-confirmation`:
   * held for the scorekeeper; `ended-turn`: a Scrabble Me board's turn ended, the round waits for the others;
   * `skipped`: a newer frame of the same camera arrived before this one was read, and was read instead, or a rack
   * camera's frame came when no look at the rack was due; `looking`: a rack camera's frame is being looked at for its
   * player's rack (in the background).
   */
  readonly status:
    | 'committed'
    | 'unchanged'
    | 'waiting'
    | 'needs-confirmation'
    | 'ended-turn'
    | 'skipped'
    | 'looking';
  /** What was recorded last. */
  readonly event?: GameEvent | MeEvent;
  /** Scrabble Me: the board the frame showed. */
  readonly board?: number;
  readonly reasons?: readonly string[];
}

/** Every failure the API answers: a stable code and a message for people. */
export interface ErrorEnvelope {
  readonly error: { readonly code: string; readonly message: string };
}

/** `POST /api/games` answers the new game's id and its scorekeeper token (shown once, never stored in clear). */
export interface CreatedGame {
  readonly id: string;
  readonly token: string;
}

/** `GET /api/games`: a page of games, newest first; `next` (when more) continues it as `after`. */
export interface GameList {
  readonly games: readonly {
    readonly id: string;
    readonly players: readonly string[];
    readonly variant: string;
    readonly createdAt: string;
    readonly ended: boolean;
  }[];
  readonly next: string | null;
}

/** A square the photos leave in doubt, with what each of its likeliest readings would make the move score. */
export interface UnsureSquare {
  readonly row: number;
  readonly col: number;
  /** `8H`. */
  readonly square: string;
  /** Which photo is unclear there. */
  readonly photo: 'before' | 'after';
  readonly readings: readonly {
    readonly tile: string;
    readonly p: number;
    /** The move's score with this reading; null when it would make no legal move (or, for an announced move, the
     *  board would not show it). */
    readonly points: number | null;
  }[];
}

/**
 * A score checked (`tilecam verify`, `POST /api/checks`, a live game's move): the move, every point explained, and
 * the verdict on the claimed score. `unsure`: the photos cannot settle it (`message` says why; `unsure` lists the
 * squares in doubt, when that is the reason).
 */
export interface Verification {
  readonly move: Explanation['move'] | null;
  readonly words: Explanation['words'];
  readonly bingo: number;
  readonly points: number | null;
  readonly sentence: string | null;
  readonly claimed: number | null;
  readonly verdict: 'right' | 'wrong' | 'unsure';
  /** The likeliest cause of a wrong claim, when one common slip explains the difference exactly. */
  readonly cause: string | null;
  readonly causes: readonly Cause[];
  readonly unsure: readonly UnsureSquare[];
  /** One line for people: the verdict and why. */
  readonly message: string;
  /** The boards as read (board text, 15 rows), when there were boards to read. */
  readonly boards: { readonly before: readonly string[] | null; readonly after: readonly string[] } | null;
}

/** A score checked from photos and kept: `POST /api/checks`, `GET /api/checks/:id`. */
export interface CheckView {
  readonly id: string;
  readonly createdAt: string;
  readonly lang: 'en' | 'de';
  readonly verification: Verification;
  /** Where the photos are served. */
  readonly photos: { readonly before: string | null; readonly after: string };
  /** The permalink page and the PNG card. */
  readonly links: { readonly page: string; readonly card: string };
}

/** A move against the best plays of its rack: `POST /api/games/:id/analysis` (the scorekeeper's), and the lexicon used. */
export type { AnalyzedTurn };
export type AnalysisView = AnalyzedTurn & { readonly lexicon: string };

/** A whole game against the best plays, for its scorekeeper: `GET /api/games/:id/analysis`. Only the moves whose rack
 *  was kept (the `rack` action) are ranked; the others have `rack: null` and no `best`. */
export interface GameAnalysis {
  readonly lexicon: string;
  readonly turns: readonly AnalyzedTurn[];
  /** Per player, in seat order: their moves, how many of them were ranked, and the equity those gave up. */
  readonly players: readonly {
    readonly name: string;
    readonly moves: number;
    readonly ranked: number;
    readonly equityLost: number;
  }[];
}

/** A live game's move explained: `GET /api/games/:id/turns/:n/check`. */
export interface TurnCheck {
  readonly verification: Verification;
  readonly game: { readonly id: string; readonly players: readonly string[] };
  readonly turn: number;
  readonly player: string;
}

/** A GCG record rescored: `POST /api/checks/gcg`; `first`: the first turn whose recorded score is wrong, explained. */
export interface GcgCheck {
  readonly players: readonly { readonly name: string; readonly score: number }[];
  readonly turns: number;
  readonly mismatches: readonly {
    readonly line: number;
    readonly recorded: number;
    readonly computed: number;
    readonly field: 'score' | 'total';
    readonly turn: number;
  }[];
  readonly first: {
    readonly line: number;
    readonly turn: number;
    readonly player: string;
    readonly recorded: number;
    readonly computed: number;
    /** Null when the line is no play (an end-of-game rack, a penalty): nothing to explain word by word. */
    readonly verification: Verification | null;
  } | null;
}

export * from './requests.ts';
