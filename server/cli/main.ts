/**
 * The command line: `tilecam <command> …`. Each command lives in its own module and returns an exit code;
 * with `--json` a command prints exactly one JSON object on stdout.
 */
import { analyzeCommand, analyzeSpec } from './analyze.ts';
import { evalCommand, evalSpec } from './eval.ts';
import { demoCommand, feedCommand, feedSpec } from './feed.ts';
import { type CommandSpec, optionLines } from './options.ts';
import { recognizeCommand, recognizeSpec } from './recognize.ts';
import { replayCommand, replaySpec } from './replay.ts';
import { demoSpec, serveCommand, serveSpec } from './serve.ts';
import { verifyCommand, verifySpec } from './verify.ts';
import { workerCommand, workerSpec } from './worker.ts';

export type Command = (args: string[]) => Promise<number>;

/**
 * Each command and its spec (options.ts): what it takes, what it does, its options. The help is printed from the
 * spec the command parses by. Every line printed is at most HELP_WIDTH characters (a test holds it), so that help
 * reads in any terminal.
 */
const commands: Record<string, { readonly run: Command; readonly spec: CommandSpec }> = {
  serve: { run: serveCommand, spec: serveSpec },
  worker: { run: workerCommand, spec: workerSpec },
  recognize: { run: recognizeCommand, spec: recognizeSpec },
  eval: { run: evalCommand, spec: evalSpec },
  feed: { run: feedCommand, spec: feedSpec },
  demo: { run: demoCommand, spec: demoSpec },
  verify: { run: verifyCommand, spec: verifySpec },
  replay: { run: replayCommand, spec: replaySpec },
  analyze: { run: analyzeCommand, spec: analyzeSpec },
};

export const HELP_WIDTH = 100;

/** One command's help: its synopsis lines, what it does, its options aligned. */
export function commandHelp(name: string): string {
  const c = commands[name]?.spec;
  if (!c) throw new Error(`no command '${name}'`);
  const options = optionLines(c.options);
  const width = Math.max(0, ...options.map(([o]) => o.length));
  return [
    ...c.synopsis.map((line, k) => `${k === 0 ? 'usage: ' : '       '}tilecam ${line}`),
    '',
    c.summary,
    ...(options.length > 0
      ? ['', 'options:', ...options.map(([o, what]) => `  ${o.padEnd(width)}  ${what}`)]
      : []),
    '',
  ].join('\n');
}

const usage = [
  'usage: tilecam <command> [options]   (tilecam <command> --help: its options)',
  '',
  ...Object.values(commands).flatMap(({ spec: c }) => [
    ...c.synopsis.map((line) => `  tilecam ${line}`),
    `      ${c.summary}`,
  ]),
  '',
].join('\n');

/** Every help text the command prints, for the test of its width. */
export function allHelp(): string[] {
  return [usage, ...Object.keys(commands).map(commandHelp)];
}

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
  if (rest.includes('--help') || rest.includes('-h')) {
    process.stdout.write(commandHelp(name));
    return 0;
  }
  return command.run(rest);
}
