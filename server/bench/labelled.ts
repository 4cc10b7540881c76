/**
 * The labelled real photos the benches measure on (../shared/realdata, beside the repository, never in it): each
 * photo with its label, corrected by the by-eye errata of models/label-errata.txt.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { correctLabel, errataFor, parseErrata } from '../cli/errata.ts';

/** A folder of ../shared/realdata. */
export const realdata = (path: string) =>
  fileURLToPath(new URL(`../../../shared/realdata/${path}`, import.meta.url));

const parsed = parseErrata(readFileSync(new URL('../../models/label-errata.txt', import.meta.url), 'utf8'));
if (!parsed.ok) throw new Error(`models/label-errata.txt: ${parsed.message}`);
const errata = parsed.errata;

/** Every labelled photo below `dir`, in name order: its path relative to `dir`, its bytes, and its 225 squares. */
export function* labelledPhotos(dir: string): Generator<{ file: string; photo: Buffer; truth: string[] }> {
  const files = readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.txt') && !f.includes('NOTES'))
    .sort();
  for (const file of files) {
    const txt = join(dir, file);
    let truth = [...readFileSync(txt, 'utf8').trimEnd().split('\n').join('')];
    if (truth.length !== 225) continue;
    const fixed = correctLabel(truth, errataFor(errata, txt), txt);
    if (fixed.ok) truth = fixed.cells;
    yield { file, photo: readFileSync(txt.replace(/\.txt$/, '.jpg')), truth };
  }
}
