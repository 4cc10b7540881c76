/**
 * `npm run bench:calibrate`: how far the camera's readings of the squares it is unsure of can be trusted, by the
 * share the likeliest reading carries among the readings weighed (those of 3% or more, a hand's left out), on the
 * real labelled photos (scrabscrap-de; kwwangkw-en/warped with the label errata of models/label-errata.txt). This
 * is the measure behind interpret.ts's COMMIT_SHARE: prints, per set and share band, how many unsure squares the
 * likeliest reading got wrong.
 */
import { recognize } from '../../vision/index.ts';
import { readingOptions } from '../service/game/frames.ts';
import { labelledPhotos, realdata as shared } from './labelled.ts';

const rows: {
  set: string;
  top: number;
  second: number;
  share: number;
  right: boolean;
  truth: string;
  tile: string;
  inTop: boolean;
}[] = [];
for (const [set, dir, lang] of [
  ['de', shared('scrabscrap-de'), 'de'],
  ['en', shared('kwwangkw-en/warped'), 'en'],
] as const) {
  const options = readingOptions(lang);
  for (const { photo, truth: cells } of labelledPhotos(dir)) {
    let r: Awaited<ReturnType<typeof recognize>>;
    try {
      r = await recognize(photo, options);
    } catch {
      continue;
    }
    for (const a of r.alternatives) {
      const truth = cells[a.row * 15 + a.col]!;
      const o = a.options.filter((x) => x.tile !== '#');
      const top = o[0]!;
      const rest = o.slice(1).reduce((s, x) => s + (x.p >= 0.03 ? x.p : 0), 0);
      rows.push({
        set,
        top: top.p,
        second: o[1]?.p ?? 0,
        share: top.p / (top.p + rest),
        right: top.tile === truth,
        truth,
        tile: top.tile,
        inTop: o.slice(0, 4).some((x) => x.tile === truth),
      });
    }
  }
}
const bands: [number, number][] = [
  [0, 0.5],
  [0.5, 0.7],
  [0.7, 0.75],
  [0.75, 0.8],
  [0.8, 0.9],
  [0.9, 1.01],
];
for (const set of ['de', 'en']) {
  const rs = rows.filter((r) => r.set === set);
  console.log(
    set,
    'unsure squares',
    rs.length,
    'top right',
    rs.filter((r) => r.right).length,
    'truth in options',
    rs.filter((r) => r.inTop).length,
  );
  for (const [lo, hi] of bands) {
    const b = rs.filter((r) => r.share >= lo && r.share < hi && r.tile !== '.');
    console.log(
      `  tile share ${lo}-${hi}: ${b.length} squares, top wrong ${b.filter((r) => !r.right).length}`,
      b
        .filter((r) => !r.right)
        .map((r) => `${r.tile}->${r.truth}`)
        .join(' '),
    );
  }
  for (const [lo, hi] of bands) {
    const b = rs.filter((r) => r.share >= lo && r.share < hi && r.tile === '.');
    console.log(
      `  empty share ${lo}-${hi}: ${b.length} squares, top wrong ${b.filter((r) => !r.right).length}`,
      b
        .filter((r) => !r.right)
        .map((r) => `${r.tile}->${r.truth}`)
        .join(' '),
    );
  }
}
