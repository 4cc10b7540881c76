/**
 * What a job of the work queue carries, the answer it gets, and how its failures are named. A job in Redis is
 * outside input: its data is checked before it is used (`workData`).
 */
import type { Corners } from '../../../vision/index.ts';
import type { FrameResult } from '../../protocol/index.ts';
import { type ErrorCode, outage, ServiceError } from '../errors.ts';

/** A piece of one game's work. */
export type WorkJob =
  | {
      readonly kind: 'frame';
      readonly game: string;
      /** The frame's bytes, base64. */
      readonly frame: string;
      readonly endTurn: boolean;
      readonly camera: number;
      readonly version?: number;
    }
  | { readonly kind: 'act'; readonly game: string; readonly action: unknown; readonly version?: number }
  | {
      readonly kind: 'rack';
      readonly game: string;
      /** A rack camera's frame, base64. */
      readonly frame: string;
      /** The player at whose place the rack camera stands. */
      readonly player: number;
      readonly version?: number;
    };

export interface WorkData {
  readonly id: string;
  /** The channel the instance that handed the job over listens on. */
  readonly reply: string;
  readonly job: WorkJob;
}

/** The job's data, if it has the shape instances give it (a job in Redis is outside input). */
export function workData(data: unknown): WorkData | undefined {
  const d = data as Partial<WorkData> | null;
  const job = d?.job as Partial<Record<string, unknown>> | undefined;
  if (
    typeof d?.id !== 'string' ||
    typeof d.reply !== 'string' ||
    !d.reply.startsWith('tilecam:replies:') ||
    typeof job !== 'object' ||
    job === null ||
    typeof job.game !== 'string' ||
    (job.version !== undefined && !Number.isInteger(job.version))
  )
    return undefined;
  if (job.kind === 'act') return d as WorkData;
  if (job.kind === 'rack' && typeof job.frame === 'string' && Number.isInteger(job.player))
    return d as WorkData;
  if (
    job.kind === 'frame' &&
    typeof job.frame === 'string' &&
    typeof job.endTurn === 'boolean' &&
    Number.isInteger(job.camera)
  )
    return d as WorkData;
  return undefined;
}

/** A reply's grid: four points of finite numbers. */
export function isGrid(grid: unknown): grid is Corners {
  return (
    Array.isArray(grid) &&
    grid.length === 4 &&
    grid.every(
      (p) =>
        Array.isArray(p) && p.length === 2 && p.every((v) => typeof v === 'number' && Number.isFinite(v)),
    )
  );
}

export interface Reply {
  readonly id: string;
  readonly result?: FrameResult;
  readonly error?: { readonly code: ErrorCode; readonly message: string };
  /** A frame read: where the grid was found in it (for the camera's page at the instance). */
  readonly grid?: Corners;
  /** A frame read: the game's board-disturbed notice after it. */
  readonly disturbed?: readonly Square[];
}

export type Square = { readonly row: number; readonly col: number };

/** A job's answer: the game's, and for a frame read, where the grid was found in it. */
export interface WorkAnswer {
  readonly result: FrameResult;
  readonly grid?: Corners;
  readonly disturbed?: readonly Square[];
}

/** Which dependency a job's failure lost, named for the client (never its address): Redis's client's own errors,
 *  else the database's connection failures. */
export function lostDependency(err: unknown): string | undefined {
  const e = err as { name?: unknown; message?: unknown } | null;
  if (e?.name === 'MaxRetriesPerRequestError' || /^Connection is closed|Redis/.test(String(e?.message)))
    return 'Redis';
  return outage(err, 'the database', '') ? 'the database' : undefined;
}

/** A job handed over whose answer was lost: a worker may have decided it (and recorded a move) or not. */
export function unknownAnswer(): ServiceError {
  return new ServiceError(
    'unknown',
    'unknown: the work queue lost this request (Redis restarted or was away), and it may have been recorded: reload the game before sending it again',
  );
}
