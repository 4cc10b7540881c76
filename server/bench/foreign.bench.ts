/**
 * `npm run bench:foreign`: is a board of another tile set noticed? Every labelled photo of the shared sets is read as
 * English (the vision's `foreign`: tiles the model scores 4× higher as a letter the set lacks). Prints, per set, the
 * boards read, the boards whose labels show Ä, Ö or Ü and how many of those were flagged, and the flagged squares
 * whose label is no such letter (a false alarm). Where ../shared is absent, says so.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { recognize } from '../../vision/index.ts';
import { readingOptions } from '../service/game/frames.ts';

const root = fileURLToPath(new URL('../../../shared/realdata', import.meta.url));
if (!existsSync(root)) {
  console.log(`bench:foreign: ${root} is absent`);
  process.exit(0);
}

function labelled(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const path = join(dir, e.name);
    if (e.isDirectory()) out.push(...labelled(path));
    else if (/\.(jpe?g|png)$/i.test(e.name) && existsSync(path.replace(/\.\w+$/, '.txt'))) out.push(path);
  }
  return out;
}

console.log(
  '| set | boards read | boards showing Ä Ö Ü | of them flagged | squares flagged | flagged wrongly |',
);
console.log('|---|---|---|---|---|---|');
for (const set of ['scrabscrap-de', 'kwwangkw-en/warped', 'jheidel-en']) {
  if (!existsSync(join(root, set))) continue;
  const n = { read: 0, umlauts: 0, caught: 0, squares: 0, wrong: 0 };
  for (const file of labelled(join(root, set))) {
    const rows = readFileSync(file.replace(/\.\w+$/, '.txt'), 'utf8')
      .trimEnd()
      .split('\n');
    let foreign: readonly { row: number; col: number }[];
    try {
      foreign = (await recognize(readFileSync(file), readingOptions('en'))).foreign ?? [];
    } catch {
      continue; // no board found: counted by `tilecam eval`, not here
    }
    n.read++;
    const umlauts = rows.some((r) => /[ÄÖÜ]/.test(r));
    if (umlauts) n.umlauts++;
    if (umlauts && foreign.length > 0) n.caught++;
    n.squares += foreign.length;
    n.wrong += foreign.filter((q) => !/[ÄÖÜ]/.test(rows[q.row]?.[q.col] ?? '')).length;
  }
  console.log(`| ${set} | ${n.read} | ${n.umlauts} | ${n.caught} | ${n.squares} | ${n.wrong} |`);
}
