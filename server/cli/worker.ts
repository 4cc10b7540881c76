/**
 * `tilecam worker [options]` (`workerSpec`): a process that reads the frames and decides the actions the instances started with `--queue` hand over (server/service/hall/work.ts). It shares the instances' database
 * and Redis (defaults: DATABASE_URL, REDIS_URL); start as many as the hall needs, on any machine that reaches both.
 * SIGTERM or SIGINT: the jobs running finish (for a few seconds at most), the other workers take its queues.
 */
import { reportError } from './errors.ts';
import { type CommandSpec, commandLine } from './options.ts';

/** The longest a worker takes to stop after SIGTERM or SIGINT. */
const STOP_MS = 4000;

export const workerSpec = {
  synopsis: ['worker [options]'],
  summary: 'read the frames that instances started with --queue hand over',
  options: {
    db: { type: 'string', value: 'postgres://…', help: "the instances' database (default DATABASE_URL)" },
    redis: { type: 'string', value: 'redis://…', help: "the instances' Redis (default REDIS_URL)" },
    limit: { type: 'string', multiple: true, value: 'NAME=N', help: 'the same limits as the instances' },
    json: { type: 'boolean', help: 'print one JSON line once ready' },
  },
  positionals: false,
} as const satisfies CommandSpec;

export async function workerCommand(args: string[]): Promise<number> {
  const line = commandLine(workerSpec, args);
  if (typeof line === 'number') return line;
  const { values, json } = line;
  const { openStore, redisUrl, reach, StoreOpenError } = await import('../http/app.ts');
  const { RedisBus } = await import('../service/hall/bus.ts');
  const { GameService } = await import('../service/service.ts');
  const { defaultLimits, parseLimits, photoCaps } = await import('../service/limits.ts');
  const { WorkConsumer } = await import('../service/hall/work.ts');
  const { prepareReading } = await import('../service/game/frames.ts');
  const { rackReader } = await import('../service/game/rack-thread.ts');
  // The same limits as the instances (`--limit NAME=N`, as for serve): the photos a game may keep, the games kept in
  // memory.
  let limits: ReturnType<typeof parseLimits>;
  try {
    limits = parseLimits(values.limit ?? [], defaultLimits);
  } catch (err) {
    return reportError(json, (err as Error).message);
  }
  const opened: { close(): Promise<void> }[] = [];
  const closeAll = async () => {
    for (const o of [...opened].reverse()) await o.close().catch(() => {});
  };
  let consumer: Awaited<ReturnType<typeof WorkConsumer.start>>;
  try {
    const url = redisUrl(values.redis);
    if (!url) throw new StoreOpenError('a worker takes its work from Redis: set --redis or REDIS_URL');
    // The instances' database: a worker on a SQLite file of its own would find none of their games.
    const db = values.db ?? process.env.DATABASE_URL?.trim();
    if (!db)
      throw new StoreOpenError(
        'a worker records moves in the database the instances use: set --db postgres://… or DATABASE_URL',
      );
    const store = await openStore(db, photoCaps(limits));
    opened.push(store);
    const bus = await reach(url, RedisBus.open);
    opened.push(bus);
    // The pictures of the frames a worker reads are shown by the instance that handed them over.
    const service = new GameService(store, { bus, limits, pictures: false });
    // Closed after the games: the process's rack reader, once its read in flight is done (worker-queue.ts).
    opened.push({ close: () => rackReader.close() });
    opened.push({ close: async () => service.stopAll() });
    // Ready to read before it takes any queue: the first frames of the games it takes are not held up.
    await prepareReading();
    consumer = await reach(url, (u) => WorkConsumer.start(u, service.handler));
    opened.push(consumer);
  } catch (err) {
    await closeAll();
    if (err instanceof StoreOpenError) return reportError(json, err.message);
    throw err;
  }
  if (json) process.stdout.write(`${JSON.stringify({ worker: consumer.id })}\n`);
  else process.stdout.write(`tilecam worker ${consumer.id} is taking frames from the queue\n`);
  let stopping = false;
  const stop = () => {
    // Once, whichever signal comes first or again (Ctrl-C reaches the whole process group).
    if (stopping) return;
    stopping = true;
    // Whatever Redis or the database do meanwhile, the process is gone within STOP_MS: a job cut short is taken
    // again by another worker (its lock runs out), and what it recorded is recorded once (work.ts).
    setTimeout(() => {
      console.error(`tilecam worker: not stopped in ${STOP_MS / 1000} s: exiting now`);
      process.exit(0);
    }, STOP_MS).unref();
    void closeAll().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  return new Promise<number>(() => {});
}
