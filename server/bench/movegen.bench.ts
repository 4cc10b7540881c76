/**
 * `npm run bench:movegen`: the move generator's figures on the English games of ../shared/corpus/gcg.
 * - The DAWGs of both default lexicons: words, nodes, size on disk, time to read back.
 * - Time per position by rack (tiles / blanks): every recorded rack, and a rack drawn from the unseen tiles at each
 *   position (seeded), so that racks with one and two blanks are measured on real boards; and 200 racks of two blanks
 *   and five drawn tiles (two blanks are rare in a draw).
 * - `tilecam analyze` on the corpus: the share of plays whose words are all in the default list, and whether each
 *   of them was generated with its recorded score.
 * - The German games' words in the German list and in the Hunspell checker.
 * - The service's resident memory once started, and with both lexicons loaded by an analysis (service-rss.ts, a
 *   process of its own).
 * `--lexicon FILE` measures with another English list.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { analyzeRecord, Dawg, listPlays, tileSets } from '../engine/index.ts';
import { DEFAULT_LEXICON, germanReadingLexicon, lexiconDawg } from '../lexicon/index.ts';
import { corpusRecords, rackPositions, seeded, twoBlankPositions } from './corpus.ts';
import { gameFolders, readGame } from './live-sheet.ts';

const { values } = parseArgs({ options: { lexicon: { type: 'string' } } });

const pct = (a: number[], q: number) => {
  const s = [...a].sort((x, y) => x - y);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
};

// Lexicons: made (no cache), then read back from bytes.
for (const [spec, set] of [
  [values.lexicon ?? DEFAULT_LEXICON, tileSets.en],
  ['default-de', tileSets.de],
] as const) {
  const loaded = await lexiconDawg(spec, set);
  if (!loaded.ok) {
    console.log(`${spec}: ${loaded.message}`);
    continue;
  }
  const bytes = loaded.dawg.toBytes();
  const t0 = performance.now();
  const back = Dawg.fromBytes(bytes)!;
  const read = performance.now() - t0;
  const { nodes, edges } = back.counts;
  console.log(
    `${loaded.name} (${set.id}): ${back.size} words; DAWG ${nodes} nodes, ${edges} edges, ${(bytes.length / 1e6).toFixed(2)} MB on disk and in memory; read back in ${read.toFixed(1)} ms`,
  );
}
const en = await lexiconDawg(values.lexicon ?? DEFAULT_LEXICON, tileSets.en);
if (!en.ok) throw new Error(en.message);
const dawg = en.dawg;

const docs = corpusRecords().map((r) => r.document);
const positions = rackPositions(corpusRecords(), seeded(2026), 1);
// Warm the generator up once, then time each position.
for (const p of positions.slice(0, 50)) listPlays(p.board, p.rack, dawg, p.rules);
const byKind = new Map<string, number[]>();
let plays = 0;
for (const p of positions) {
  const t = performance.now();
  const list = listPlays(p.board, p.rack, dawg, p.rules);
  const ms = performance.now() - t;
  plays += list.size;
  const blanks = [...p.rack].filter((c) => c === '?').length;
  const kind = `${p.rack.length === 7 ? '7 tiles' : 'under 7 tiles'}, ${blanks} blank${blanks === 1 ? '' : 's'}`;
  byKind.set(kind, [...(byKind.get(kind) ?? []), ms]);
}
console.log(`\n${positions.length} positions (recorded racks and drawn racks), ${plays} plays generated`);
for (const [kind, ms] of [...byKind].sort()) {
  console.log(
    `  ${kind.padEnd(24)} ${String(ms.length).padStart(5)} positions: median ${pct(ms, 0.5).toFixed(2)} ms, p99 ${pct(ms, 0.99).toFixed(1)} ms, max ${pct(ms, 1).toFixed(1)} ms`,
  );
}
// Two blanks are rare in drawn racks (a handful above): 200 racks of `??` and five drawn tiles, on every third turn.
const twoBlanks = twoBlankPositions(corpusRecords(), seeded(7), 3, 200);
const twoMs: number[] = [];
let twoPlays = 0;
let mostPlays = 0;
let mostBytes = 0;
for (const p of twoBlanks) {
  const t = performance.now();
  const list = listPlays(p.board, p.rack, dawg, p.rules);
  twoMs.push(performance.now() - t);
  twoPlays += list.size;
  if (list.size > mostPlays) {
    mostPlays = list.size;
    mostBytes = list.bytes;
  }
}
console.log(
  `  ${'7 tiles, 2 blanks (??+5)'.padEnd(24)} ${String(twoMs.length).padStart(5)} positions: median ${pct(twoMs, 0.5).toFixed(2)} ms, p99 ${pct(twoMs, 0.99).toFixed(1)} ms, max ${pct(twoMs, 1).toFixed(1)} ms; ${Math.round(twoPlays / twoMs.length)} plays a position on average, ${mostPlays} at most`,
);
console.log(`  the longest list of plays takes ${(mostBytes / 1e6).toFixed(1)} MB`);

// The corpus analysed.
let turns = 0;
let playTurns = 0;
let valid = 0;
let generated = 0;
let withRack = 0;
const analysisMs: number[] = [];
for (const document of docs) {
  const analysed = analyzeRecord(document, dawg, { now: () => performance.now() });
  if (!analysed.ok || analysed.lang !== 'en') continue;
  for (const t of analysed.turns) {
    turns++;
    if (t.rack !== null) analysisMs.push(t.ms);
    if (t.played.position === '') continue;
    playTurns++;
    if (t.played.valid) valid++;
    if (t.rack !== null && t.rackHolds && t.played.valid) {
      withRack++;
      if (t.played.rank !== null) generated++;
    }
  }
}
console.log(
  `\ntilecam analyze on the corpus (${en.name}): ${turns} turns, ${playTurns} plays; ${valid} (${((100 * valid) / playTurns).toFixed(1)}%) have every word in the list`,
);
console.log(
  `  of the ${withRack} such plays whose rack is recorded and holds their tiles, ${generated} were generated with their score`,
);
console.log(
  `  per position (generate, rank, list the best): median ${pct(analysisMs, 0.5).toFixed(2)} ms, p99 ${pct(analysisMs, 0.99).toFixed(1)} ms`,
);

// German: the words on the final boards of the shared German games (every run of two tiles or more, across and down),
// in the analysis lexicon and as the Hunspell checker the service reads boards with answers.
const de = await lexiconDawg('default-de', tileSets.de);
const sets = fileURLToPath(new URL('../../../shared/realdata/scrabscrap-de/', import.meta.url));
if (de.ok) {
  const words: string[] = [];
  for (const name of gameFolders(sets)) {
    const last = [...readGame(sets, name).moves].reverse().find((m) => m.label);
    if (!last?.label) continue;
    const rows = last.label.map((r) => r.toUpperCase());
    const cols = Array.from({ length: 15 }, (_, c) => rows.map((r) => r[c]).join(''));
    for (const line of [...rows, ...cols])
      for (const run of line.split(/[.?]+/)) if ([...run].length >= 2) words.push(run);
  }
  const inDawg = words.filter((w) => de.dawg.has(w)).length;
  const checker = germanReadingLexicon();
  const inChecker = words.filter((w) => checker.has(w)).length;
  const missing = [...new Set(words.filter((w) => !de.dawg.has(w)))].slice(0, 12);
  console.log(
    `\nGerman games' final boards: ${words.length} words; ${inDawg} (${((100 * inDawg) / words.length).toFixed(1)}%) in ${de.name} as analysed, ${inChecker} accepted by the Hunspell checker; missing, e.g.: ${missing.join(' ')}`,
  );
}

// The service's memory, measured in a process of its own (nothing this bench holds counts).
const rss = JSON.parse(
  execFileSync(
    process.execPath,
    [
      '--expose-gc',
      '--import',
      'tsx',
      '--initial-old-space-size=96',
      fileURLToPath(new URL('./service-rss.ts', import.meta.url)),
    ],
    { encoding: 'utf8' },
  ).trim(),
) as { startedMB: number; withLexiconsMB: number };
console.log(
  `\nThe service's resident memory: ${rss.startedMB.toFixed(0)} MB once started, ${rss.withLexiconsMB.toFixed(0)} MB with the English and German lexicons loaded by an analysis of each`,
);
