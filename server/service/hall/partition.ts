/** Which queue a game's work goes to, and which worker consumes each queue: pure arithmetic over the ids. */
import { createHash, randomUUID } from 'node:crypto';
import { PARTITIONS } from './keys.ts';

/** The queue a game's work goes to. */
export function partitionOf(game: string): number {
  return createHash('sha256').update(game).digest().readUInt32BE(0) % PARTITIONS;
}

/**
 * A new game id whose work goes to queue `p` (`partitionOf`): ids from `make` are drawn until one does (one in
 * PARTITIONS does; the draws are bounded, and the last one is taken if none did).
 */
export function idInPartition(p: number, make: () => string = () => randomUUID().slice(0, 8)): string {
  let id = make();
  for (let tries = 1; tries < 100 * PARTITIONS && partitionOf(id) !== p; tries++) id = make();
  return id;
}

/**
 * The worker of `live` that consumes queue `p`: rendezvous hashing with bounded loads. Queue by queue in order, each
 * goes to the worker with the highest hash of the pair that has not had its share yet (PARTITIONS / workers, some of
 * them one more): every worker works out the same owners from the same live set, the queues are shared out evenly
 * (plain rendezvous hashing gave one of two workers 10 of the 16 queues, and it then read 1.5 to 2 times the frames
 * of the other), and a worker joining or leaving moves its share and a few more (at most 7 of the 16 in the 240
 * trials of work.test.ts, 3 to 11 workers; plain rendezvous hashing moves only the share).
 */
export function ownerOf(p: number, live: readonly string[]): string | undefined {
  return owners(live)[p];
}

/**
 * The queues in the order new games are placed on them: each worker's in turn (the first of each worker's, then the
 * second of each, …), so that however many games a hall has, each worker has as many as the others, or one more.
 * With no worker live, the queues in order.
 */
export function placementOrder(plan: readonly (string | undefined)[]): number[] {
  const byOwner = new Map<string, number[]>();
  plan.forEach((owner, p) => {
    const key = owner ?? '';
    byOwner.set(key, [...(byOwner.get(key) ?? []), p]);
  });
  const groups = [...byOwner.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, g]) => g);
  const order: number[] = [];
  for (let k = 0; order.length < plan.length; k++)
    for (const g of groups) if (k < g.length) order.push(g[k]!);
  return order;
}

/** Every queue's owner among `live` (see ownerOf). */
export function owners(live: readonly string[]): (string | undefined)[] {
  const workers = [...new Set(live)].sort();
  if (workers.length === 0) return new Array(PARTITIONS).fill(undefined);
  // Each worker takes `base` queues, and `extra` of them one more.
  const base = Math.floor(PARTITIONS / workers.length);
  const extra = PARTITIONS % workers.length;
  let larger = 0;
  const load = new Map(workers.map((w) => [w, 0]));
  const full = (w: string) => load.get(w)! > base || (load.get(w)! === base && larger === extra);
  const hash = (worker: string, q: number) =>
    createHash('sha256').update(`${worker}/${q}`).digest().readUInt32BE(0);
  return Array.from({ length: PARTITIONS }, (_, q) => {
    const ranked = workers
      .map((worker) => ({ worker, h: hash(worker, q) }))
      .sort((a, b) => b.h - a.h || (a.worker < b.worker ? -1 : 1));
    const owner = ranked.find((r) => !full(r.worker))!.worker;
    load.set(owner, load.get(owner)! + 1);
    if (load.get(owner) === base + 1) larger++;
    return owner;
  });
}
