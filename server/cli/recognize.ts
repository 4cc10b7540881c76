/**
 * `tilecam recognize IMAGE [options]` (`recognizeSpec`): reads one photo.
 * Exit 1 with a clear message when the image cannot be read or holds no board.
 */
import { readFile } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import {
  type Corners,
  loadModel,
  orderCorners,
  type RackReading,
  type RgbImage,
  readRack,
  recognize,
  VisionError,
  writeDebugImages,
  writeSquareSheet,
} from '../../vision/index.ts';
import { isTileSetId, squareName } from '../engine/index.ts';
import { readingOptions } from '../service/index.ts';
import { reportError, whyUnreadable } from './errors.ts';
import { outputFolder } from './folders.ts';
import { type CommandSpec, commandLine } from './options.ts';

/** What a reading of a board of the tile set `--lang` may report (see the service's `readingOptions`). */
export function readingOptionsOf(lang: string): { letters: string; blanks: number } | undefined {
  return isTileSetId(lang) ? readingOptions(lang) : undefined;
}

export function parseCorners(text: string): Corners | undefined {
  const n = text.split(',').map((v) => Number(v.trim()));
  if (n.length !== 8 || n.some((v) => !Number.isFinite(v))) return undefined;
  return [
    [n[0]!, n[1]!],
    [n[2]!, n[3]!],
    [n[4]!, n[5]!],
    [n[6]!, n[7]!],
  ];
}

export const recognizeSpec = {
  synopsis: ['recognize IMAGE [options]'],
  summary: 'read a photo of a board: its board text, confidences and the squares in doubt',
  options: {
    lang: { type: 'string', value: 'en|de', help: 'the tile set (default en)' },
    corners: {
      type: 'string',
      value: 'x1,y1,…,x4,y4',
      help: "the board's corners in the photo, when it is not found",
    },
    debug: {
      type: 'string',
      value: 'DIR',
      help: 'write the grid, the straightened board and the squares in doubt there',
    },
    model: { type: 'string', value: 'PATH', help: 'another ONNX model' },
    rack: {
      type: 'boolean',
      help: "also read the rack in front of the board (a camera at a player's seat)",
    },
    json: { type: 'boolean', help: 'print one JSON object' },
  },
  positionals: true,
} as const satisfies CommandSpec;

export async function recognizeCommand(args: string[]): Promise<number> {
  const line = commandLine(recognizeSpec, args);
  if (typeof line === 'number') return line;
  const { values, positionals, json } = line;
  if (positionals.length !== 1) return reportError(json, 'recognize needs exactly one image');
  const set = readingOptionsOf(values.lang ?? 'en');
  if (!set) return reportError(json, `unknown --lang '${values.lang}'`);
  const corners = values.corners === undefined ? undefined : parseCorners(values.corners);
  if (values.corners !== undefined && !corners)
    return reportError(json, '--corners needs 8 numbers: x1,y1,x2,y2,x3,y3,x4,y4');
  const file = positionals[0]!;
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (err) {
    return reportError(json, `cannot read ${file}: ${whyUnreadable(err)}`);
  }
  const debug = values.debug;
  if (debug !== undefined) {
    const problem = await outputFolder(debug);
    if (problem) return reportError(json, `--debug: ${problem}`);
  }
  try {
    const name = basename(file, extname(file));
    let straightened: RgbImage | undefined;
    let seen: { photo: RgbImage; corners: Corners } | undefined;
    const reading = await recognize(bytes, {
      ...set,
      ...(corners ? { corners } : {}),
      ...(values.model ? { model: values.model } : {}),
      ...(debug || values.rack
        ? {
            inspect: async (photo: RgbImage, c: Corners, warped: RgbImage) => {
              straightened = warped;
              seen = { photo, corners: c };
              if (debug) await writeDebugImages(debug, name, photo, c, warped);
            },
          }
        : {}),
    });
    // The rack: in front of the picture's lower edge of the grid (the corners as the picture shows them).
    let rack: RackReading | undefined;
    if (values.rack && seen) {
      const inView = orderCorners([...seen.corners]) as unknown as Corners;
      rack = await readRack(seen.photo, inView, await loadModel(values.model), [...set.letters]);
    }
    const rackText = rack
      ? rack.tiles.map((t) => (t.sure ? t.letter : `${t.letter}*`)).join(' ')
      : 'none seen';
    // The squares it is unsure of, each upright with its neighbours, for a person to look at.
    if (debug && straightened) {
      const sheet = reading.unsure.map(({ row, col }) => ({
        row,
        col,
        caption: `${squareName({ row, col })}: ${reading.board[row]![col]} at ${reading.confidence[row]![col]!.toFixed(2)}`,
      }));
      await writeSquareSheet(debug, name, straightened, reading.rotation / 90, sheet, 'unsure');
    }
    if (json) {
      const { board, confidence, corners: found, rotation, ms, unsure, gridDoubt } = reading;
      const rackJson = values.rack
        ? {
            rack: rack
              ? rack.tiles.map(({ letter, confidence, sure }) => ({ letter, confidence, sure }))
              : null,
          }
        : {};
      process.stdout.write(
        `${JSON.stringify({ board, confidence, corners: found, rotation, ms, unsure, ...(gridDoubt ? { gridDoubt } : {}), ...rackJson })}\n`,
      );
    } else {
      process.stdout.write(`${reading.board.join('\n')}\n`);
      if (reading.gridDoubt) process.stdout.write(`grid in doubt: ${reading.gridDoubt}\n`);
      const doubts = reading.unsure.map(squareName);
      process.stdout.write(
        `rotation ${reading.rotation}°; unsure: ${doubts.length ? doubts.join(' ') : 'none'}\n`,
      );
      if (values.rack) process.stdout.write(`rack: ${rackText}\n`);
      process.stdout.write(
        `ms: decode ${reading.ms.decode}, locate ${reading.ms.locate}, classify ${reading.ms.classify}, total ${reading.ms.total}\n`,
      );
    }
    return 0;
  } catch (err) {
    if (err instanceof VisionError) return reportError(json, `${file}: ${err.message}`, { code: err.code });
    throw err;
  }
}
