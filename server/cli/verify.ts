/**
 * `tilecam verify BEFORE AFTER [--claimed N] [--lang en|de] [--variant …] [--json]` and
 * `tilecam verify AFTER --move "QI H7" [--claimed N] …`: finds the move between two photos (or checks the announced
 * one against the photo after it), explains every point of its score, and judges the claimed score.
 * Exit 0 when the claim is right (or none was given), 1 when it is wrong, 2 when the photos cannot settle it or the
 * input is bad; with `--json` one object on stdout (protocol's Verification, or `{ error }`).
 */
import { readFile } from 'node:fs/promises';
import { type Variant, variants } from '../engine/index.ts';
import { readingLexicon } from '../lexicon/index.ts';
import type { Verification } from '../protocol/index.ts';
import { ServiceError, verifyAnnouncedPhoto, verifyPhotos } from '../service/index.ts';
import { reportError, whyUnreadable } from './errors.ts';
import { type CommandSpec, commandLine } from './options.ts';

const EXIT = { right: 0, wrong: 1, unsure: 2 } as const;

/** Bad input cannot settle a score either: exit 2, like photos that cannot. */
const fail = (json: boolean, message: string): number => reportError(json, message, {}, 2);

export const verifySpec = {
  synopsis: ['verify BEFORE AFTER [options]', 'verify AFTER --move "QI H7" [options]'],
  summary: "check a move's score from photos: before and after it, or after it and the move as announced",
  options: {
    move: {
      type: 'string',
      value: '"H7 QI 22"',
      help: 'the move as announced (points with it are the claim)',
    },
    claimed: { type: 'string', value: 'N', help: 'the points claimed' },
    lang: { type: 'string', value: 'en|de', help: 'the tile set (default en; a German board needs de)' },
    variant: {
      type: 'string',
      value: 'classic|nine-tile|finish-line|uk',
      help: 'the rules (default classic)',
    },
    json: { type: 'boolean', help: 'print one JSON object' },
  },
  positionals: true,
} as const satisfies CommandSpec;

export async function verifyCommand(args: string[]): Promise<number> {
  const line = commandLine(verifySpec, args, 2);
  if (typeof line === 'number') return line;
  const { values, positionals, json } = line;
  const lang = values.lang ?? 'en';
  if (lang !== 'en' && lang !== 'de')
    return fail(json, `--lang must be en or de (the sets the camera reads), not '${lang}'`);
  if (values.variant !== undefined && !(variants as readonly string[]).includes(values.variant))
    return fail(json, `--variant must be one of ${variants.join(', ')}`);
  let claimed: number | null = null;
  if (values.claimed !== undefined) {
    if (!/^\d{1,4}$/.test(values.claimed))
      return fail(json, `--claimed must be a score (0 to 9999), not '${values.claimed}'`);
    claimed = Number(values.claimed);
  }
  const wanted = values.move === undefined ? 2 : 1;
  if (positionals.length !== wanted)
    return fail(
      json,
      values.move === undefined
        ? 'verify needs two photos: the board BEFORE the move and AFTER it (or one photo and --move "QI H7")'
        : 'with --move, verify needs one photo: the board after the move',
    );
  const photos: Uint8Array[] = [];
  for (const file of positionals) {
    try {
      photos.push(await readFile(file));
    } catch (err) {
      return fail(json, `cannot read ${file}: ${whyUnreadable(err)}`);
    }
  }
  const options = {
    lang: lang as 'en' | 'de',
    variant: values.variant as Variant | undefined,
    claimed,
    lexicon: readingLexicon(lang),
  };
  let result: Verification;
  try {
    result =
      values.move === undefined
        ? await verifyPhotos(photos[0]!, photos[1]!, options)
        : await verifyAnnouncedPhoto(photos[0]!, values.move, options);
  } catch (err) {
    if (err instanceof ServiceError) return fail(json, err.message);
    throw err;
  }
  process.stdout.write(json ? `${JSON.stringify(result)}\n` : humanText(result));
  // The points hang on the set's letter values, and letters it lacks (a German Ö) are read as ones it has: a
  // verdict on photos read with a set nobody chose says so.
  if (values.lang === undefined)
    process.stderr.write(
      'tilecam: scored with the English tile set, the default: for a German set give --lang de\n',
    );
  return EXIT[result.verdict];
}

/** The verification for people: the move, one sentence per word, the total and the verdict. */
export function humanText(v: Verification): string {
  const lines: string[] = [];
  if (v.move) {
    const main = v.words.find((w) => w.main)?.word ?? v.words[0]?.word ?? '';
    const tiles = v.move.tiles.map((t) => t.tile).join(' ');
    lines.push(
      `Move: ${main} at ${v.move.position} (${v.move.direction}); new tile${v.move.tiles.length === 1 ? '' : 's'}: ${tiles}`,
    );
  }
  for (const w of v.words) lines.push(`  ${w.sentence}`);
  if (v.points !== null && v.sentence && (v.words.length > 1 || v.bingo > 0))
    lines.push(`Total: ${v.sentence}`);
  for (const u of v.unsure)
    lines.push(
      `Unclear: ${u.square} in the photo ${u.photo}: ${u.readings.map((r) => `${r.tile} (${Math.round(r.p * 100)}%) → ${r.points ?? 'no legal move'}`).join(', ')}`,
    );
  lines.push(
    `${v.verdict === 'right' ? 'Right' : v.verdict === 'wrong' ? 'Wrong' : 'Cannot settle'}: ${v.message}`,
  );
  for (const other of v.causes.slice(1)) lines.push(`  or else: ${other.message}`);
  return `${lines.join('\n')}\n`;
}
