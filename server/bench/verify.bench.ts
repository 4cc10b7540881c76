/**
 * `npm run bench:verify [-- --json]`: settles every move of the real German games of ../shared/realdata/scrabscrap-de
 * from its two photos, as `tilecam verify BEFORE AFTER --claimed N` does, up to each game's first challenge (after
 * a challenge the sheet's photos show the board mid-dispute). Counts, per game and in total: the pairs, the verdicts
 * with the sheet's points claimed (right / wrong / cannot settle, and the right ones that rest on the claim to pick
 * between readings of a square in doubt), the verdicts with no claim (whether the points found are the sheet's),
 * and the milliseconds a pair takes (both photos read, cold). A bench: it exits 0 whatever the figures, 1 only when
 * the data folder is missing.
 */
import { existsSync, readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { runtimeLine } from '../cli/node-flags.ts';
import { germanReadingLexicon } from '../lexicon/index.ts';
import { verifyPhotos } from '../service/checks/verify.ts';
import { gameFolders, readGame } from './live-sheet.ts';

const dir = fileURLToPath(new URL('../../../shared/realdata/scrabscrap-de/', import.meta.url));
const json = process.argv.includes('--json');
if (!existsSync(dir)) {
  console.error(`no data: ${dir} is missing`);
  process.exit(1);
}

interface Tally {
  pairs: number;
  right: number;
  restsOnClaim: number;
  wrong: number;
  unsure: number;
  /** With no claim: the points found are the sheet's. */
  pointsFound: number;
  /** With no claim: points found that are not the sheet's (a misreading scored). */
  pointsWrong: number;
  ms: number[];
}
const empty = (): Tally => ({
  pairs: 0,
  right: 0,
  restsOnClaim: 0,
  wrong: 0,
  unsure: 0,
  pointsFound: 0,
  pointsWrong: 0,
  ms: [],
});
const lexicon = germanReadingLexicon();
const games: Record<string, Tally> = {};
const total = empty();
const notes: string[] = [];

for (const name of gameFolders(dir)) {
  const game = readGame(dir, name);
  const tally = empty();
  let previous: string | undefined;
  for (const move of game.moves) {
    if (move.kind === 'challenge') break;
    if (!move.photo) {
      previous = undefined;
      continue;
    }
    if (previous && move.kind === 'play') {
      const before = readFileSync(previous);
      const after = readFileSync(move.photo);
      const start = performance.now();
      const claimed = await verifyPhotos(before, after, { lang: 'de', claimed: move.points!, lexicon });
      tally.ms.push(performance.now() - start);
      const plain = await verifyPhotos(before, after, { lang: 'de', lexicon });
      tally.pairs++;
      if (claimed.verdict === 'right') {
        tally.right++;
        if (claimed.unsure.length > 0) tally.restsOnClaim++;
      } else if (claimed.verdict === 'wrong') tally.wrong++;
      else tally.unsure++;
      if (claimed.verdict !== 'right')
        notes.push(
          `${name} move ${move.number} (${move.word} ${move.points}): ${claimed.verdict}: ${claimed.message}`,
        );
      if (plain.points === move.points) tally.pointsFound++;
      else if (plain.points !== null) {
        tally.pointsWrong++;
        notes.push(
          `${name} move ${move.number}: no claim, found ${plain.points}, the sheet says ${move.points}`,
        );
      }
    }
    previous = move.photo;
  }
  games[name] = tally;
  for (const key of Object.keys(total) as (keyof Tally)[]) {
    if (key === 'ms') total.ms.push(...tally.ms);
    else total[key] += tally[key];
  }
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? Math.round(s[Math.floor(s.length / 2)]!) : 0;
};
if (json) {
  const view = (t: Tally) => ({ ...t, ms: undefined, msMedian: median(t.ms) });
  console.log(
    JSON.stringify({
      games: Object.fromEntries(Object.entries(games).map(([k, t]) => [k, view(t)])),
      total: view(total),
      notes,
    }),
  );
} else {
  const row = (name: string, t: Tally) =>
    `${name.padEnd(8)} ${String(t.pairs).padStart(5)} ${String(t.right).padStart(6)} ${String(t.restsOnClaim).padStart(9)} ${String(t.wrong).padStart(6)} ${String(t.unsure).padStart(7)} ${String(t.pointsFound).padStart(11)} ${String(t.pointsWrong).padStart(11)} ${String(median(t.ms)).padStart(7)}`;
  console.log(runtimeLine());
  console.log('game     pairs  right  on claim  wrong  unsure  no claim: =  no claim: ≠  ms/pair');
  for (const [name, t] of Object.entries(games)) console.log(row(name, t));
  console.log(row('total', total));
  for (const note of notes) console.log(`  ${note}`);
}
