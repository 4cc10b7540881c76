/** The work queue's Redis keys, timings and lease scripts, in one place (design: docs/design.md, "Workers"). */

/** How many queues a hall's games are spread over (the most workers that can share the work). */
export const PARTITIONS = 16;
/** A worker not heard from for this long is gone: its queues go to the others. */
export const GONE_MS = 4000;
export const HEARTBEAT_MS = 1000;
/**
 * A job's lock: a worker killed mid-job has its job taken again after about this and half of it again (BullMQ's
 * check for stalled jobs), 6 s, within the 10 s a move may take to commit after a fault (at 6 s it was 9 s at worst,
 * one second from the line). BullMQ renews it every 2 s while the job runs: only an event loop blocked for 4 s loses it.
 */
export const LOCK_MS = 4000;
/** How long an instance waits for a job's answer. */
export const ANSWER_MS = 60_000;
/** How long a queue given up may take to finish its running job before its BullMQ worker is closed by force (a
 *  worker whose Redis restarted may never finish closing: it is left behind, never waited for). */
export const CLOSE_MS = 3000;
/** How long a heartbeat may take before the next one starts afresh (Redis away: its commands fail after a few
 *  reconnection tries, but a BullMQ call may wait longer). */
export const BEAT_MS = 5000;
/** How long a queue given up waits for its End turns waiting out a hand to be held and noted. */
export const SETTLE_MS = 3000;
export const WORKERS_KEY = 'tilecam:workers';
/** The count of games placed on the queues in turn (`WorkQueue.newGameId`), and how long placing one may take. */
export const NEXT_QUEUE_KEY = 'tilecam:games-placed';
/** How long a job waits for Redis to be connected before it is refused (`unavailable`: send it again). */
export const REDIS_WAIT_MS = 2000;
export const PLACE_MS = 1000;
export const queueName = (p: number) => `tilecam-work-${p}`;
export const leaseKey = (p: number) => `tilecam:queue-owner:${p}`;
/** Where a worker keeps job `id`'s answer a while, besides publishing it: an instance that missed the message
 *  (its subscriber reconnecting) finds it there. */
export const answerKey = (id: string) => `tilecam:answer:${id}`;
/** How often an instance looks there for the answers it still waits for, and how long an answer is kept. */
export const RECHECK_MS = 5000;
export const ANSWER_KEEP_MS = ANSWER_MS + 10_000;
/** Where a worker notes the game's version as it starts job `id`. */
export const startKey = (id: string) => `tilecam:job-start:${id}`;
/** Where a worker notes the End turns of `game` it waits out a hand for (camera → the wait's mark): a worker that
 *  takes the game's queue over after that one was lost goes on with them. */
export const handWaitKey = (game: string) => `tilecam:hand-wait:${game}`;
/** How long such a note is kept from when the wait began: a takeover comes 4–6 s after a kill (GONE_MS, then the
 *  camera's next frame); an End turn not gone on with by then is forgotten, never joined to a later move. */
export const HAND_WAIT_KEEP_MS = 15_000;
/** Renews a lease held by ARGV[1]; 0 when it is not (any longer) theirs. */
export const RENEW = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end`;
/** Takes a lease that is free or already ARGV[1]'s (kept through a rebuild, when Redis did not lose it); 1 if taken. */
export const TAKE = `local v = redis.call('get', KEYS[1])
if v == false or v == ARGV[1] then redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[2]) return 1 end
return 0`;
export const replies = (instance: string) => `tilecam:replies:${instance}`;
