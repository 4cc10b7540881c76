/**
 * `npm run hall [-- --instances 2] [--workers 2] [--port 3000]`: the whole set-up of a tournament hall on this machine,
 * for development, with no root service: PostgreSQL and Redis of its own (temporary folders, free loopback ports),
 * instances of `tilecam serve --queue` on ports PORT, PORT+1, … and `tilecam worker` processes. Prints where
 * everything is; Ctrl-C stops it all and leaves nothing behind (the games are gone with the database).
 */
import type { ChildProcess } from 'node:child_process';
import { parseArgs } from 'node:util';
import {
  type RunningPostgres,
  type RunningRedis,
  startPostgres,
  startRedis,
  startTilecam,
} from './servers.ts';

const children: ChildProcess[] = [];

function count(value: string | undefined, name: string, fallback: number, most: number): number {
  const n = value === undefined ? fallback : Number(value);
  if (!Number.isInteger(n) || n < 1 || n > most)
    throw new Error(`--${name} must be 1–${most}, got '${value}'`);
  return n;
}

/** Starts `tilecam ARGS` (kept in `children` at once, to be stopped whatever happens) and waits until it is ready. */
async function start(args: string[]): Promise<void> {
  const { child, ready } = startTilecam(args);
  children.push(child);
  await ready;
}

let postgres: RunningPostgres | undefined;
let redis: RunningRedis | undefined;
let stopping = false;
async function stop(code: number): Promise<never> {
  if (!stopping) {
    stopping = true;
    // Each finishes what it is doing (up to 10 s), then the databases go.
    await Promise.all(
      children.map(
        (c) =>
          new Promise<void>((done) => {
            if (c.exitCode !== null || c.signalCode !== null) return done();
            const timer = setTimeout(() => c.kill('SIGKILL'), 10_000);
            c.once('exit', () => {
              clearTimeout(timer);
              done();
            });
            c.kill('SIGTERM');
          }),
      ),
    );
    await redis?.stop();
    postgres?.stop();
  }
  process.exit(code);
}

try {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    options: { instances: { type: 'string' }, workers: { type: 'string' }, port: { type: 'string' } },
  });
  const instances = count(values.instances, 'instances', 2, 8);
  const workers = count(values.workers, 'workers', 2, 16);
  const port = count(values.port, 'port', 3000, 65535 - instances);
  process.once('SIGINT', () => void stop(0));
  process.once('SIGTERM', () => void stop(0));
  // Both started, or whichever did stopped again.
  const [pg, rd] = await Promise.allSettled([startPostgres(), startRedis()]);
  if (pg.status === 'fulfilled') postgres = pg.value;
  if (rd.status === 'fulfilled') redis = rd.value;
  if (pg.status === 'rejected') throw pg.reason;
  if (rd.status === 'rejected') throw rd.reason;
  const shared = ['--db', postgres!.url, '--redis', redis!.url];
  for (let i = 0; i < instances; i++) {
    await start(['serve', '--queue', '--port', String(port + i), ...shared]);
  }
  for (let i = 0; i < workers; i++) await start(['worker', ...shared]);
  for (const c of children)
    c.once('exit', (code) => !stopping && console.error(`a tilecam process exited (${code})`));
  console.log(`a tournament hall on this machine: ${instances} instances, ${workers} workers`);
  for (let i = 0; i < instances; i++)
    console.log(`  http://localhost:${port + i}/   (hall: /hall?event=NAME)`);
  console.log(`  DATABASE_URL=${postgres!.url}\n  REDIS_URL=${redis!.url}`);
  console.log('  Ctrl-C stops everything (the games go with the database)');
} catch (err) {
  console.error(`npm run hall: ${(err as Error).message}`);
  await stop(1);
}
