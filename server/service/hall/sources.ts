/**
 * The camera streams a hall's instances pull (an IP camera or a phone's MJPEG app over each board), shared through
 * Redis, so that a stream outlives the instance that started pulling it and every instance shows its state:
 *
 * - **The list.** Each stream is a field of the hash `tilecam:sources` (`GAME/SEAT` → its URL, how often a frame is
 *   read, its host, and whether it is being pulled or stopped and why), written by the instance that starts it.
 * - **Who pulls it.** One instance at a time, the holder of the stream's lease (`tilecam:source-owner:GAME/SEAT`, a
 *   key with a time to live, renewed every scan). An instance that dies stops renewing: once the lease has run out,
 *   the next instance to scan takes the stream over (at most its `sources` limit) and pulls it from where it is.
 * - **Stopping.** A stream stopped on any instance (DELETE …/source) is taken off the list and its lease deleted:
 *   the instance pulling it notices at its next scan and lets it go; so does one whose stream was started again
 *   elsewhere (the lease is then another's). A stream that fails (the phone went to sleep) stays on the list,
 *   stopped, with its reason, for every scorekeeper page to show; nobody pulls it until it is started again.
 * - **Shutting down** lets the leases go at once: the others take the streams at their next scan.
 * - **Redis losing its data** (restarted without it, or flushed) would read as every stream stopped elsewhere. The
 *   list has an epoch (`tilecam:sources-epoch`, a random name written when it is first needed): an instance that
 *   finds it gone or renamed since its last scan lists the streams it pulls again, and pulls on. (A stream pulled by an
 *   instance that died while Redis was away is lost with the list: nobody knows it any more.)
 *
 * What is read from Redis is checked as outside input (`entryOf`; the URL again against the policy by the service).
 */
import { randomUUID } from 'node:crypto';
import type { ChainableCommander, Redis } from 'ioredis';

const LIST = 'tilecam:sources';
const leaseKey = (field: string) => `tilecam:source-owner:${field}`;
const EPOCH = 'tilecam:sources-epoch';
/** Renews KEYS[1] (a lease) for ARGV[3] ms while ARGV[1] holds it and the stream ARGV[2] is still on the list
 *  KEYS[2]; 0 when either is no longer so. */
const RENEW = `if redis.call('get', KEYS[1]) == ARGV[1] and redis.call('hexists', KEYS[2], ARGV[2]) == 1 then
  return redis.call('pexpire', KEYS[1], ARGV[3])
end
return 0`;
/** Writes the entry ARGV[3] of stream ARGV[2] on the list KEYS[2] and lets the lease KEYS[1] go, if ARGV[1] holds
 *  it (a stream that stopped while pulled here). */
const STOPPED = `if redis.call('get', KEYS[1]) == ARGV[1] then
  redis.call('hset', KEYS[2], ARGV[2], ARGV[3])
  return redis.call('del', KEYS[1])
end
return 0`;
/** Takes the lease KEYS[1] for ARGV[1] (ARGV[4] ms) if nobody holds it and stream ARGV[2] is still on the list
 *  KEYS[2] as ARGV[3] (as read: not stopped, replaced or taken off since). */
const TAKE = `if redis.call('hget', KEYS[2], ARGV[2]) == ARGV[3] then
  return redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[4], 'NX')
end
return false`;
/** Lists stream ARGV[2] on KEYS[2] as ARGV[3] again, with its lease KEYS[1] for ARGV[1] (ARGV[4] ms), if the list
 *  (lost) does not have it: started again elsewhere since, it is that one's. */
const RELIST = `if redis.call('hsetnx', KEYS[2], ARGV[2], ARGV[3]) == 1 then
  return redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[4])
end
return false`;
/** Takes stream ARGV[1] off the list KEYS[1] if it is still listed as ARGV[2] (as read). */
const FORGET = `if redis.call('hget', KEYS[1], ARGV[1]) == ARGV[2] then return redis.call('hdel', KEYS[1], ARGV[1]) end
return 0`;
/** A start given up: while ARGV[1] still holds the lease KEYS[1] (nobody started the stream again since), takes
 *  stream ARGV[2] off the list KEYS[2] if it is still listed as ARGV[3], and lets the lease go. */
const WITHDRAW = `if redis.call('get', KEYS[1]) ~= ARGV[1] then return 0 end
if redis.call('hget', KEYS[2], ARGV[2]) == ARGV[3] then redis.call('hdel', KEYS[2], ARGV[2]) end
return redis.call('del', KEYS[1])`;
/** Lets the lease KEYS[1] go if ARGV[1] holds it (the streams' and the work queues' leases alike). */
export const RELEASE = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;

/** A stream on the list. */
export interface SourceEntry {
  readonly url: string;
  /** How often a frame is read, in ms. */
  readonly everyMs: number;
  /** The camera's host, as pages show it (never the path or credentials). */
  readonly host: string;
  readonly state: 'pulling' | 'stopped';
  /** Why it stopped. */
  readonly error: string | null;
  /** When it stopped (ms since 1970): a stopped stream is taken off the list after STOPPED_KEEP_MS. */
  readonly at?: number;
}

/** The longest reason a stream stopped that the list keeps (longer ones are cut when written). */
const ERROR_CHARS = 1000;

/** How long a stream that stopped by itself stays on the list, showing why. */
export const STOPPED_KEEP_MS = 60 * 60 * 1000;

/** The stream's field on the list: the game and the seat. */
export function sourceField(game: string, camera: number): string {
  return `${game}/${camera}`;
}

/** `GAME/SEAT` split, or undefined for a field that is not one (written as sourceField writes it). */
export function fieldOf(field: string): { game: string; camera: number } | undefined {
  const m = /^([\w-]{1,64})\/(\d{1,2})$/.exec(field);
  if (!m || sourceField(m[1]!, Number(m[2])) !== field) return undefined;
  return { game: m[1]!, camera: Number(m[2]) };
}

/** An entry as the list holds it, checked (the URL as long as a request may give it); undefined for anything else. */
export function entryOf(text: string): SourceEntry | undefined {
  let x: Partial<Record<keyof SourceEntry, unknown>>;
  try {
    x = JSON.parse(text) as typeof x;
  } catch {
    return undefined;
  }
  if (
    typeof x !== 'object' ||
    x === null ||
    typeof x.url !== 'string' ||
    x.url.length > 2048 ||
    !Number.isInteger(x.everyMs) ||
    (x.everyMs as number) < 100 ||
    (x.everyMs as number) > 60_000 ||
    typeof x.host !== 'string' ||
    x.host.length > 2048 ||
    (x.state !== 'pulling' && x.state !== 'stopped') ||
    !(x.error === null || (typeof x.error === 'string' && x.error.length <= ERROR_CHARS)) ||
    !(x.at === undefined || Number.isSafeInteger(x.at))
  )
    return undefined;
  return {
    url: x.url,
    everyMs: x.everyMs as number,
    host: x.host,
    state: x.state,
    error: x.error,
    ...(x.at === undefined ? {} : { at: x.at as number }),
  };
}

/** The replies of a MULTI, or its failure thrown (ioredis answers some failures as replies). */
async function exec(multi: ChainableCommander): Promise<unknown[]> {
  const done = await multi.exec();
  if (!done) throw new Error('the transaction was not run');
  for (const [err] of done) if (err) throw err;
  return done.map(([, reply]) => reply);
}

export class SharedSources {
  /** The list's epoch as last seen here (undefined before the first look). */
  private epoch: string | undefined;

  constructor(
    private readonly redis: Redis,
    /** This instance's name, on the leases it holds. */
    private readonly instance: string,
    /** How long a lease lasts unrenewed, and how often each instance scans the list. */
    readonly timing: { readonly leaseMs: number; readonly scanMs: number } = {
      leaseMs: 10_000,
      scanMs: 3000,
    },
  ) {}

  /** Puts a stream on the list (replacing one of that seat) and takes its lease: this instance pulls it now. */
  async start(field: string, entry: SourceEntry): Promise<void> {
    const [, , , epoch] = await exec(
      this.redis
        .multi()
        .hset(LIST, field, JSON.stringify(entry))
        .set(leaseKey(field), this.instance, 'PX', this.timing.leaseMs)
        .set(EPOCH, randomUUID(), 'NX')
        .get(EPOCH),
    );
    // Seen first here. Seen before, it stays as it was: if the list was lost since, the next renewal lists again what
    // was pulled here before this stream.
    this.epoch ??= epoch as string;
  }

  /** Undoes `start` (the instance shut down meanwhile): off the list if still listed as started and its lease still
   *  this instance's (started again elsewhere meanwhile, it stays), the lease let go. */
  async withdraw(field: string, entry: SourceEntry): Promise<void> {
    await this.redis.eval(WITHDRAW, 2, leaseKey(field), LIST, this.instance, field, JSON.stringify(entry));
  }

  /** Takes a stream off the list (whoever pulls it lets it go at its next scan). Whether it was on it. */
  async remove(field: string): Promise<boolean> {
    const [removed] = await exec(this.redis.multi().hdel(LIST, field).del(leaseKey(field)));
    return removed === 1;
  }

  /**
   * Keeps the streams this instance pulls (each with its entry as started); those it must let go (stopped, or started
   * elsewhere) are returned. The list lost since the last look (its epoch gone or another): they are listed again.
   */
  async renew(pulled: ReadonlyMap<string, SourceEntry>): Promise<string[]> {
    const epoch = await this.redis.get(EPOCH);
    if (epoch === null || (this.epoch !== undefined && epoch !== this.epoch)) {
      for (const [field, entry] of pulled)
        await this.redis.eval(
          RELIST,
          2,
          leaseKey(field),
          LIST,
          this.instance,
          field,
          JSON.stringify(entry),
          this.timing.leaseMs,
        );
      await this.redis.set(EPOCH, randomUUID(), 'NX');
      this.epoch = (await this.redis.get(EPOCH)) ?? undefined;
      if (pulled.size > 0)
        console.error(
          `camera streams: the hall's list was lost (Redis restarted without its data?): ${pulled.size} pulled here listed again`,
        );
    } else this.epoch = epoch;
    const lost: string[] = [];
    for (const field of pulled.keys()) {
      const kept = await this.redis.eval(
        RENEW,
        2,
        leaseKey(field),
        LIST,
        this.instance,
        field,
        this.timing.leaseMs,
      );
      if (kept !== 1) lost.push(field);
    }
    return lost;
  }

  /** Whether this instance still holds the lease of a stream still on the list (renewing it): not stopped or taken
   *  since it was taken. */
  async holds(field: string): Promise<boolean> {
    return (
      (await this.redis.eval(RENEW, 2, leaseKey(field), LIST, this.instance, field, this.timing.leaseMs)) ===
      1
    );
  }

  /** Says that the stream pulled here stopped, and why (kept on the list for the pages), and lets its lease go. */
  async stopped(field: string, entry: SourceEntry): Promise<void> {
    const error = entry.error === null ? null : entry.error.slice(0, ERROR_CHARS);
    const text = JSON.stringify({ ...entry, error });
    await this.redis.eval(STOPPED, 2, leaseKey(field), LIST, this.instance, field, text);
  }

  /**
   * Every stream on the list, checked, with its text as listed (a field or entry that is not one is left out); a
   * stream stopped longer ago than STOPPED_KEEP_MS is taken off.
   */
  async list(now = Date.now()): Promise<Map<string, { entry: SourceEntry; text: string }>> {
    const all = await this.redis.hgetall(LIST);
    const out = new Map<string, { entry: SourceEntry; text: string }>();
    for (const [field, text] of Object.entries(all)) {
      const entry = fieldOf(field) ? entryOf(text) : undefined;
      // Taken off only as read: started again meanwhile, it stays.
      if (entry?.state === 'stopped' && now - (entry.at ?? 0) > STOPPED_KEEP_MS)
        await this.redis.eval(FORGET, 1, LIST, field, text);
      else if (entry) out.set(field, { entry, text });
    }
    return out;
  }

  /** Takes the lease of a stream nobody pulls (its puller died), if it is still listed as `text`: true when this
   *  instance pulls it now. */
  async take(field: string, text: string): Promise<boolean> {
    return (
      (await this.redis.eval(
        TAKE,
        2,
        leaseKey(field),
        LIST,
        this.instance,
        field,
        text,
        this.timing.leaseMs,
      )) === 'OK'
    );
  }

  /** Lets the leases of `fields` go (shutting down): the others take the streams at their next scan. */
  async release(fields: readonly string[]): Promise<void> {
    await Promise.all(fields.map((f) => this.redis.eval(RELEASE, 1, leaseKey(f), this.instance)));
  }
}
