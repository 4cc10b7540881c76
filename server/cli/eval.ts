/**
 * `tilecam eval DIR… [--lang en|de] [--json] [--blanks-labelled-empty] [--errata FILE] [--debug DIR] [--model PATH]
 * [--sequence] [--labels DIR]`: reads every labelled photo below the folders (NAME.jpg|jpeg|png|webp beside NAME.txt
 * in board text) and measures the vision. `--labels DIR` takes the labels from another folder instead, at the same
 * path below it as the photo below its folder: for photos that may not be copied into the project, whose
 * hand-made labels are (fixtures/labels/). A photo whose board is not found counts all 225 of its squares as errors. A progress
 * bar goes to stderr when it is a terminal. A blank labelled with the letter it was named (lowercase, as the rendered
 * games' labels write it) is compared as `?`, the blank the vision reads: no photo shows a blank's named letter.
 *
 * `--blanks-labelled-empty` is for label sets that write a blank tile as `.` (kwwangkw-en says so of itself): a
 * square read as a blank is then compared as `.`, and how many were is reported as `blanksOnEmptyLabels`. Such labels
 * cannot tell a blank read right from an empty square read as a blank, so the figure says which comparison it is.
 * `--model` measures another cell model (an ONNX file with its metadata JSON beside it) instead of models/cells.onnx.
 * `--errata FILE` compares with the labels as corrected by a file of label errata (see errata.ts), for label sets
 * whose labels contradict their photos; the label files themselves are not changed, and how many squares were
 * corrected is reported as `labelsCorrected`. `--debug DIR` writes, for every photo with a wrong square, a sheet of
 * its wrong squares (each with its neighbours, upright, captioned with the label and the reading) for a person to
 * check by eye: that is how the errata were found.
 *
 * `--sequence` reads each folder as one steady camera instead of photo by photo: the photos of each folder that
 * holds some (a folder given, or each of its subfolders), in natural order (image-2 before image-10), go through one
 * `Camera`, which reads again only what changed since the frame before. Unlabelled photos feed the camera in their
 * place too; only labelled ones are compared. The result then also says which way the camera read its frames
 * (`sequence`: frames, cameras, paths, median squares read again and median ms per stage over all frames read).
 */
import type { Dirent } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { basename, dirname, join, relative } from 'node:path';
import cliProgress from 'cli-progress';
import {
  type BoardReading,
  Camera,
  type ReadPath,
  type RgbImage,
  recognize,
  type SheetSquare,
  VisionError,
  writeSquareSheet,
} from '../../vision/index.ts';
import { parseBoard, squareName } from '../engine/index.ts';
import { correctLabel, type Erratum, errataFor, parseErrata } from './errata.ts';
import { reportError, whyUnreadable } from './errors.ts';
import { outputFolder } from './folders.ts';
import { type CommandSpec, commandLine } from './options.ts';
import { readingOptionsOf } from './recognize.ts';

export interface EvalResult {
  images: number;
  detected: number;
  /** Of the boards found, those whose grid seemed not to lie on the board (BoardReading.gridDoubt): every square
   *  of theirs reported unsure, as the service refuses such a frame. */
  gridsInDoubt: number;
  cells: number;
  cellErrors: number;
  cellErrorRate: number;
  boardsPerfect: number;
  /** Squares read wrong without being reported unsure: the misreadings nobody would be asked about. */
  silentErrors: number;
  /** Squares read right but reported unsure: each would stop a game for a click although the reading was right. */
  unsureRight: number;
  msPerImageMedian: number;
  confusions: [string, string, number][];
  /** With `blanksLabelledEmpty`: squares read as a blank where the label says `.`, not counted as errors. */
  blanksOnEmptyLabels?: number;
  /** With `errata`: squares whose label was corrected before comparing. */
  labelsCorrected?: number;
  /** With `sequence`: how the steady cameras read their frames. */
  sequence?: SequenceFigures;
  /** Every photo with a wrong square, and its wrong squares (`9B E→? unsure`). */
  failures: { file: string; errors: number; reason?: string; squares: string[] }[];
}

/** How `--sequence` read: every frame fed to a camera (labelled or not), and medians over the frames read. */
export interface SequenceFigures {
  /** Photos fed to the cameras, labelled or not (a frame whose board was not found counts here, in no path). */
  frames: number;
  /** Folders read as one camera each. */
  cameras: number;
  paths: Record<ReadPath, number>;
  /** Frames with many squares changed, by how the grid was made sure of: its lines, or looked for again. */
  gridBy: { lines: number; search: number };
  cellsReadMedian: number;
  msMedian: BoardReading['ms'];
}

/** A photo: the image, its label file (a sequence's unlabelled photos have none), and a name for debug files (its
 *  path below the folder given). */
interface Item {
  image: string;
  label?: string;
  name: string;
}

/** Every photo below `dir`, labelled or not, in path order; its label beside it, or below `labels`. */
async function imagesBelow(dir: string, labels?: string): Promise<Item[]> {
  const out: Item[] = [];
  let entries: Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true, recursive: true });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT' ? 'no such folder' : code === 'ENOTDIR' ? 'not a folder' : (err as Error).message;
    throw new Error(`cannot read ${dir}: ${why}`);
  }
  const names = new Set(entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name)));
  const elsewhere = labels === undefined ? undefined : await labelsBelow(labels);
  for (const file of [...names].sort()) {
    const m = /^(.*)\.(jpe?g|png|webp)$/i.exec(file);
    if (!m) continue;
    const label = elsewhere
      ? elsewhere.has(`${relative(dir, m[1]!)}.txt`)
        ? join(labels!, `${relative(dir, m[1]!)}.txt`)
        : undefined
      : names.has(`${m[1]}.txt`)
        ? `${m[1]}.txt`
        : undefined;
    out.push({
      image: file,
      ...(label ? { label } : {}),
      name: relative(dir, m[1]!).replace(/[\\/]/g, '_'),
    });
  }
  return out;
}

/** The label files below `dir`, as paths relative to it. */
async function labelsBelow(dir: string): Promise<Set<string>> {
  try {
    const entries = await readdir(dir, { withFileTypes: true, recursive: true });
    return new Set(
      entries
        .filter((e) => e.isFile() && e.name.endsWith('.txt'))
        .map((e) => relative(dir, join(e.parentPath, e.name))),
    );
  } catch (err) {
    throw new Error(`cannot read the labels in ${dir}: ${whyUnreadable(err)}`);
  }
}

/**
 * What is read together: with `sequence`, the photos of each folder that holds some, in natural order (a folder
 * with no labelled photo is left out); otherwise each labelled photo on its own.
 */
async function groupsOf(dirs: string[], sequence: boolean, labels?: string): Promise<Item[][]> {
  const items = (await Promise.all(dirs.map((dir) => imagesBelow(dir, labels)))).flat();
  if (!sequence) return items.filter((i) => i.label).map((i) => [i]);
  const folders = new Map<string, Item[]>();
  for (const item of items) {
    const folder = dirname(item.image);
    if (!folders.has(folder)) folders.set(folder, []);
    folders.get(folder)!.push(item);
  }
  return [...folders.values()]
    .filter((group) => group.some((i) => i.label))
    .map((group) =>
      group.sort((a, b) => basename(a.image).localeCompare(basename(b.image), 'en', { numeric: true })),
    );
}

/** The upper median, as `msPerImageMedian` has always been taken. */
const median = (values: readonly number[]) =>
  values.length ? [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]! : 0;

export async function evaluate(
  dirs: string[],
  /** What the reading may report (`readingOptionsOf`): the tile set's letters and blanks. */
  set: { letters: string; blanks: number },
  onProgress?: (done: number, total: number) => void,
  {
    blanksLabelledEmpty = false,
    model,
    errata,
    debug,
    sequence = false,
    labels,
  }: {
    blanksLabelledEmpty?: boolean;
    model?: string;
    errata?: readonly Erratum[];
    debug?: string;
    sequence?: boolean;
    /** A folder of labels for the photos, instead of the labels beside them (`--labels`). */
    labels?: string;
  } = {},
): Promise<EvalResult> {
  const groups = await groupsOf(dirs, sequence, labels);
  const frames = groups.flat();
  const items = frames.filter((i): i is Item & { label: string } => i.label !== undefined);
  const corrections = new Map(items.map(({ label }) => [label, errata ? errataFor(errata, label) : []]));
  for (const e of errata ?? []) {
    const photos = items.filter(({ label }) => corrections.get(label)!.includes(e));
    if (photos.length > 1)
      throw new Error(
        `errata line ${e.line}: '${e.photo}' names ${photos.length} photos; give more of its path`,
      );
  }
  let corrected = 0;
  const confusions = new Map<string, number>();
  const times: number[] = [];
  const failures: EvalResult['failures'] = [];
  let detected = 0;
  let gridsInDoubt = 0;
  let cellErrors = 0;
  let perfect = 0;
  let silent = 0;
  let unsureRight = 0;
  let blanksOnEmpty = 0;
  const paths: Record<ReadPath, number> = { search: 0, hint: 0, still: 0, changed: 0 };
  const gridBy = { lines: 0, search: 0 };
  const cellsRead: number[] = [];
  const stages = {
    decode: [] as number[],
    locate: [] as number[],
    classify: [] as number[],
    total: [] as number[],
  };
  const options = { ...set, ...(model ? { model } : {}) };
  let done = 0;
  for (const group of groups) {
    const camera = sequence ? new Camera(options) : undefined;
    /** Reads a photo: through the folder's camera, or on its own with `recognize`. */
    const readPhoto = async (
      bytes: Uint8Array,
      inspect?: (board: RgbImage) => void,
    ): Promise<BoardReading> => {
      if (!camera)
        return recognize(bytes, {
          ...options,
          ...(inspect
            ? { inspect: (_photo: RgbImage, _corners: unknown, board: RgbImage) => inspect(board) }
            : {}),
        });
      const reading = await camera.read(bytes);
      paths[reading.path]++;
      if (reading.gridBy) gridBy[reading.gridBy]++;
      cellsRead.push(reading.cellsRead);
      for (const k of Object.keys(stages) as (keyof typeof stages)[]) stages[k].push(reading.ms[k]);
      return reading;
    };
    for (const { image, label, name } of group) {
      onProgress?.(done++, frames.length);
      if (label === undefined) {
        // An unlabelled photo of a sequence: the camera sees it in its place, nothing is compared.
        try {
          await readPhoto(await readFile(image));
        } catch (err) {
          if (!(err instanceof VisionError) || err.code === 'no-model') throw err;
        }
        continue;
      }
      const truth = parseBoard(await readFile(label, 'utf8'));
      if (!truth.ok) throw new Error(`${label}: ${truth.message}`);
      const fixed = correctLabel(truth.board.cells, corrections.get(label)!, label);
      if (!fixed.ok) throw new Error(fixed.message);
      const expected = fixed.cells;
      corrected += corrections.get(label)!.length;
      const started = performance.now();
      let reading: BoardReading | undefined;
      let read: string[] | undefined;
      let unsure = new Set<number>();
      let reason: string | undefined;
      let warped: RgbImage | undefined;
      let turns = 0;
      const bytes = await readFile(image);
      try {
        reading = await readPhoto(
          bytes,
          debug && !camera
            ? (board) => {
                warped = board;
              }
            : undefined,
        );
        turns = reading.rotation / 90;
        read = reading.board.join('').split('');
        unsure = new Set(reading.unsure.map((s) => s.row * 15 + s.col));
        detected++;
        if (reading.gridDoubt) gridsInDoubt++;
      } catch (err) {
        // A model that cannot be loaded is the command's failure, not 225 wrong squares of each photo.
        if (!(err instanceof VisionError) || err.code === 'no-model') throw err;
        reason = err.message;
      }
      times.push(performance.now() - started);
      let errors = 0;
      const squares: string[] = [];
      const sheet: SheetSquare[] = [];
      expected.forEach((written, k) => {
        // A blank labelled with the letter it stands for (lowercase, as the rendered games write it) is read right
        // as a blank: no photo shows which letter a blank was named.
        const t = written === written.toUpperCase() ? written : '?';
        const r = read?.[k] ?? '∅';
        if (r === t) {
          if (unsure.has(k)) unsureRight++;
          return;
        }
        if (blanksLabelledEmpty && r === '?' && t === '.') {
          blanksOnEmpty++;
          return;
        }
        errors++;
        if (read && !unsure.has(k)) silent++;
        if (read) {
          const [row, col] = [Math.floor(k / 15), k % 15];
          squares.push(`${squareName({ row, col })} ${t}→${r}${unsure.has(k) ? ' unsure' : ''}`);
          sheet.push({
            row,
            col,
            caption: `${squareName({ row, col })}: ${t} → ${r}${unsure.has(k) ? ' unsure' : ''}`,
          });
        }
        const key = `${t}\u0000${r}`;
        confusions.set(key, (confusions.get(key) ?? 0) + 1);
      });
      cellErrors += errors;
      if (debug && camera && reading && sheet.length) {
        // The camera shows no straightened board: the photo is straightened again on the grid it read (its corners,
        // upright, given as fixed corners), and that reading's own rotation says how the board lies in it.
        const again = await recognize(bytes, {
          ...options,
          corners: reading.corners,
          inspect: (_photo, _corners, board) => {
            warped = board;
          },
        });
        turns = again.rotation / 90;
      }
      if (debug && warped) await writeSquareSheet(debug, name, warped, turns, sheet);
      if (errors === 0) perfect++;
      else failures.push({ file: image, errors, ...(reason ? { reason } : {}), squares });
    }
  }
  onProgress?.(frames.length, frames.length);
  const cells = items.length * 225;
  return {
    images: items.length,
    detected,
    gridsInDoubt,
    cells,
    cellErrors,
    cellErrorRate: cells ? Math.round((cellErrors / cells) * 1e6) / 1e6 : 0,
    boardsPerfect: perfect,
    silentErrors: silent,
    unsureRight,
    msPerImageMedian: Math.round(median(times)),
    confusions: [...confusions.entries()]
      .map(([k, n]) => [...(k.split('\u0000') as [string, string]), n] as [string, string, number])
      .sort((a, b) => b[2] - a[2]),
    ...(blanksLabelledEmpty ? { blanksOnEmptyLabels: blanksOnEmpty } : {}),
    ...(errata ? { labelsCorrected: corrected } : {}),
    ...(sequence
      ? {
          sequence: {
            frames: frames.length,
            cameras: groups.length,
            paths,
            gridBy,
            cellsReadMedian: median(cellsRead),
            msMedian: {
              decode: median(stages.decode),
              locate: median(stages.locate),
              classify: median(stages.classify),
              total: median(stages.total),
            },
          },
        }
      : {}),
    failures,
  };
}

export const evalSpec = {
  synopsis: ['eval DIR… [options]'],
  summary: 'measure the vision on labelled photos (PHOTO.jpg beside PHOTO.txt)',
  options: {
    lang: { type: 'string', value: 'en|de', help: 'the tile set (default en)' },
    errata: { type: 'string', value: 'FILE', help: 'corrections to the labels (models/label-errata.txt)' },
    'blanks-labelled-empty': { type: 'boolean', help: 'labels that write blanks as empty squares' },
    sequence: { type: 'boolean', help: 'each folder as one steady camera, its photos in order' },
    labels: {
      type: 'string',
      value: 'DIR',
      help: "the labels from this folder, at the photos' paths (fixtures/labels/)",
    },
    debug: { type: 'string', value: 'DIR', help: "write each photo's grid and straightened board there" },
    model: { type: 'string', value: 'PATH', help: 'another ONNX model' },
    json: { type: 'boolean', help: 'print one JSON object' },
  },
  positionals: true,
} as const satisfies CommandSpec;

export async function evalCommand(args: string[]): Promise<number> {
  const line = commandLine(evalSpec, args);
  if (typeof line === 'number') return line;
  const { values, positionals, json } = line;
  if (positionals.length === 0) return reportError(json, 'eval needs at least one folder of labelled photos');
  const set = readingOptionsOf(values.lang ?? 'en');
  if (!set) return reportError(json, `unknown --lang '${values.lang}'`);
  let errata: Erratum[] | undefined;
  if (values.errata !== undefined) {
    let text: string;
    try {
      text = await readFile(values.errata, 'utf8');
    } catch (err) {
      return reportError(json, `cannot read the errata ${values.errata}: ${(err as Error).message}`);
    }
    const parsed = parseErrata(text);
    if (!parsed.ok) return reportError(json, `${values.errata}: ${parsed.message}`);
    errata = parsed.errata;
  }
  if (values.debug !== undefined) {
    const problem = await outputFolder(values.debug);
    if (problem) return reportError(json, `--debug: ${problem}`);
  }
  const bar = process.stderr.isTTY
    ? new cliProgress.SingleBar({ stream: process.stderr }, cliProgress.Presets.shades_classic)
    : undefined;
  let result: EvalResult;
  try {
    result = await evaluate(
      positionals,
      set,
      (done, total) => {
        if (!bar) return;
        if (done === 0) bar.start(total, 0);
        else bar.update(done);
      },
      {
        blanksLabelledEmpty: values['blanks-labelled-empty'] === true,
        ...(values.model ? { model: values.model } : {}),
        ...(errata ? { errata } : {}),
        ...(values.debug ? { debug: values.debug } : {}),
        sequence: values.sequence === true,
        ...(values.labels ? { labels: values.labels } : {}),
      },
    );
  } catch (err) {
    bar?.stop();
    return reportError(json, (err as Error).message);
  }
  bar?.stop();
  if (result.images === 0)
    return reportError(json, `no labelled photos (NAME.jpg beside NAME.txt) under ${positionals.join(', ')}`);
  if (json) {
    const { failures: _, ...contract } = result;
    process.stdout.write(`${JSON.stringify(contract)}\n`);
  } else {
    const r = result;
    process.stdout.write(
      `${r.images} photos: board found in ${r.detected}${r.gridsInDoubt ? ` (its grid in doubt in ${r.gridsInDoubt}: every square unsure)` : ''}; ${r.cellErrors} of ${r.cells} squares wrong (${(100 * r.cellErrorRate).toFixed(2)}%); ` +
        `${r.boardsPerfect} read perfectly; ${r.silentErrors} wrong squares not reported unsure; ${r.unsureRight} right squares reported unsure; median ${r.msPerImageMedian} ms a photo\n`,
    );
    if (r.blanksOnEmptyLabels !== undefined)
      process.stdout.write(
        `${r.blanksOnEmptyLabels} squares read as a blank where the label says '.', not counted (--blanks-labelled-empty)\n`,
      );
    if (r.labelsCorrected !== undefined)
      process.stdout.write(
        `${r.labelsCorrected} squares compared with the label as corrected by ${values.errata}\n`,
      );
    if (r.sequence) {
      const q = r.sequence;
      const m = q.msMedian;
      process.stdout.write(
        `as ${q.cameras} steady camera${q.cameras === 1 ? '' : 's'}: ${q.frames} frames read ` +
          `(search ${q.paths.search}, hint ${q.paths.hint}, still ${q.paths.still}, changed ${q.paths.changed}; ` +
          `many squares changed: grid kept by its lines ${q.gridBy.lines}, looked for again ${q.gridBy.search}); ` +
          `median ${q.cellsReadMedian} squares classified a frame; median ms a frame: decode ${m.decode}, ` +
          `locate ${m.locate}, classify ${m.classify}, total ${m.total}\n`,
      );
    }
    if (r.confusions.length) {
      process.stdout.write(
        `confusions (truth → read × count): ${r.confusions
          .slice(0, 25)
          .map(([t, g, n]) => `${t}→${g}×${n}`)
          .join(' ')}\n`,
      );
    }
    for (const f of r.failures.slice(0, 40)) {
      const squares =
        f.squares.length <= 12 ? f.squares.join(', ') : `${f.squares.slice(0, 12).join(', ')}, …`;
      process.stdout.write(
        `  ${f.file}: ${f.errors} wrong${f.reason ? ` (${f.reason})` : ''}${squares ? `: ${squares}` : ''}\n`,
      );
    }
    if (r.failures.length > 40) process.stdout.write(`  … and ${r.failures.length - 40} more photos\n`);
  }
  return 0;
}
