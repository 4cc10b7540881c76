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

/**
 * Each command's help: what it takes (`synopsis`, after `tilecam`), what it does (one line), and its options, one a
 * line. Every line printed is at most HELP_WIDTH characters (a test holds it), so that help reads in any terminal.
 */
interface CommandHelp {
  readonly run: Command;
  readonly synopsis: readonly string[];
  readonly summary: string;
  readonly options: readonly (readonly [string, string])[];
}

export const HELP_WIDTH = 100;

const commands: Record<string, CommandHelp> = {
  serve: {
    run: serveCommand,
    synopsis: ['serve [options]'],
    summary: 'the service: the pages, the API and the cameras (also `npm start`)',
    options: [
      ['--port 3000', 'the port to listen on (0: any free port)'],
      ['--host 0.0.0.0', 'the interface to listen on (127.0.0.1: this machine only)'],
      ['--db FILE|postgres://…', 'the database (default DATABASE_URL, else data/tilecam.db)'],
      ['--redis redis://…', 'several instances on one Redis (default REDIS_URL)'],
      ['--queue', 'hand the frames to `tilecam worker` processes (with --redis)'],
      ['--sources none|public|lan|any', 'where camera streams may be pulled from (default lan)'],
      ['--limit NAME=N', 'a limit (README, "Security"); repeatable'],
      ['--json', 'print { port, url, lan } once listening'],
    ],
  },
  worker: {
    run: workerCommand,
    synopsis: ['worker [options]'],
    summary: 'read the frames that instances started with --queue hand over',
    options: [
      ['--db postgres://…', "the instances' database (default DATABASE_URL)"],
      ['--redis redis://…', "the instances' Redis (default REDIS_URL)"],
      ['--limit NAME=N', 'the same limits as the instances; repeatable'],
      ['--json', 'print one JSON line once ready'],
    ],
  },
  recognize: {
    run: recognizeCommand,
    synopsis: ['recognize IMAGE [options]'],
    summary: 'read a photo of a board: its board text, confidences and the squares in doubt',
    options: [
      ['--lang en|de', 'the tile set (default en)'],
      ['--corners x1,y1,…,x4,y4', "the board's corners in the photo, when it is not found"],
      ['--debug DIR', 'write the grid, the straightened board and the squares in doubt there'],
      ['--model PATH', 'another ONNX model'],
      ['--json', 'print one JSON object'],
    ],
  },
  eval: {
    run: evalCommand,
    synopsis: ['eval DIR… [options]'],
    summary: 'measure the vision on labelled photos (PHOTO.jpg beside PHOTO.txt)',
    options: [
      ['--lang en|de', 'the tile set (default en)'],
      ['--errata FILE', 'corrections to the labels (models/label-errata.txt)'],
      ['--blanks-labelled-empty', 'labels that write blanks as empty squares'],
      ['--sequence', 'each folder as one steady camera, its photos in order'],
      ['--labels DIR', "the labels from this folder, at the photos' paths (fixtures/labels/)"],
      ['--debug DIR', "write each photo's grid and straightened board there"],
      ['--model PATH', 'another ONNX model'],
      ['--json', 'print one JSON object'],
    ],
  },
  feed: {
    run: feedCommand,
    synopsis: ['feed GAME PHOTO|DIR… --token TOKEN [options]'],
    summary: 'play photos into a game in natural order, each as an End turn (a held move stops it: exit 2)',
    options: [
      ['--token TOKEN', "the game's scorekeeper token (from its link, after #)"],
      ['--url URL', 'the server (default http://localhost:3000)'],
      ['--from PHOTO', 'start at this photo (once a held move is confirmed)'],
      ['--json', 'print one JSON object'],
    ],
  },
  demo: {
    run: demoCommand,
    synopsis: ['demo [--port 3000] [--db FILE]'],
    summary: 'start the service and play a rendered game into it (no camera needed)',
    options: [],
  },
  verify: {
    run: verifyCommand,
    synopsis: ['verify BEFORE AFTER [options]', 'verify AFTER --move "QI H7" [options]'],
    summary: "check a move's score from photos: before and after it, or after it and the move as announced",
    options: [
      ['--move "H7 QI 22"', 'the move as announced (points with it are the claim)'],
      ['--claimed N', 'the points claimed'],
      ['--lang en|de', 'the tile set (default en; a German board needs de)'],
      ['--variant classic|nine-tile|finish-line|uk', 'the rules (default classic)'],
      ['--json', 'print one JSON object'],
    ],
  },
  replay: {
    run: replayCommand,
    synopsis: ['replay FILE.gcg… [options]'],
    summary: "rescore recorded games: every line's points computed from its tiles",
    options: [
      ['--lang en|de|fr|nl|pl', 'the tile set (default: guessed from the letters)'],
      ['--end-rack double|seeds', 'how racks left at the end count'],
      ['--json', 'print one JSON object'],
    ],
  },
};

/** One command's help: its synopsis lines, what it does, its options aligned. */
export function commandHelp(name: string): string {
  const c = commands[name];
  if (!c) throw new Error(`no command '${name}'`);
  const width = Math.max(0, ...c.options.map(([o]) => o.length));
  return [
    ...c.synopsis.map((line, k) => `${k === 0 ? 'usage: ' : '       '}tilecam ${line}`),
    '',
    c.summary,
    ...(c.options.length > 0
      ? ['', 'options:', ...c.options.map(([o, what]) => `  ${o.padEnd(width)}  ${what}`)]
      : []),
    '',
  ].join('\n');
}

const usage = [
  'usage: tilecam <command> [options]   (tilecam <command> --help: its options)',
  '',
  ...Object.values(commands).flatMap((c) => [
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
