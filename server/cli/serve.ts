/** `tilecam serve [--port 3000] [--db FILE]`: starts the service. */
import { parseArgs } from 'node:util';
import { reportError } from './errors.ts';

export async function serveCommand(args: string[]): Promise<number> {
  let port = 3000;
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
  } catch (err) {
    return reportError(args.includes('--json'), (err as Error).message);
  }
  const { startServer } = await import('../http/app.ts');
  const server = await startServer({ port });
  process.stdout.write(`tilecam is running: http://localhost:${server.port}/\n`);
  return new Promise<number>(() => {});
}
