/**
 * `tilecam analyze FILE.gcg… [--lexicon FILE] [--lang en|de] [--top N] [--json]`: each recorded turn against the
 * best plays of its rack (the engine's move generator, movegen/), with where the move played ranked and the equity
 * it gave up. Turns whose rack the record does not give have no best plays.
 */
import { readFile } from 'node:fs/promises';
import {
  type AnalyzedTurn,
  analyzeRecord,
  decodeGcg,
  isTileSetId,
  readGcg,
  recordPositions,
  type TileSetId,
  tileSets,
} from '../engine/index.ts';
import { DEFAULT_LEXICON, lexiconDawg } from '../lexicon/index.ts';
import { reportError, whyUnreadable } from './errors.ts';
import { type CommandSpec, commandLine } from './options.ts';

export const analyzeSpec = {
  synopsis: ['analyze FILE.gcg… [options]'],
  summary: 'each recorded move against the best plays of its rack, by equity',
  options: {
    lexicon: {
      type: 'string',
      value: 'FILE',
      help: 'a word list, one word a line (an NWL or Collins file you own)',
    },
    lang: { type: 'string', value: 'en|de', help: 'the tile set (default: guessed from each record)' },
    top: { type: 'string', value: 'N', help: 'how many best plays to list a turn (default 5, at most 100)' },
    json: { type: 'boolean', help: 'print one JSON object' },
  },
  positionals: true,
} as const satisfies CommandSpec;

interface GameAnalysis {
  readonly file: string;
  readonly lexicon: string;
  readonly turns: readonly AnalyzedTurn[];
}

export async function analyzeCommand(args: string[]): Promise<number> {
  const line = commandLine(analyzeSpec, args);
  if (typeof line === 'number') return line;
  const { values, positionals, json } = line;
  if (positionals.length === 0) return reportError(json, 'analyze needs at least one .gcg file');
  const lang = values.lang;
  if (lang !== undefined && (!isTileSetId(lang) || (lang !== 'en' && lang !== 'de')))
    return reportError(json, `--lang must be en or de, not '${lang}'`);
  const top = values.top === undefined ? 5 : Number(values.top);
  if (!Number.isInteger(top) || top < 1 || top > 100)
    return reportError(json, `--top must be a whole number from 1 to 100, not '${values.top}'`);
  const games: GameAnalysis[] = [];
  const dawgs = new Map<TileSetId, Awaited<ReturnType<typeof lexiconDawg>>>();
  for (const file of positionals) {
    let bytes: Uint8Array;
    try {
      bytes = await readFile(file);
    } catch (err) {
      return reportError(json, `cannot read ${file}: ${whyUnreadable(err)}`, { file });
    }
    const decoded = decodeGcg(bytes);
    if (!decoded.ok) return reportError(json, `${file}: line ${decoded.line}: ${decoded.message}`, { file });
    const read = readGcg(decoded.text);
    if (!read.ok) return reportError(json, `${file}: ${read.message}`, { file, line: read.line });
    // The tile set first (the record's letters tell it), then the lexicon for it.
    const positions = recordPositions(read.document, lang ? { lang } : {});
    if (!positions.ok)
      return reportError(json, `${file}: ${positions.message}`, { file, line: positions.line });
    const set = positions.lang;
    if (set !== 'en' && set !== 'de')
      return reportError(json, `${file}: analysis knows English and German games only`);
    let dawg = dawgs.get(set);
    if (!dawg) {
      dawg = await lexiconDawg(
        values.lexicon ?? (set === 'en' ? DEFAULT_LEXICON : 'default-de'),
        tileSets[set],
      );
      dawgs.set(set, dawg);
    }
    if (!dawg.ok) return reportError(json, dawg.message);
    const analysed = analyzeRecord(read.document, dawg.dawg, {
      lang: set,
      top,
      now: () => performance.now(),
    });
    if (!analysed.ok) return reportError(json, `${file}: ${analysed.message}`, { file, line: analysed.line });
    const game = { file, lexicon: dawg.name, turns: analysed.turns };
    games.push(game);
    if (!json) printHuman(game);
  }
  if (json) process.stdout.write(`${JSON.stringify({ games })}\n`);
  return 0;
}

function printHuman(g: GameAnalysis): void {
  process.stdout.write(`${g.file} (lexicon: ${g.lexicon})\n`);
  for (const t of g.turns) {
    const p = t.played;
    const move = `${p.position} ${p.word}`.trim();
    const rank = p.rank === null ? 'not generated' : `rank ${p.rank}, ${t.equityLost} equity lost`;
    const validity = p.valid ? '' : ' (a word not in the lexicon)';
    process.stdout.write(
      `  ${String(t.turn).padStart(2)} ${t.player}: ${t.rack ?? '(rack unknown)'} ${move} ${p.score}${validity}; ${t.rack ? rank : ''}\n`,
    );
    const best = t.best[0];
    if (best && p.rank !== 1)
      process.stdout.write(
        `       best: ${`${best.position} ${best.word}`.trim()} ${best.score} (equity ${best.equity})\n`,
      );
  }
}
