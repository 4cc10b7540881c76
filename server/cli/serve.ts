/** `tilecam serve [--port 3000] [--db FILE]`: starts the service and prints where to find it. */
import { parseArgs } from 'node:util';
import { reportError } from './errors.ts';

export interface ServerArgs {
  port: number;
  db?: string;
}

/** `--port` (0–65535, default 3000) and `--db FILE`, shared by `serve` and `demo`; throws with a clear message. */
export function parseServerArgs(args: string[], allowJson: boolean): ServerArgs {
  const { values } = parseArgs({
    args,
    options: {
      port: { type: 'string' },
      db: { type: 'string' },
      ...(allowJson ? { json: { type: 'boolean' as const } } : {}),
    },
  });
  const port = values.port === undefined ? 3000 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`--port must be 0–65535, got '${values.port}'`);
  return { port, ...(typeof values.db === 'string' ? { db: values.db } : {}) };
}

export async function serveCommand(args: string[]): Promise<number> {
  const json = args.includes('--json');
  let options: ServerArgs;
  try {
    options = parseServerArgs(args, true);
  } catch (err) {
    return reportError(json, (err as Error).message);
  }
  const { port, db } = options;
  const { startServer } = await import('../http/app.ts');
  const server = await startServer({ port, ...(db ? { db } : {}) });
  const base = `http://localhost:${server.port}`;
  if (json) process.stdout.write(`${JSON.stringify({ port: server.port, url: `${base}/` })}\n`);
  else {
    process.stdout.write(`tilecam is running: ${base}/\n`);
    process.stdout.write(
      `  scoreboard and scorekeeper: ${base}/   API: ${base}/api/games   WebSocket: ws://localhost:${server.port}/ws?game=ID\n`,
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
