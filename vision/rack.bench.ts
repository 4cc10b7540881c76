/**
 * `npm run bench:racks`: the rack in front of the board, read from the rendered seat views of fixtures/seat
 * (models/training/seat.py; never trained on), against the letters each scene put on the rack (`rack_letters` in
 * scenes.json, left to right as the camera sees them; `?` a blank, which readRack does not read).
 *
 * Per view: the grid found (vision's locateGrid), then readRack over every row in front of the board, and what it
 * read: each tile's letter, `*` after one read unsure. A rack read with as many tiles as the scene's is compared
 * place by place; one with fewer or more tiles, letter by letter as a multiset. In all: racks found, racks read
 * entirely right, tiles right, tiles wrong and how many of those were read surely (silent), and the time a look took.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { tileSets } from '../server/engine/index.ts';
import { decodeImage, loadModel, readRack } from './index.ts';
import { locateGrid } from './recognize.ts';

const seat = fileURLToPath(new URL('../fixtures/seat/', import.meta.url));
const scenes = JSON.parse(readFileSync(`${seat}scenes.json`, 'utf8')).scenes as Record<
  string,
  { rack?: boolean; rack_letters?: string }
>;
const model = await loadModel();
const letters = tileSets.en.letters.map(([l]) => l);
const totals = { racks: 0, found: 0, whole: 0, tiles: 0, right: 0, wrong: 0, silent: 0, noBoard: 0 };
const times: number[] = [];
for (const [name, scene] of Object.entries(scenes)) {
  if (!scene.rack || !scene.rack_letters) continue;
  const truth = scene.rack_letters;
  totals.racks++;
  totals.tiles += truth.length;
  const band = /_(\d+-\d+)deg_/.exec(name)![1]!;
  const photo = await decodeImage(readFileSync(`${seat}${band}/${name}.jpg`));
  let corners: Awaited<ReturnType<typeof locateGrid>>;
  try {
    corners = await locateGrid(photo);
  } catch {
    totals.noBoard++;
    console.log(`${name.padEnd(22)} ${truth.padEnd(8)} no board found`);
    continue;
  }
  const t0 = performance.now();
  const read = await readRack(photo, corners, model, letters);
  const ms = performance.now() - t0;
  times.push(ms);
  if (!read) {
    console.log(`${name.padEnd(22)} ${truth.padEnd(8)} no rack seen (${ms.toFixed(0)} ms)`);
    continue;
  }
  totals.found++;
  let right = 0;
  const wrongAt = (i: number) => {
    totals.wrong++;
    if (read.tiles[i]!.sure) totals.silent++;
  };
  if (read.tiles.length === truth.length) {
    read.tiles.forEach((t, i) => {
      if (t.letter === truth[i]) right++;
      else wrongAt(i);
    });
  } else {
    const left = [...truth];
    read.tiles.forEach((t, i) => {
      const at = left.indexOf(t.letter);
      if (at >= 0) {
        left.splice(at, 1);
        right++;
      } else wrongAt(i);
    });
  }
  totals.right += right;
  const got = read.tiles.map((t) => t.letter).join('');
  if (got === truth) totals.whole++;
  const shown = read.tiles.map((t) => t.letter + (t.sure ? '' : '*')).join('');
  console.log(
    `${name.padEnd(22)} ${truth.padEnd(8)} ${shown.padEnd(12)} ${right}/${truth.length} right, ${read.distance.toFixed(2)} squares in front (${ms.toFixed(0)} ms)`,
  );
}
times.sort((a, b) => a - b);
const pct = (n: number, of: number) => `${((100 * n) / of).toFixed(0)}%`;
console.log(
  `\n${totals.racks} views with a rack (${totals.noBoard} with no board found): ${totals.found} racks found, ${totals.whole} read entirely right (${pct(totals.whole, totals.racks)}); ${totals.right} of ${totals.tiles} tiles right (${pct(totals.right, totals.tiles)}); ${totals.wrong} tiles wrong, ${totals.silent} of them read surely; a look ${times[times.length >> 1]?.toFixed(0)} ms median`,
);
