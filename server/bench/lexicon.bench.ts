/**
 * `npm run bench:lexicon [-- LIST.txt…]`: how a lexicon does on the real games of ../shared/corpus/gcg. For every
 * English play the engine replays, the words it formed are looked up: a play kept on the board with a word not in
 * the list is a false flag; a play withdrawn as a phony with such a word is a phony caught.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { decodeGcg, type Lexicon, readGcg, replayGcg, unknownWords } from '../engine/index.ts';
import { DEFAULT_LEXICON, loadLexicon } from '../lexicon/index.ts';

const corpus = fileURLToPath(new URL('../../../shared/corpus/gcg/', import.meta.url));
if (!existsSync(corpus)) {
  console.log(`${corpus} is absent: nothing to measure.`);
  process.exit(0);
}

const plays: { words: string[]; withdrawn: boolean; file: string }[] = [];
for (const file of readdirSync(corpus, { recursive: true, encoding: 'utf8' }).filter((f) =>
  f.endsWith('.gcg'),
)) {
  const decoded = decodeGcg(readFileSync(join(corpus, file)));
  if (!decoded.ok) continue;
  const read = readGcg(decoded.text);
  if (!read.ok) continue;
  const replayed = replayGcg(read.document);
  if (!replayed.ok || replayed.report.lang !== 'en') continue;
  const turns = replayed.report.state.turns;
  const withdrawn = new Set(turns.flatMap((t) => (t.withdraws === undefined ? [] : [t.withdraws])));
  turns.forEach((t, i) => {
    if (t.kind === 'play' && t.score)
      plays.push({ words: t.score.words.map((w) => w.word), withdrawn: withdrawn.has(i), file });
  });
}

function measure(lexicon: Lexicon): void {
  const valid = plays.filter((p) => !p.withdrawn);
  const phonies = plays.filter((p) => p.withdrawn);
  const flagged = valid.filter((p) => unknownWords(lexicon, p.words).length > 0);
  const caught = phonies.filter((p) => unknownWords(lexicon, p.words).length > 0);
  console.log(`${lexicon.name} (${lexicon.size.toLocaleString('en')} words)`);
  console.log(`  valid plays flagged: ${flagged.length} of ${valid.length}`);
  for (const p of flagged) console.log(`    ${p.file}: ${unknownWords(lexicon, p.words).join(', ')}`);
  console.log(`  withdrawn phonies caught: ${caught.length} of ${phonies.length}`);
  for (const p of phonies)
    console.log(
      `    ${unknownWords(lexicon, p.words).length > 0 ? 'caught' : 'missed'}: ${p.words.join(' + ')}`,
    );
}

for (const spec of [DEFAULT_LEXICON, ...process.argv.slice(2)]) {
  const loaded = await loadLexicon(spec);
  if (!loaded.ok) console.log(loaded.message);
  else measure(loaded.lexicon);
}
