/** `tilecam serve [--port 3000] [--db FILE]`: starts the service and prints where to find it. */
import { parseArgs } from 'node:util';
import { reportError } from './errors.ts';

export async function serveCommand(args: string[]): Promise<number> {
  const json = args.includes('--json');
  let port = 3000;
  let db: string | undefined;
  try {
    const { values } = parseArgs({
      args,
      options: { port: { type: 'string' }, db: { type: 'string' }, json: { type: 'boolean' } },
    });
    if (values.port !== undefined) {
      port = Number(values.port);
      if (!Number.isInteger(port) || port < 0 || port > 65535)
        throw new Error(`--port must be 0–65535, got '${values.port}'`);
    }
    db = values.db;
  } catch (err) {
    return reportError(json, (err as Error).message);
  }
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
