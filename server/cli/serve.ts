/**
 * `tilecam serve [--port 3000] [--host 0.0.0.0] [--db FILE] [--sources lan] [--limit NAME=VALUE …]`: starts the
 * service and prints where to find it.
 */
import { parseArgs } from 'node:util';
import {
  defaultLimits,
  type Limits,
  parseLimits,
  type SourcePolicy,
  sourcePolicies,
} from '../service/limits.ts';
import { reportError } from './errors.ts';

export interface ServerArgs {
  port: number;
  /** The interface to listen on: 0.0.0.0 (every one: phones on the LAN can connect) or 127.0.0.1 (this machine). */
  host: string;
  db?: string;
  sources: SourcePolicy;
  limits: Limits;
}

/** Options shared by `serve` and `demo`; throws with a clear message. */
export function parseServerArgs(args: string[], allowJson: boolean): ServerArgs {
  const { values } = parseArgs({
    args,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      db: { type: 'string' },
      sources: { type: 'string' },
      limit: { type: 'string', multiple: true },
      ...(allowJson ? { json: { type: 'boolean' as const } } : {}),
    },
  });
  const port = values.port === undefined ? 3000 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`--port must be 0–65535, got '${values.port}'`);
  const host = values.host ?? '0.0.0.0';
  if (!/^[\w.:-]{1,253}$/.test(host))
    throw new Error(`--host must be an address or host name, got '${host}'`);
  const sources = (values.sources ?? 'lan') as SourcePolicy;
  if (!sourcePolicies.includes(sources))
    throw new Error(`--sources must be one of ${sourcePolicies.join(', ')}, got '${values.sources}'`);
  return {
    port,
    host,
    sources,
    limits: parseLimits(values.limit ?? [], defaultLimits),
    ...(typeof values.db === 'string' ? { db: values.db } : {}),
  };
}

export async function serveCommand(args: string[]): Promise<number> {
  const json = args.includes('--json');
  let options: ServerArgs;
  try {
    options = parseServerArgs(args, true);
  } catch (err) {
    return reportError(json, (err as Error).message);
  }
  const { startServer } = await import('../http/app.ts');
  const server = await startServer(options);
  const base = `http://localhost:${server.port}`;
  if (json) process.stdout.write(`${JSON.stringify({ port: server.port, url: `${base}/` })}\n`);
  else {
    process.stdout.write(`tilecam is running: ${base}/\n`);
    process.stdout.write(
      `  scoreboard and scorekeeper: ${base}/   API: ${base}/api/games   WebSocket: ws://localhost:${server.port}/ws?game=ID\n`,
    );
    process.stdout.write(
      options.host === '0.0.0.0' || options.host === '::'
        ? `  listening on every interface: anyone on this network can watch (--host 127.0.0.1 for this machine only)\n`
        : `  listening on ${options.host} only\n`,
    );
  }
  const stop = async () => {
    await server.close();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  return new Promise<number>(() => {});
}
