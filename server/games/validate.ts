/** Validation at the edge: request bodies become typed values or a `bad-request` error naming what was wrong. */
import { challengeRules, finishLineLevels, tileSets } from '../engine/index.ts';
import type { GameConfig } from '../store/types.ts';
import { ServiceError } from './errors.ts';
import type { MeAction } from './me-session.ts';
import type { Action } from './session.ts';

const bad = (message: string) => new ServiceError('bad-request', message);

function oneOf<T extends string>(value: unknown, allowed: readonly T[], name: string, fallback: T): T {
  if (value === undefined) return fallback;
  if (typeof value !== 'string' || !allowed.includes(value as T))
    throw bad(`${name} must be one of ${allowed.join(', ')}`);
  return value as T;
}

export function parseGameConfig(body: unknown): GameConfig {
  if (typeof body !== 'object' || body === null) throw bad('expected a JSON object');
  const b = body as Record<string, unknown>;
  if (!Array.isArray(b.players) || b.players.length < 2 || b.players.length > 4)
    throw bad('players must be 2 to 4 names');
  const players = b.players.map((p) => {
    if (typeof p !== 'string' || p.trim() === '' || p.length > 40)
      throw bad('each player needs a name of 1 to 40 characters');
    return p.trim();
  });
  const lexicon =
    b.lexicon === undefined ? undefined : oneOf(b.lexicon, ['default-en', 'none'], 'lexicon', 'default-en');
  const lang = oneOf(b.lang, ['en', 'de'], 'lang', 'en');
  const capture = oneOf(b.capture, ['auto', 'button'], 'capture', 'button');
  const variant = oneOf(
    b.variant,
    ['classic', 'nine-tile', 'finish-line', 'uk', 'scrabble-me'],
    'variant',
    'classic',
  );
  if (variant === 'scrabble-me' && capture === 'auto')
    throw bad('Scrabble Me reads a board when its player ends the turn: capture must be button');
  return {
    players,
    lang,
    variant,
    ...(variant === 'scrabble-me' ? { podium: parsePodium(b.podium, lang, players.length) } : {}),
    ...(b.levels === undefined ? {} : { levels: parseLevels(b.levels, players.length) }),
    challengeRule: oneOf(b.challengeRule, challengeRules, 'challengeRule', 'double'),
    capture,
    ...(lexicon ? { lexicon } : {}),
  };
}

/** Scrabble Me's podium: three face-up tiles per player, letters of the game's set (`?` a blank). */
function parsePodium(value: unknown, lang: 'en' | 'de', players: number): string {
  const letters = new Set(tileSets[lang].letters.map(([l]) => l));
  const tiles = typeof value === 'string' ? [...value.toUpperCase()] : [];
  if (tiles.length !== 3 * players || !tiles.every((t) => t === '?' || letters.has(t)))
    throw bad(
      `podium must be the ${3 * players} tiles face up on the prize podium (3 per player), e.g. "EAT…"`,
    );
  return tiles.join('');
}

function parseLevels(value: unknown, players: number) {
  if (!Array.isArray(value) || value.length !== players)
    throw bad('levels must give one Finish Line level per player');
  return value.map((v) => oneOf(v, finishLineLevels, 'each level', 'intermediate'));
}

const square = (b: Record<string, unknown>) => {
  const { row, col } = b;
  if (
    !Number.isInteger(row) ||
    !Number.isInteger(col) ||
    (row as number) < 0 ||
    (row as number) > 14 ||
    (col as number) < 0 ||
    (col as number) > 14
  ) {
    throw bad('row and col must be whole numbers from 0 to 14');
  }
  return { row: row as number, col: col as number };
};

export function parseAction(body: unknown): Action {
  if (typeof body !== 'object' || body === null) throw bad('expected a JSON object');
  const b = body as Record<string, unknown>;
  switch (b.type) {
    case 'pass':
    case 'undo':
    case 'end-turn':
      return { type: b.type };
    case 'exchange':
      if (b.tiles !== undefined && (typeof b.tiles !== 'string' || !/^[\p{L}?]{1,9}$/u.test(b.tiles)))
        throw bad('tiles must be letters');
      if (
        b.count !== undefined &&
        (!Number.isInteger(b.count) || (b.count as number) < 1 || (b.count as number) > 9)
      )
        throw bad('count must be 1 to 9');
      return {
        type: 'exchange',
        ...(b.tiles ? { tiles: b.tiles as string } : {}),
        ...(b.count ? { count: b.count as number } : {}),
      };
    case 'challenge':
      if (!Number.isInteger(b.player) || typeof b.acceptable !== 'boolean')
        throw bad('a challenge needs player (seat) and acceptable (true/false)');
      return { type: 'challenge', player: b.player as number, acceptable: b.acceptable };
    case 'confirm':
      if (b.board !== undefined && (!Array.isArray(b.board) || !b.board.every((r) => typeof r === 'string')))
        throw bad('board must be 15 strings');
      return { type: 'confirm', ...(b.board ? { board: b.board as string[] } : {}) };
    case 'correct':
      if (typeof b.tile !== 'string' || !/^[\p{L}?.]$/u.test(b.tile))
        throw bad('tile must be one letter, ? or .');
      return { type: 'correct', ...square(b), tile: b.tile };
    case 'name-blank':
      if (typeof b.letter !== 'string' || !/^\p{L}$/u.test(b.letter)) throw bad('letter must be one letter');
      return { type: 'name-blank', ...square(b), letter: b.letter };
    case 'end':
      if (
        !Array.isArray(b.racks) ||
        !b.racks.every((r) => typeof r === 'string' && /^[\p{L}?]{0,9}$/u.test(r))
      ) {
        throw bad('racks must be one string of letters per player');
      }
      return { type: 'end', racks: b.racks as string[] };
    default:
      throw bad(
        `unknown action ${JSON.stringify(b.type)}: pass, exchange, challenge, confirm, correct, name-blank, undo, end-turn or end`,
      );
  }
}

const seat = (value: unknown, name: string, players: number): number => {
  if (!Number.isInteger(value) || (value as number) < 0 || (value as number) >= players)
    throw bad(`${name} must be a seat from 0 to ${players - 1}`);
  return value as number;
};

/** A scorekeeper's action in a Scrabble Me game of `players` players. */
export function parseMeAction(body: unknown, players: number): MeAction {
  if (typeof body !== 'object' || body === null) throw bad('expected a JSON object');
  const b = body as Record<string, unknown>;
  switch (b.type) {
    case 'end-turn':
      return { type: 'end-turn', camera: b.camera === undefined ? 0 : seat(b.camera, 'camera', players) };
    case 'confirm':
      if (
        b.reading !== undefined &&
        (!Array.isArray(b.reading) || !b.reading.every((r) => typeof r === 'string'))
      )
        throw bad('reading must be 15 strings');
      return {
        type: 'confirm',
        board: seat(b.board, 'board', players),
        ...(b.reading ? { reading: b.reading as string[] } : {}),
      };
    case 'correct':
      if (typeof b.tile !== 'string' || !/^[\p{L}?.]$/u.test(b.tile))
        throw bad('tile must be one letter, ? or .');
      return { type: 'correct', board: seat(b.board, 'board', players), ...square(b), tile: b.tile };
    case 'challenge':
      if (typeof b.acceptable !== 'boolean') throw bad('acceptable must be true or false');
      return {
        type: 'challenge',
        player: seat(b.player, 'player', players),
        challenger: seat(b.challenger, 'challenger', players),
        acceptable: b.acceptable,
      };
    case 'swap':
      return { type: 'swap', player: seat(b.player, 'player', players), with: seat(b.with, 'with', players) };
    case 'refill':
      if (
        !Array.isArray(b.picks) ||
        b.picks.length === 0 ||
        b.picks.length > 40 ||
        !b.picks.every((p) => typeof p === 'string' && (p === 'bag' || /^[\p{L}?]$/u.test(p)))
      ) {
        throw bad('picks must list each tile taken, in turn: "bag", or the podium letter taken');
      }
      return { type: 'refill', picks: (b.picks as string[]).map((p) => (p === 'bag' ? p : p.toUpperCase())) };
    case 'podium':
      if (typeof b.letters !== 'string' || !/^[\p{L}?]{0,12}$/u.test(b.letters))
        throw bad('letters must be the tiles put on the podium');
      return { type: 'podium', letters: b.letters.toUpperCase() };
    case 'no-bonus':
    case 'undo':
      return { type: b.type };
    default:
      throw bad(
        `unknown action ${JSON.stringify(b.type)}: end-turn, confirm, correct, challenge, swap, refill, podium, no-bonus or undo`,
      );
  }
}
