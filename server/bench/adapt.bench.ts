/**
 * `npm run bench:adapt`: learning the tile set being played, measured where it matters most, on the English wooden
 * tiles of kwwangkw-en/warped whose font the model never saw (labels corrected by models/label-errata.txt):
 * leave one board out — the other boards' squares serve as the game's committed tiles, a bias is fitted on them
 * (vision/adapt.ts) and the board left out is read with it. Also on the German set, per game (the game's other
 * photos as its committed tiles), to see that it does no harm. Prints wrong squares and silent ones (wrong and not
 * reported unsure), without and with the bias.
 */
import { type BoardReading, fitBias, recognize } from '../../vision/index.ts';
import { tileSets } from '../engine/index.ts';
import { labelledPhotos, realdata as shared } from './labelled.ts';

interface Board {
  group: string;
  photo: Uint8Array;
  truth: string[];
  plain: BoardReading;
}

async function boards(dir: string, lang: 'en' | 'de', group: (file: string) => string): Promise<Board[]> {
  const letters = tileSets[lang].letters.map(([l]) => l).join('');
  const out: Board[] = [];
  for (const { file, photo, truth } of labelledPhotos(dir)) {
    try {
      out.push({
        group: group(file),
        photo,
        truth,
        plain: await recognize(photo, { letters, scores: true }),
      });
    } catch {
      // no board found: not a reading to learn from or to measure here
    }
  }
  return out;
}

function count(reading: BoardReading, truth: readonly string[]) {
  const cells = reading.board.join('');
  const unsure = new Set(reading.unsure.map((u) => u.row * 15 + u.col));
  let wrong = 0;
  let silent = 0;
  for (let i = 0; i < 225; i++) {
    if ([...cells][i] === truth[i]) continue;
    wrong++;
    if (!unsure.has(i)) silent++;
  }
  return { wrong, silent };
}

async function measure(name: string, all: Board[], lang: 'en' | 'de') {
  const letters = tileSets[lang].letters.map(([l]) => l).join('');
  let before = { wrong: 0, silent: 0 };
  let after = { wrong: 0, silent: 0 };
  for (const board of all) {
    // The game's committed tiles: the other boards of its group (leave this one out).
    const others = all.filter((b) => b !== board && b.group === board.group);
    const keys = board.plain.scores!.keys;
    const examples = others.flatMap((b) =>
      b.plain.scores!.cells.map((scores, i) => ({ scores, label: b.truth[i]! })),
    );
    const bias = fitBias(keys, examples, {
      ...(process.env.ADAPT_PULL ? { pull: Number(process.env.ADAPT_PULL) } : {}),
      ...(process.env.ADAPT_STEPS ? { steps: Number(process.env.ADAPT_STEPS) } : {}),
    });
    const adapted = await recognize(board.photo, { letters, bias });
    const b = count(board.plain, board.truth);
    const a = count(adapted, board.truth);
    before = { wrong: before.wrong + b.wrong, silent: before.silent + b.silent };
    after = { wrong: after.wrong + a.wrong, silent: after.silent + a.silent };
  }
  const n = all.length * 225;
  const pct = (x: number) => `${((100 * x) / n).toFixed(3)}%`;
  console.log(
    `${name}: ${all.length} boards, ${n} squares — without the bias ${before.wrong} wrong (${pct(before.wrong)}), ${before.silent} silent (${pct(before.silent)}); with it ${after.wrong} wrong (${pct(after.wrong)}), ${after.silent} silent (${pct(after.silent)})`,
  );
}

const en = await boards(shared('kwwangkw-en/warped'), 'en', () => 'kwwangkw');
await measure('kwwangkw-en/warped, leave one board out', en, 'en');
if (process.argv.includes('--en')) process.exit(0);
const de = await boards(shared('scrabscrap-de'), 'de', (f) => f.split('/')[0]!);
await measure('scrabscrap-de, leave one photo out within its game', de, 'de');
