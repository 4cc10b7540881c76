/**
 * Label errata for `tilecam eval --errata FILE`: squares where a published label contradicts its photo, each found
 * by a person looking at the photo, so that a measurement can be given both against the labels as published and
 * against what the photos show. The photos' own label files are never changed.
 *
 * One correction a line, fields separated by spaces or tabs, `#` starts a comment:
 *
 *     PHOTO SQUARE LABEL PHOTO-SHOWS [NOTE…]
 *     kwwangkw-en/warped/w5  9B  .  E  a tile the label leaves out
 *
 * PHOTO is the photo's or label file's path (its extension may be left off), as far up as needed to name one photo
 * (it matches the end of the path); SQUARE is row then column (`9B`); LABEL is what the label file says there, checked, so that a correction
 * never applies to a label that has since changed; PHOTO-SHOWS is what the photo holds (`.` empty, `?` a blank tile,
 * or a letter, as in board text).
 */
import { parsePosition } from '../engine/index.ts';

export interface Erratum {
  /** 1-based line in the errata file, for messages. */
  readonly line: number;
  readonly photo: string;
  /** Index of the square, row-major (row · 15 + column). */
  readonly cell: number;
  readonly square: string;
  readonly label: string;
  readonly truth: string;
  readonly note: string;
}

export type ErrataParse = { ok: true; errata: Erratum[] } | { ok: false; message: string };

/** One square of board text: `.`, `?` or a letter. */
const TILE = /^[\p{Lu}\p{Ll}?.]$/u;

/** Parses an errata file (one file may hold several label sets, of different languages). */
export function parseErrata(text: string): ErrataParse {
  const errata: Erratum[] = [];
  const seen = new Map<string, number>();
  for (const [i, raw] of text.split(/\r?\n/).entries()) {
    const line = i + 1;
    const body = raw.replace(/#.*$/, '').trim();
    if (!body) continue;
    const [named, square, label, truth, ...note] = body.split(/\s+/);
    // The label's path or the photo's, with either kind of slash: the same photo.
    const photo = named!.replace(/\\/g, '/').replace(/\.(txt|jpe?g|png|webp)$/i, '');
    const fail = (why: string): ErrataParse => ({ ok: false, message: `errata line ${line}: ${why}` });
    if (truth === undefined) return fail('needs PHOTO SQUARE LABEL PHOTO-SHOWS');
    const pos = parsePosition(square!);
    if (!pos || !/^\d/.test(square!)) return fail(`'${square}' is not a square (row then column, like 9B)`);
    for (const ch of [label!, truth]) {
      if (!TILE.test(ch)) return fail(`'${ch}' is not a square of board text ('.', '?' or a letter)`);
    }
    if (label === truth) return fail(`the label already says '${truth}': nothing to correct`);
    const key = `${photo}\u0000${square!.toUpperCase()}`;
    const before = seen.get(key);
    if (before !== undefined) return fail(`${photo} ${square} is corrected already on line ${before}`);
    seen.set(key, line);
    errata.push({
      line,
      photo,
      cell: pos.row * 15 + pos.col,
      square: square!.toUpperCase(),
      label: label!,
      truth,
      note: note.join(' '),
    });
  }
  return { ok: true, errata };
}

/**
 * The errata that belong to the label file at `labelPath`: those whose PHOTO is the end of its path (whole folder
 * names only, `.txt` left off).
 */
export function errataFor(errata: readonly Erratum[], labelPath: string): Erratum[] {
  const path = `/${labelPath.replace(/\\/g, '/').replace(/\.txt$/, '')}`;
  return errata.filter((e) => path.endsWith(`/${e.photo}`));
}

/**
 * The label's squares with the corrections applied. Fails when a correction's LABEL is not what the label file
 * says at that square: the errata were written for another version of the labels.
 */
export function correctLabel(
  cells: readonly string[],
  errata: readonly Erratum[],
  labelPath: string,
): { ok: true; cells: string[] } | { ok: false; message: string } {
  const out = [...cells];
  for (const e of errata) {
    if (out[e.cell] !== e.label) {
      return {
        ok: false,
        message: `errata line ${e.line}: ${labelPath} says '${out[e.cell]}' at ${e.square}, not '${e.label}': the errata do not fit these labels`,
      };
    }
    out[e.cell] = e.truth;
  }
  return { ok: true, cells: out };
}
