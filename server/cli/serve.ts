/**
 * `tilecam serve [options]` (`serveSpec`): starts the service and prints where to find it.
 */
import { networkInterfaces } from 'node:os';
import { trustProxyOf } from '../http/trust.ts';
import {
  defaultLimits,
  type Limits,
  parseLimits,
  rackReader,
  type SourcePolicy,
  sourcePolicies,
} from '../service/index.ts';
import { argsError, reportError } from './errors.ts';
import { type CommandSpec, type OptionSpec, parseCommand } from './options.ts';

export interface ServerArgs {
  port: number;
  /** The interface to listen on: 0.0.0.0 (every one: phones on the LAN can connect) or 127.0.0.1 (this machine). */
  host: string;
  db?: string;
  redis?: string;
  /** Frames and actions go to `tilecam worker` processes (over --redis). */
  queue?: boolean;
  sources: SourcePolicy;
  limits: Limits;
  /** The load balancers whose X-Forwarded-For names the client (`--trust-proxy` or TILECAM_TRUST_PROXY, checked by
   *  http/trust.ts; without it the header is ignored: a client cannot escape its limits by writing one). */
  trustProxy?: number | string;
}

/** The options of `serve`, and of `demo` but for --json. */
const serverOptions = {
  port: { type: 'string', value: '3000', help: 'the port to listen on (0: any free port)' },
  host: {
    type: 'string',
    value: '0.0.0.0',
    help: 'the interface to listen on (127.0.0.1: this machine only)',
  },
  db: {
    type: 'string',
    value: 'FILE|postgres://…',
    help: 'the database (default DATABASE_URL, else data/tilecam.db)',
  },
  redis: { type: 'string', value: 'redis://…', help: 'several instances on one Redis (default REDIS_URL)' },
  queue: { type: 'boolean', help: 'hand the frames to `tilecam worker` processes (with --redis)' },
  sources: {
    type: 'string',
    value: 'none|public|lan|any',
    help: 'where camera streams may be pulled from (default lan)',
  },
  'trust-proxy': {
    type: 'string',
    value: 'N|ADDRESSES',
    help: 'the proxies to trust for X-Forwarded-For (TILECAM_TRUST_PROXY)',
  },
  limit: {
    type: 'string',
    multiple: true,
    value: 'NAME=N',
    help: 'a limit (docs/operations.md, "Security")',
  },
} as const satisfies Record<string, OptionSpec>;

export const serveSpec = {
  synopsis: ['serve [options]'],
  summary: 'the service: the pages, the API and the cameras (also `npm start`)',
  options: { ...serverOptions, json: { type: 'boolean', help: 'print { port, url, lan } once listening' } },
  positionals: false,
} as const satisfies CommandSpec;

export const demoSpec = {
  synopsis: ['demo [options]'],
  summary: 'start the service and play a rendered game into it (no camera needed)',
  options: serverOptions,
  positionals: false,
} as const satisfies CommandSpec;

/** Options shared by `serve` and `demo` (which has no --json); throws with a clear message. */
export function parseServerArgs(args: string[], allowJson: boolean): ServerArgs {
  const spec: CommandSpec<typeof serverOptions> = allowJson ? serveSpec : demoSpec;
  const { values } = parseCommand(spec, args);
  const port = values.port === undefined ? 3000 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`--port must be 0–65535, got '${values.port}'`);
  const host = values.host ?? '0.0.0.0';
  if (!/^[\w.:-]{1,253}$/.test(host))
    throw new Error(`--host must be an address or host name, got '${host}'`);
  const sources = (values.sources ?? 'lan') as SourcePolicy;
  if (!sourcePolicies.includes(sources))
    throw new Error(`--sources must be one of ${sourcePolicies.join(', ')}, got '${values.sources}'`);
  // An empty TILECAM_TRUST_PROXY is none, as an empty REDIS_URL is.
  const trust = values['trust-proxy'] ?? (process.env.TILECAM_TRUST_PROXY?.trim() || undefined);
  return {
    port,
    host,
    sources,
    limits: parseLimits(values.limit ?? [], defaultLimits),
    ...(trust !== undefined ? { trustProxy: trustProxyOf(trust) } : {}),
    ...(typeof values.db === 'string' ? { db: values.db } : {}),
    ...(typeof values.redis === 'string' ? { redis: values.redis } : {}),
    ...(values.queue ? { queue: true } : {}),
  };
}

export async function serveCommand(args: string[]): Promise<number> {
  const json = args.includes('--json');
  let options: ServerArgs;
  try {
    options = parseServerArgs(args, true);
  } catch (err) {
    return reportError(json, argsError(err));
  }
  const { startServer, StoreOpenError } = await import('../http/app.ts');
  let server: Awaited<ReturnType<typeof startServer>>;
  try {
    server = await startServer(options);
  } catch (err) {
    if (err instanceof StoreOpenError) return reportError(json, err.message);
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE')
      return reportError(
        json,
        `port ${options.port} is taken (another tilecam, or another program): choose another with --port N, or --port 0 for any free one`,
      );
    if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND')
      return reportError(json, `--host ${options.host} is not an address of this machine`);
    if (code === 'EACCES')
      return reportError(json, `port ${options.port} needs privileges: choose one above 1023 with --port N`);
    throw err;
  }
  // A server that reads its cameras' frames itself is ready to read them when it says it listens.
  if (!(options.queue ?? process.env.TILECAM_QUEUE === '1'))
    await (await import('../service/game/frames.ts')).prepareReading();
  const base = `http://localhost:${server.port}`;
  const everywhere = options.host === '0.0.0.0' || options.host === '::';
  const lan = everywhere ? lanAddresses().map((a) => `http://${a}:${server.port}/`) : [];
  if (json) process.stdout.write(`${JSON.stringify({ port: server.port, url: `${base}/`, lan })}\n`);
  else {
    process.stdout.write(`tilecam is running: ${base}/\n`);
    if (lan.length > 0) process.stdout.write(`  on this network (a phone at the table): ${lan.join('  ')}\n`);
    process.stdout.write(
      `  scoreboard and scorekeeper: ${base}/   API: ${base}/api/games   WebSocket: ws://localhost:${server.port}/ws?game=ID\n`,
    );
    process.stdout.write(
      everywhere
        ? `  listening on every interface: anyone on this network can watch (--host 127.0.0.1 for this machine only)\n`
        : `  listening on ${options.host} only\n`,
    );
  }
  const stop = async () => {
    // Gone within a few seconds even when Redis or the database is away (closing waits on them).
    setTimeout(() => process.exit(0), 5000).unref();
    await server.close();
    // The rack read in flight, if any, done: a process that exits while onnxruntime runs one in a thread aborts
    // (worker-queue.ts). A read that takes longer than the 5 s above is cut off with the process all the same.
    await rackReader.close();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  return new Promise<number>(() => {});
}

/** This machine's IPv4 addresses on its networks (not loopback). */
export function lanAddresses(): string[] {
  return Object.values(networkInterfaces())
    .flat()
    .flatMap((a) => (a && a.family === 'IPv4' && !a.internal ? [a.address] : []));
}
