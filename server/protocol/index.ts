/**
 * The wire protocol shared by the server and web/: every WebSocket message is `{ type, seq, data }`. The server
 * sends a full snapshot on connect and after every change (snapshots are small), with `seq` counting up per game so
 * a client can see a gap; a heartbeat every few seconds. Pure types and a validator: no Node or DOM APIs.
 */

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
}

export interface PendingView {
  /** What the camera read, board text. */
  readonly board: readonly string[];
  readonly reasons: readonly string[];
  /** Squares in doubt, 0-based. */
  readonly squares: readonly { readonly row: number; readonly col: number }[];
  /** URL of the photo behind it. */
  readonly photo: string;
}

/** A camera stream the server pulls into the game (a phone's MJPEG app), as the scorekeeper's page shows it. */
export interface SourceView {
  /** The seat of the camera (0 in a classic game). */
  readonly camera: number;
  /** The stream's host (never its path or credentials: viewers see this too). */
  readonly host: string;
  readonly state: 'pulling' | 'stopped';
  /** Why it stopped, when it failed. */
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
  readonly ended: { readonly reason: string; readonly winners: readonly number[] } | null;
  readonly capture: 'auto' | 'button';
  readonly lang: string;
  readonly sources: readonly SourceView[];
}

/** A word of a Scrabble Me round. */
export interface MeWordView {
  readonly player: number;
  readonly board: number;
  /** The main word; `words` lists every word formed with its score. */
  readonly word: string;
  readonly words: readonly { readonly word: string; readonly score: number }[];
  readonly score: number;
  /** Challenged off the board: scores nothing. */
  readonly withdrawn: boolean;
}

export interface MeRoundView {
  readonly round: number;
  readonly words: readonly MeWordView[];
  /** The last round's bonus word, once built (score 0 when there was none). */
  readonly bonus: { readonly player: number; readonly score: number } | null;
}

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
        readonly jpeg: string;
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

/**
 * What a browser may send: a resync request; a request for the camera pictures (thumbnails), with the
 * scorekeeper's token, since a camera over the table may see more than the board; or a camera frame (base64 JPEG)
 * with the token.
 */
export type ClientMessage =
  | { readonly type: 'resync' }
  | { readonly type: 'camera-view'; readonly data: { readonly token: string } }
  | {
      readonly type: 'frame';
      readonly data: {
        readonly token: string;
        readonly jpeg: string;
        readonly endTurn?: boolean;
        /** Scrabble Me: the seat of the camera (default 0). */
        readonly camera?: number;
        /** The game version the End turn was pressed at: refused as stale if the game has moved on. */
        readonly version?: number;
      };
    };

/** Validates a message from a client; anything else is an error value naming what was wrong. */
export function parseClientMessage(
  text: string,
): { ok: true; message: ClientMessage } | { ok: false; message: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, message: 'not JSON' };
  }
  if (typeof value !== 'object' || value === null) return { ok: false, message: 'expected an object' };
  const m = value as { type?: unknown; data?: unknown };
  if (m.type === 'resync') return { ok: true, message: { type: 'resync' } };
  if (m.type === 'camera-view') {
    const token = (m.data as { token?: unknown } | undefined)?.token;
    if (typeof token !== 'string') return { ok: false, message: 'camera-view needs data.token' };
    return { ok: true, message: { type: 'camera-view', data: { token } } };
  }
  if (m.type === 'frame') {
    const d = m.data as
      | { token?: unknown; jpeg?: unknown; endTurn?: unknown; camera?: unknown; version?: unknown }
      | undefined;
    if (!d || typeof d.token !== 'string' || typeof d.jpeg !== 'string') {
      return { ok: false, message: 'a frame needs data.token and data.jpeg (base64)' };
    }
    if (d.endTurn !== undefined && typeof d.endTurn !== 'boolean')
      return { ok: false, message: 'data.endTurn must be a boolean' };
    if (d.camera !== undefined && !(Number.isInteger(d.camera) && (d.camera as number) >= 0))
      return { ok: false, message: 'data.camera must be a seat number' };
    if (d.version !== undefined && !(Number.isInteger(d.version) && (d.version as number) >= 0))
      return { ok: false, message: 'data.version must be a whole number of events' };
    return {
      ok: true,
      message: {
        type: 'frame',
        data: {
          token: d.token,
          jpeg: d.jpeg,
          ...(d.endTurn ? { endTurn: true } : {}),
          ...(d.camera === undefined ? {} : { camera: d.camera as number }),
          ...(d.version === undefined ? {} : { version: d.version as number }),
        },
      },
    };
  }
  return { ok: false, message: `unknown message type ${JSON.stringify(m.type)}` };
}
