/**
 * The command line: `tilecam <command> …`. Each command lives in its own module and returns an exit code;
 * with `--json` a command prints exactly one JSON object on stdout.
 */
import { replayCommand } from './replay.ts';
import { serveCommand } from './serve.ts';

export type Command = (args: string[]) => Promise<number>;

const commands: Record<string, { run: Command; help: string }> = {
  serve: { run: serveCommand, help: 'serve [--port 3000] [--db FILE]   the service (also `npm start`)' },
  replay: {
    run: replayCommand,
    help: 'replay FILE.gcg… [--json] [--lang en|de|fr|nl|pl]   rescore recorded games',
  },
};

const usage = `usage: tilecam <command> [options]\n\n${Object.values(commands)
  .map((c) => `  tilecam ${c.help}`)
  .join('\n')}\n`;

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(usage);
    return name === undefined ? 1 : 0;
  }
  const command = commands[name];
  if (!command) {
    process.stderr.write(`tilecam: unknown command '${name}'\n\n${usage}`);
    return 1;
  }
  return command.run(rest);
}
