/**
 * Every request a client may make, declared once as a schema (zod): the server validates at its edge from these
 * declarations, the types below are inferred from them, and web/ imports the types, so a page cannot send what
 * the server does not accept. Pure: no Node or DOM APIs.
 */
import { z } from 'zod';
import { challengeRules, finishLineLevels, tileSets, variants } from '../engine/index.ts';

/** The languages the camera reads (its model knows these sets' letters). */
export const cameraLanguages = ['en', 'de'] as const;
/** Every kind of game: the variants on one board, and Scrabble Me (a board per player). */
export const gameVariants = [...variants, 'scrabble-me'] as const;
export const captureModes = ['auto', 'button'] as const;
export const lexicons = ['default-en', 'none'] as const;

/**
 * Text a person typed that is shown, written into files (GCG, text fields) and sent in headers: one line, no
 * control characters (Unicode's Cc: newlines, tabs, NUL, escapes), no line or paragraph separators, and none of
 * the bidirectional controls that make a name read backwards (emoji joiners are kept: a family's names may be 👩‍👧).
 */
export const ONE_LINE = /^[^\p{Cc}\p{Zl}\p{Zp}\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]*$/u;

const oneOf = <T extends readonly [string, ...string[]]>(values: T, name: string) =>
  z.enum(values, { error: `${name} must be one of ${values.join(', ')}` });

/** `POST /api/games`: a new game. */
export const gameConfigSchema = z
  .object(
    {
      players: z
        .array(
          z
            .string({ error: 'each player needs a name of 1 to 40 characters' })
            .trim()
            .min(1, { error: 'each player needs a name of 1 to 40 characters' })
            .max(40, { error: 'each player needs a name of 1 to 40 characters' })
            .regex(ONE_LINE, { error: "a player's name cannot hold line breaks or control characters" }),
          { error: 'players must be 2 to 4 names' },
        )
        .min(2, { error: 'players must be 2 to 4 names' })
        .max(4, { error: 'players must be 2 to 4 names' }),
      lang: oneOf(cameraLanguages, 'lang').default('en'),
      variant: oneOf(gameVariants, 'variant').default('classic'),
      /** Finish Line: each player's level, in seat order. */
      levels: z.array(oneOf(finishLineLevels, 'each level')).optional(),
      /** Scrabble Me: the prize podium's first tiles, face up, three per player. */
      podium: z.string().optional(),
      challengeRule: oneOf(challengeRules, 'challengeRule').default('double'),
      capture: oneOf(captureModes, 'capture').default('button'),
      lexicon: oneOf(lexicons, 'lexicon').optional(),
      /** The event (a tournament, a club night) the game belongs to: its games are shown together at /hall. */
      event: z
        .string({ error: 'event must be a name of 1 to 60 characters' })
        .trim()
        .min(1, { error: 'event must be a name of 1 to 60 characters' })
        .max(60, { error: 'event must be a name of 1 to 60 characters' })
        .regex(ONE_LINE, { error: 'an event name cannot hold line breaks or control characters' })
        .optional(),
      /**
       * Racks and best plays on the scoreboard, the overlay and the broadcast fields, this many moves after the move
       * (absent: never; racks stay the scorekeeper's). A stream's delay: the move being played is never shown.
       */
      rackDelay: z
        .number({ error: 'rackDelay must be a whole number of moves from 1 to 20' })
        .int({ error: 'rackDelay must be a whole number of moves from 1 to 20' })
        .min(1, { error: 'rackDelay must be a whole number of moves from 1 to 20' })
        .max(20, { error: 'rackDelay must be a whole number of moves from 1 to 20' })
        .optional(),
      /**
       * The player (0-based, in the order of `players`) at whose place the camera stands, the rack in its
       * foreground: their rack is read as each of their turns starts and kept with their move (absent: none).
       */
      rackCamera: z
        .number({ error: 'rackCamera must be a player: 0 for the first, 1 for the second, …' })
        .int({ error: 'rackCamera must be a player: 0 for the first, 1 for the second, …' })
        .min(0, { error: 'rackCamera must be a player: 0 for the first, 1 for the second, …' })
        .max(3, { error: 'rackCamera must be a player: 0 for the first, 1 for the second, …' })
        .optional(),
      /** A game clock: minutes per player for the whole game (overtime costs 10 points a minute at the end). */
      clockMinutes: z
        .number({ error: 'clockMinutes must be a whole number of minutes from 1 to 180' })
        .int({ error: 'clockMinutes must be a whole number of minutes from 1 to 180' })
        .min(1, { error: 'clockMinutes must be a whole number of minutes from 1 to 180' })
        .max(180, { error: 'clockMinutes must be a whole number of minutes from 1 to 180' })
        .optional(),
    },
    { error: 'expected a JSON object' },
  )
  .superRefine((c, ctx) => {
    if (c.variant === 'scrabble-me' && c.capture === 'auto')
      ctx.addIssue({
        code: 'custom',
        message: 'Scrabble Me reads a board when its player ends the turn: capture must be button',
      });
    if (c.variant === 'scrabble-me' && c.clockMinutes !== undefined)
      ctx.addIssue({
        code: 'custom',
        message:
          'Scrabble Me builds its rounds at the same time: it has no game clock (leave out clockMinutes)',
      });
    if (c.variant === 'scrabble-me' && c.rackDelay !== undefined)
      ctx.addIssue({
        code: 'custom',
        message: 'racks are kept for games on one board, not Scrabble Me (leave out rackDelay)',
      });
    // Fewer moves than players would show the rack of the player now on move, before their next turn.
    if (c.rackDelay !== undefined && c.rackDelay < c.players.length)
      ctx.addIssue({
        code: 'custom',
        message: `rackDelay must be at least the number of players (${c.players.length}): a rack is shown only after its player's next turn`,
      });
    // The analysis replays a record with seven-tile racks.
    if (c.variant === 'nine-tile' && c.rackDelay !== undefined)
      ctx.addIssue({
        code: 'custom',
        message: 'best plays are worked out for seven-tile racks: leave out rackDelay',
      });
    if (c.rackCamera !== undefined && c.rackCamera >= c.players.length)
      ctx.addIssue({
        code: 'custom',
        message: `rackCamera must be one of the ${c.players.length} players (0 to ${c.players.length - 1})`,
      });
    if (c.variant === 'scrabble-me' && c.rackCamera !== undefined)
      ctx.addIssue({
        code: 'custom',
        message: 'racks are kept for games on one board, not Scrabble Me (leave out rackCamera)',
      });
    if (c.levels !== undefined && c.levels.length !== c.players.length)
      ctx.addIssue({ code: 'custom', message: 'levels must give one Finish Line level per player' });
    if (c.variant === 'scrabble-me') {
      const letters = new Set(tileSets[c.lang].letters.map(([l]) => l));
      const tiles = [...(c.podium ?? '').toUpperCase()];
      if (tiles.length !== 3 * c.players.length || !tiles.every((t) => t === '?' || letters.has(t)))
        ctx.addIssue({
          code: 'custom',
          message: `podium must be the ${3 * c.players.length} tiles face up on the prize podium (3 per player), e.g. "EAT…"`,
        });
    }
  })
  .transform(({ podium, levels, lexicon, ...c }) => ({
    ...c,
    ...(c.variant === 'scrabble-me' ? { podium: (podium ?? '').toUpperCase() } : {}),
    ...(levels === undefined ? {} : { levels }),
    ...(lexicon === undefined ? {} : { lexicon }),
  }));

/** A game's configuration as the server keeps it. */
export type GameConfig = z.output<typeof gameConfigSchema>;
/** What a page may post to create a game. */
export type GameConfigInput = z.input<typeof gameConfigSchema>;

const coordinate = z
  .int({ error: 'row and col must be whole numbers from 0 to 14' })
  .min(0, { error: 'row and col must be whole numbers from 0 to 14' })
  .max(14, { error: 'row and col must be whole numbers from 0 to 14' });
const square = { row: coordinate, col: coordinate };
const tile = z.string().regex(/^[\p{L}?.]$/u, { error: 'tile must be one letter, ? or .' });
const boardText = (name: string) => z.array(z.string(), { error: `${name} must be 15 strings` });

/** The game version a request was made against: an older one makes the request stale (nothing is recorded). */
export const versionSchema = z.int({ error: 'version must be a whole number of events' }).min(0, {
  error: 'version must be a whole number of events',
});

const classicActions = [
  z.object({ type: z.literal('pass') }),
  z.object({ type: z.literal('undo') }),
  /** End the turn with the latest camera frame (a stream pulled by the server, or the last frame received). */
  z.object({ type: z.literal('end-turn') }),
  z.object({
    type: z.literal('exchange'),
    tiles: z
      .string()
      .regex(/^[\p{L}?]{1,9}$/u, { error: 'tiles must be letters' })
      .optional(),
    count: z
      .int({ error: 'count must be 1 to 9' })
      .min(1, { error: 'count must be 1 to 9' })
      .max(9, {
        error: 'count must be 1 to 9',
      })
      .optional(),
  }),
  z.object({
    type: z.literal('challenge'),
    player: z.int({ error: 'a challenge needs player (seat) and acceptable (true/false)' }),
    acceptable: z.boolean({ error: 'a challenge needs player (seat) and acceptable (true/false)' }),
  }),
  /** Accept the reading held for confirmation, or the corrected board given. */
  z.object({ type: z.literal('confirm'), board: boardText('board').optional() }),
  /** Let the reading held for confirmation go: it was no move of the game (the turns waiting behind it go on). */
  z.object({ type: z.literal('dismiss') }),
  /** Fix one square of the held reading, or of the committed play that put a tile there. */
  z.object({ type: z.literal('correct'), ...square, tile }),
  z.object({
    type: z.literal('name-blank'),
    ...square,
    letter: z.string().regex(/^\p{L}$/u, { error: 'letter must be one letter' }),
  }),
  /** Keep the rack move `turn` was played from (1-based: plays, passes and exchanges), as the player says it was;
   *  '' takes it away. The scorekeeper's only, unless the game's rackDelay shows it later. */
  z.object({
    type: z.literal('rack'),
    turn: z.int({ error: 'turn must be the number of a move of the game' }).min(1).max(1000),
    rack: z
      .string({ error: 'rack must be the tiles held, ? for a blank' })
      .trim()
      .toUpperCase()
      .regex(/^[\p{Lu}?]{0,9}$/u, { error: 'rack must be up to 9 tiles: letters, ? for a blank' }),
  }),
  z.object({
    type: z.literal('end'),
    racks: z.array(z.string().regex(/^[\p{L}?]{0,9}$/u), {
      error: 'racks must be one string of letters per player',
    }),
  }),
] as const;

/** A scorekeeper's action in a game on one board (`POST /api/games/ID/actions`). */
export const actionSchema = z.discriminatedUnion('type', classicActions, {
  error: (issue) =>
    issue.code === 'invalid_union'
      ? `unknown action ${JSON.stringify((issue.input as { type?: unknown } | undefined)?.type)}: pass, exchange, challenge, confirm, correct, name-blank, undo, end-turn, rack or end`
      : 'expected a JSON object',
});
export type Action = z.output<typeof actionSchema>;
/** What a page may post as an action in a game on one board (with the game's `version`). */
export type ActionInput = z.input<typeof actionSchema> & { version?: number };

/** A scorekeeper's action in a Scrabble Me game of `players` players: seats are checked against the game. */
export function meActionSchema(players: number) {
  const seat = (name: string) =>
    z
      .int({ error: `${name} must be a seat from 0 to ${players - 1}` })
      .min(0, { error: `${name} must be a seat from 0 to ${players - 1}` })
      .max(players - 1, { error: `${name} must be a seat from 0 to ${players - 1}` });
  return z.discriminatedUnion(
    'type',
    [
      /** End the turn of the board a camera sees, with that camera's latest frame. */
      z.object({ type: z.literal('end-turn'), camera: seat('camera').default(0) }),
      /** Accept the reading held for a board (or the corrected board given) as that board's turn. */
      z.object({
        type: z.literal('confirm'),
        board: seat('board'),
        reading: boardText('reading').optional(),
      }),
      /** Fix one square of the reading held for a board, or a committed tile of it. */
      z.object({ type: z.literal('correct'), board: seat('board'), ...square, tile }),
      z.object({
        type: z.literal('challenge'),
        player: seat('player'),
        challenger: seat('challenger'),
        acceptable: z.boolean({ error: 'acceptable must be true or false' }),
      }),
      z.object({ type: z.literal('swap'), player: seat('player'), with: seat('with') }),
      /** Refill picks in the order the rules give: `bag`, or the letter taken from the podium. */
      z.object({
        type: z.literal('refill'),
        picks: z
          .array(z.string().regex(/^(bag|[\p{L}?])$/u), {
            error: 'picks must list each tile taken, in turn: "bag", or the podium letter taken',
          })
          .min(1, { error: 'picks must list each tile taken, in turn: "bag", or the podium letter taken' })
          .max(40, { error: 'picks must list each tile taken, in turn: "bag", or the podium letter taken' })
          .transform((picks) => picks.map((p) => (p === 'bag' ? p : p.toUpperCase()))),
      }),
      /** Tiles drawn from the bag onto the podium. */
      z.object({
        type: z.literal('podium'),
        letters: z
          .string()
          .regex(/^[\p{L}?]{0,12}$/u, { error: 'letters must be the tiles put on the podium' })
          .transform((l) => l.toUpperCase()),
      }),
      /** The bonus player builds no bonus word. */
      z.object({ type: z.literal('no-bonus') }),
      /** Takes back the last thing recorded (a round, a challenge, a swap, a pick…). */
      z.object({ type: z.literal('undo') }),
    ],
    {
      error: (issue) =>
        issue.code === 'invalid_union'
          ? `unknown action ${JSON.stringify((issue.input as { type?: unknown } | undefined)?.type)}: end-turn, confirm, correct, challenge, swap, refill, podium, no-bonus or undo`
          : 'expected a JSON object',
    },
  );
}
export type MeAction = z.output<ReturnType<typeof meActionSchema>>;
/** What a page may post as an action in a Scrabble Me game (with the game's `version`). */
export type MeActionInput = z.input<ReturnType<typeof meActionSchema>> & { version?: number };

/** `GET /api/games?limit=N&status=live|ended|archived&event=NAME&after=NEXT`: a page of games, newest first. */
export const listQuerySchema = z.object({
  limit: z
    .string()
    .regex(/^\d{1,3}$/, { error: 'limit must be a number from 1 to 100' })
    .transform(Number)
    .refine((n) => n >= 1 && n <= 100, { error: 'limit must be a number from 1 to 100' })
    .optional(),
  status: oneOf(['live', 'ended', 'archived'] as const, 'status').optional(),
  /** Only the games of this event. */
  event: z
    .string()
    .trim()
    .min(1, { error: 'event must be a name of 1 to 60 characters' })
    .max(60, { error: 'event must be a name of 1 to 60 characters' })
    .optional(),
  after: z.string().max(200, { error: 'after must be the next value of a previous page' }).optional(),
});
export type ListQuery = z.output<typeof listQuerySchema>;

/** `POST /api/games/ID/analysis` (the scorekeeper's): a turn of the game, and the rack it was played from. */
export const analysisRequestSchema = z.object(
  {
    turn: z.int({ error: 'turn must be the number of a move of the game' }).min(1).max(1000),
    rack: z
      .string({ error: 'rack must be the tiles held, ? for a blank' })
      .trim()
      .toUpperCase()
      .regex(/^[\p{Lu}?]{1,9}$/u, { error: 'rack must be 1 to 9 tiles: letters, ? for a blank' })
      .optional(),
  },
  { error: 'send { turn, rack }; without rack, the rack kept with the move' },
);

/** `POST /api/games/ID/source`: a camera's MJPEG stream for the server to pull. */
export const sourceRequestSchema = z.object(
  {
    url: z
      .string()
      .max(2048, { error: 'url may be at most 2048 characters' })
      .regex(/^https?:\/\/\S+$/, { error: 'url must be an http(s) address of an MJPEG stream' }),
    camera: z.int({ error: 'camera must be a seat number' }).min(0).max(99).default(0),
  },
  { error: 'url must be an http(s) address of an MJPEG stream' },
);

/**
 * What a browser may send over the WebSocket: a resync request; a request for the camera pictures (thumbnails),
 * with the scorekeeper's token, since a camera over the table may see more than the board (`pictures: false`: only
 * where the grid was found in each frame, for a page that shows its own live view); or a camera frame (base64
 * JPEG) with the token.
 */
export const clientMessageSchema = z.discriminatedUnion(
  'type',
  [
    z.object({ type: z.literal('resync') }),
    z.object({
      type: z.literal('camera-view'),
      data: z.object(
        {
          token: z.string({ error: 'camera-view needs data.token' }),
          pictures: z.boolean({ error: 'camera-view: data.pictures is true or false' }).optional(),
        },
        { error: 'camera-view needs data.token' },
      ),
    }),
    z.object({
      type: z.literal('frame'),
      data: z.object(
        {
          token: z.string({ error: 'a frame needs data.token and data.jpeg (base64)' }),
          jpeg: z.string({ error: 'a frame needs data.token and data.jpeg (base64)' }),
          endTurn: z.boolean({ error: 'data.endTurn must be a boolean' }).optional(),
          /** Scrabble Me: the seat of the camera (default 0). */
          camera: z
            .int({ error: 'data.camera must be a seat number' })
            .min(0, {
              error: 'data.camera must be a seat number',
            })
            .optional(),
          /** The game version the End turn was pressed at: refused as stale if the game has moved on. */
          version: versionSchema.optional(),
          /**
           * A rack camera's frame: the player (0-based) at whose place it stands. It is looked at for their rack
           * only, never read as the board.
           */
          rack: z
            .int({ error: 'data.rack must be a player: 0 for the first, 1 for the second, …' })
            .min(0, { error: 'data.rack must be a player: 0 for the first, 1 for the second, …' })
            .max(3, { error: 'data.rack must be a player: 0 for the first, 1 for the second, …' })
            .optional(),
        },
        { error: 'a frame needs data.token and data.jpeg (base64)' },
      ),
    }),
  ],
  {
    error: (issue) =>
      issue.code === 'invalid_union'
        ? `unknown message type ${JSON.stringify((issue.input as { type?: unknown } | undefined)?.type)}`
        : 'expected an object',
  },
);
export type ClientMessage = z.output<typeof clientMessageSchema>;

/** `POST /api/checks`: the form fields beside the photos (`before`, `after`). */
export const checkFieldsSchema = z
  .object(
    {
      claimed: z
        .string({ error: 'claimed must be a score from 0 to 9999' })
        .trim()
        .regex(/^(\d{1,4})?$/, { error: 'claimed must be a score from 0 to 9999' })
        .optional()
        .transform((c) => (c ? Number(c) : undefined)),
      lang: oneOf(cameraLanguages, 'lang').default('en'),
      variant: z.preprocess((v) => (v === '' ? undefined : v), oneOf(variants, 'variant').optional()),
      /** A move as the player announced it (`QI H7`, `H7 QI 22`): then only the photo after it is needed. */
      move: z
        .string()
        .trim()
        .max(64, { error: 'move must be at most 64 characters, e.g. "QI H7"' })
        .optional()
        .transform((m) => (m === '' ? undefined : m)),
    },
    { error: 'the form is malformed' },
  )
  .strict();
export type CheckFields = z.output<typeof checkFieldsSchema>;

/** Validates `value` against a declaration: the value, or the first problem in words. */
export function parseWith<S extends z.ZodType>(
  schema: S,
  value: unknown,
): { ok: true; value: z.output<S> } | { ok: false; message: string } {
  const result = schema.safeParse(value);
  if (result.success) return { ok: true, value: result.data };
  return { ok: false, message: result.error.issues[0]?.message ?? 'the request is malformed' };
}

/** Validates a WebSocket message from a client (text); anything else is an error value naming what was wrong. */
export function parseClientMessage(
  text: string,
): { ok: true; message: ClientMessage } | { ok: false; message: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, message: 'not JSON' };
  }
  const parsed = parseWith(clientMessageSchema, value);
  return parsed.ok ? { ok: true, message: parsed.value } : parsed;
}
