/**
 * The racks left at the end, worked out from the racks recorded with the moves (engine racks-left.ts), against what
 * real recorded games say they were: the `(RACK)` lines of the corpus's games (../shared/corpus/gcg, when it is
 * there) and the project's fixtures. The end-of-game dialog fills these in from the racks a scorekeeper kept.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { corpusRecords } from '../server/bench/corpus.ts';
import { type GcgDocument, racksLeft, readGcg, replayGcg } from '../server/engine/index.ts';
import { root } from './helpers.ts';

const sorted = (rack: string) => [...rack].sort().join('');

/** Each record's racks left as worked out, and as its end lines say (seat order; undefined where no line says). */
function compare(document: GcgDocument) {
  const replayed = replayGcg(document);
  if (!replayed.ok || !replayed.report.state.ended) return undefined;
  const { state } = replayed.report;
  const said: (string | undefined)[] = state.players.map(() => undefined);
  for (const t of state.turns) {
    // A player who went out is paid their opponent's rack (two players); a rack penalty is the player's own.
    if (t.kind === 'end-rack' && state.players.length === 2) {
      said[1 - t.player] = t.rack ?? '';
      said[t.player] ??= '';
    }
    if (t.kind === 'rack-penalty') said[t.player] = t.rack ?? '';
  }
  return { worked: racksLeft(state), said };
}

describe('the racks left at the end, from the racks recorded with the moves', () => {
  const fixtures = readdirSync(join(root, 'fixtures/games'))
    .filter((f) => f.endsWith('.gcg'))
    .map((f) => {
      const read = readGcg(readFileSync(join(root, 'fixtures/games', f), 'utf8'));
      if (!read.ok) throw new Error(`${f}: ${read.message}`);
      return { file: f, document: read.document };
    });
  const records = [...fixtures, ...corpusRecords()];

  it('are what the records’ end lines say, wherever they can be worked out', () => {
    let known = 0;
    let checked = 0;
    for (const { file, document } of records) {
      const r = compare(document);
      if (!r) continue;
      r.worked.forEach((rack, seat) => {
        const said = r.said[seat];
        if (rack === null || said === undefined) return;
        checked++;
        if (rack !== '') known++;
        expect(sorted(rack), `${file} seat ${seat}`).toBe(sorted(said.replace(/[()]/g, '')));
      });
    }
    // Worked out against the record for many players' final racks, most of them a rack with tiles on it.
    expect(checked).toBeGreaterThan(records.length > fixtures.length ? 20 : 1);
    expect(known).toBeGreaterThan(0);
  });

  it('are not known where the last move’s rack is not, or the bag still held tiles', () => {
    const read = readGcg(readFileSync(join(root, 'fixtures/games', 'going_out_rulebook.gcg'), 'utf8'));
    if (!read.ok) throw new Error(read.message);
    // The record without any rack: nothing can be worked out.
    const bare = {
      ...read.document,
      lines: read.document.lines.map((l) => {
        if (l.type !== 'entry') return l;
        const { rack: _rack, ...entry } = l.entry;
        return { ...l, entry };
      }),
    };
    const replayed = replayGcg(bare);
    if (!replayed.ok) throw new Error(replayed.message);
    expect(racksLeft(replayed.report.state).every((r) => r === null)).toBe(true);
  });
});
