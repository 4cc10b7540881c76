/**
 * `tilecam worker [--db postgres://…] [--redis redis://…] [--json]`: a process that reads the frames and decides the
 * actions the instances started with `--queue` hand over (server/service/work.ts). It shares the instances' database
 * and Redis (defaults: DATABASE_URL, REDIS_URL); start as many as the hall needs, on any machine that reaches both.
 * SIGTERM or SIGINT: the jobs running finish, the other workers take its queues.
 */
import { parseArgs } from 'node:util';
import { reportError } from './errors.ts';

export async function workerCommand(args: string[]): Promise<number> {
  const json = args.includes('--json');
  let values: { db?: string | undefined; redis?: string | undefined };
  try {
    ({ values } = parseArgs({
      args,
      options: { db: { type: 'string' }, redis: { type: 'string' }, json: { type: 'boolean' } },
    }));
  } catch (err) {
    return reportError(json, (err as Error).message);
  }
  const { openStore, redisUrl, reach, StoreOpenError } = await import('../http/app.ts');
  const { RedisBus } = await import('../service/bus.ts');
  const { GameService } = await import('../service/service.ts');
  const { defaultLimits } = await import('../service/limits.ts');
  const { WorkConsumer } = await import('../service/work.ts');
  const opened: { close(): Promise<void> }[] = [];
  const closeAll = async () => {
    for (const o of opened.reverse()) await o.close().catch(() => {});
  };
  let consumer: Awaited<ReturnType<typeof WorkConsumer.start>>;
  try {
    const url = redisUrl(values.redis);
    if (!url) throw new StoreOpenError('a worker takes its work from Redis: set --redis or REDIS_URL');
    const store = await openStore(values.db, defaultLimits.photoBytesPerGame);
    opened.push(store);
    const bus = await reach(url, RedisBus.open);
    opened.push(bus);
    // Frames come from the instances, already admitted by their limits.
    const service = new GameService(store, { bus, limits: defaultLimits });
    opened.push({ close: async () => service.stopAll() });
    consumer = await reach(url, (u) => WorkConsumer.start(u, service.handler));
    opened.push(consumer);
  } catch (err) {
    await closeAll();
    if (err instanceof StoreOpenError) return reportError(json, err.message);
    throw err;
  }
  if (json) process.stdout.write(`${JSON.stringify({ worker: consumer.id })}\n`);
  else process.stdout.write(`tilecam worker ${consumer.id} is taking frames from the queue\n`);
  const stop = async () => {
    await closeAll();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  return new Promise<number>(() => {});
}
