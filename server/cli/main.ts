/**
 * The command line: `tilecam <command> …`. Each command lives in its own module and returns an exit code;
 * with `--json` a command prints exactly one JSON object on stdout.
 */
import { evalCommand } from './eval.ts';
import { demoCommand, feedCommand } from './feed.ts';
import { recognizeCommand } from './recognize.ts';
import { replayCommand } from './replay.ts';
import { serveCommand } from './serve.ts';
import { verifyCommand } from './verify.ts';
import { workerCommand } from './worker.ts';

export type Command = (args: string[]) => Promise<number>;

const commands: Record<string, { run: Command; help: string }> = {
  serve: {
    run: serveCommand,
    help: 'serve [--port 3000] [--host 0.0.0.0] [--db FILE|postgres://…] [--redis redis://…] [--queue] [--sources none|public|lan|any] [--limit NAME=N …]   the service (also `npm start`)',
  },
  worker: {
    run: workerCommand,
    help: 'worker [--db postgres://…] [--redis redis://…] [--json]   read the frames instances started with --queue hand over',
  },
  recognize: {
    run: recognizeCommand,
    help: 'recognize IMAGE [--json] [--lang en|de] [--corners x1,y1,…,x4,y4] [--debug DIR]   read a photo of a board',
  },
  eval: {
    run: evalCommand,
    help: 'eval DIR… [--json] [--lang en|de] [--blanks-labelled-empty] [--errata FILE] [--debug DIR] [--model PATH] [--sequence]   measure the vision on labelled photos (--sequence: each folder as one steady camera)',
  },
  feed: {
    run: feedCommand,
    help: 'feed GAME DIR… --token TOKEN [--url URL] [--from PHOTO] [--json]   play photos into a game, in order (a move held for the scorekeeper stops it: exit 2)',
  },
  demo: {
    run: demoCommand,
    help: 'demo [--port 3000] [--db FILE]   start the service and play a rendered game into it',
  },
  verify: {
    run: verifyCommand,
    help: 'verify BEFORE AFTER [--claimed N] [--lang en|de] [--variant classic|…] [--json]   check a move\'s score from photos\n  tilecam verify AFTER --move "QI H7" [--claimed N] …   check an announced move against the photo after it',
  },
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
