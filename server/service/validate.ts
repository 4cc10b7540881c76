/**
 * Validation at the edge: a request body becomes a typed value, checked against its one declaration in
 * server/protocol, or a `bad-request` error naming what was wrong. (A scorekeeper's action is validated by the
 * game itself, which knows its kind: see Session.act.)
 */
import {
  analysisRequestSchema,
  type GameConfig,
  gameConfigSchema,
  type ListQuery,
  listQuerySchema,
  parseWith,
  sourceRequestSchema,
  versionSchema,
} from '../protocol/index.ts';
import { ServiceError } from './errors.ts';

function expectValid<T>(parsed: { ok: true; value: T } | { ok: false; message: string }): T {
  if (!parsed.ok) throw new ServiceError('bad-request', parsed.message);
  return parsed.value;
}

export const parseGameConfig = (body: unknown): GameConfig => expectValid(parseWith(gameConfigSchema, body));

export const parseListQuery = (query: unknown): ListQuery => expectValid(parseWith(listQuerySchema, query));

export const parseAnalysisRequest = (body: unknown): { turn: number; rack?: string | undefined } =>
  expectValid(parseWith(analysisRequestSchema, body));

export const parseSourceRequest = (body: unknown): { url: string; camera: number } =>
  expectValid(parseWith(sourceRequestSchema, body));

/** The game version a request was made against, from a JSON number or a query string. */
export function parseVersion(value: unknown): number | undefined {
  if (value === undefined) return undefined;
  const n = typeof value === 'string' && /^\d{1,9}$/.test(value) ? Number(value) : value;
  return expectValid(parseWith(versionSchema, n));
}

/** Squares of the board from another process (a worker's answer, the bus): at most all of them, each a row and a
 *  column on the board. */
export function isSquares(squares: unknown): squares is { row: number; col: number }[] {
  return (
    Array.isArray(squares) &&
    squares.length <= 225 &&
    squares.every(
      (q) =>
        typeof q === 'object' &&
        q !== null &&
        [q.row, q.col].every((v) => Number.isInteger(v) && v >= 0 && v < 15),
    )
  );
}
