/**
 * `npm run bench`: replay throughput of the engine over the real GCG corpus (../shared/corpus/gcg), in turns per
 * second on one core. Files are read once; each round decodes, parses and replays every game from its bytes.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { decodeGcg, readGcg, replayGcg } from '../engine/index.ts';

const corpus = fileURLToPath(new URL('../../../shared/corpus/gcg/', import.meta.url));
const fixtures = fileURLToPath(new URL('../../fixtures/games/', import.meta.url));
const dir = existsSync(corpus) ? corpus : fixtures;
const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.gcg'));
const inputs = files.map((f) => readFileSync(join(dir, f)));

function round(): number {
  let turns = 0;
  for (const bytes of inputs) {
    const decoded = decodeGcg(bytes);
    if (!decoded.ok) continue;
    const read = readGcg(decoded.text);
    if (!read.ok) continue;
    const replayed = replayGcg(read.document);
    if (replayed.ok) turns += replayed.report.turns;
  }
  return turns;
}

for (let i = 0; i < 20; i++) round(); // warm up the JIT
const rates: number[] = [];
let turnsPerRound = 0;
for (let i = 0; i < 15; i++) {
  const start = process.hrtime.bigint();
  let turns = 0;
  let rounds = 0;
  while (process.hrtime.bigint() - start < 200_000_000n) {
    turns += round();
    rounds++;
  }
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  turnsPerRound = turns / rounds;
  rates.push(turns / seconds);
}
rates.sort((a, b) => a - b);
const median = rates[Math.floor(rates.length / 2)]!;
console.log(`corpus: ${dir} (${files.length} files, ${turnsPerRound} turns replayed per round)`);
console.log(
  `replay throughput: ${Math.round(median).toLocaleString('en')} turns/s (median of ${rates.length} samples; min ${Math.round(rates[0]!).toLocaleString('en')}, max ${Math.round(rates.at(-1)!).toLocaleString('en')})`,
);
console.log(`node ${process.version}, ${process.arch}, one thread`);
