/** Validation at the edge: request bodies become typed values or a `bad-request` error naming what was wrong. */
import { challengeRules, finishLineLevels } from '../engine/index.ts';
import type { GameConfig } from '../store/types.ts';
import { ServiceError } from './errors.ts';
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
  return {
    players,
    lang: oneOf(b.lang, ['en', 'de'], 'lang', 'en'),
    variant: oneOf(b.variant, ['classic', 'nine-tile', 'finish-line', 'uk'], 'variant', 'classic'),
    ...(b.levels === undefined ? {} : { levels: parseLevels(b.levels, players.length) }),
    challengeRule: oneOf(b.challengeRule, challengeRules, 'challengeRule', 'double'),
    capture: oneOf(b.capture, ['auto', 'button'], 'capture', 'button'),
    ...(lexicon ? { lexicon } : {}),
  };
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
