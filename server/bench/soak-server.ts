/**
 * The server under test of `npm run bench:soak`, in a process of its own: the real service on a loopback port with
 * a temporary SQLite file, measuring its own event-loop delay (perf_hooks) and memory for the bench over IPC.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { startServer } from '../http/app.ts';

// The histogram records each interval between its 1 ms timer's turns: the delay plus about 1 ms.
const delay = monitorEventLoopDelay({ resolution: 1 });
delay.enable();
const server = await startServer({
  port: 0,
  host: '127.0.0.1',
  db: join(mkdtempSync(join(tmpdir(), 'tilecam-soak-')), 'games.db'),
  heartbeatMs: 1000,
});
const ms = (ns: number) => Math.round(ns / 1e5) / 10;
process.on('message', (m: { type: string }) => {
  if (m.type === 'stats') {
    globalThis.gc?.();
    const { rss, heapUsed } = process.memoryUsage();
    process.send!({
      type: 'stats',
      rssMb: Math.round(rss / 1048576),
      heapMb: Math.round(heapUsed / 1048576),
      delay: { p50: ms(delay.percentile(50)), p99: ms(delay.percentile(99)), max: ms(delay.max) },
      loaded: server.service.loaded,
    });
    delay.reset();
  }
  if (m.type === 'stop') void server.close().then(() => process.exit(0));
});
process.send!({ type: 'ready', port: server.port });
