import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decodeGcg, gcgFromGame, MAX_GCG_MOVES, readGcg, replayGcg, writeGcg } from '../index.ts';

const gamesDir = new URL('../../../fixtures/games/', import.meta.url);
const fixtureGames = readdirSync(gamesDir).filter((f) => f.endsWith('.gcg'));

function read(text: string) {
  const r = readGcg(text);
  if (!r.ok) throw new Error(r.message);
  return r.document;
}

describe('reading GCG', () => {
  it('reads old conventions: lowercase coordinates, spelled-out and parenthesised through-letters, no rack, DOS line ends, trailing text', () => {
    const text = [
      '#player1 ann Ann',
      '#player2 ben Ben',
      '>ann: ?EINRST 8b RETaINS +64 64 a note after the total',
      '>ben: d8 TO +2 2',
      '>ann: AELOPQ C7 Q(E) +21 85',
      '>ben: e8 .X +17 19',
    ].join('\r\n');
    const document = read(text);
    const entries = document.lines.flatMap((l) => (l.type === 'entry' ? [l.entry] : []));
    expect(entries[0]).toMatchObject({
      kind: 'play',
      position: { row: 7, col: 1, direction: 'across' },
      trailing: 'a note after the total',
    });
    expect(entries[1]).not.toHaveProperty('rack');
    const replayed = replayGcg(document);
    if (!replayed.ok) throw new Error(replayed.message);
    expect(replayed.report.mismatches).toEqual([]);
    expect(replayed.report.players.map((p) => p.score)).toEqual([85, 19]);
  });

  it('decodes ISO-8859-1 and UTF-8 names, with or without the encoding pragma', () => {
    const latin1 = Uint8Array.from([...'#player1 c\xe9sar c\xe9sar\n'].map((c) => c.charCodeAt(0)));
    expect(decodeGcg(latin1)).toMatchObject({ ok: true, text: '#player1 césar césar\n', encoding: 'latin1' });
    const utf8 = new TextEncoder().encode('#player1 césar césar\n');
    expect(decodeGcg(utf8)).toMatchObject({ ok: true, encoding: 'utf-8', text: '#player1 césar césar\n' });
    const declared = new TextEncoder().encode('#character-encoding ISO-8859-1\n#player1 x y\n');
    expect(decodeGcg(declared)).toMatchObject({ ok: true, encoding: 'latin1' });
  });

  it('refuses an encoding it cannot read, naming line 1', () => {
    const bytes = new TextEncoder().encode('#character-encoding ISO8859-6\n#player1 a a\n');
    expect(decodeGcg(bytes)).toMatchObject({ ok: false, reason: 'unsupported-encoding', line: 1 });
  });

  const malformed: [string, string, RegExp][] = [
    ['a move line without a colon', '>ann DINNVWY 8D WINDY +32 32', /line 3: expected '>nickname: …'/],
    [
      'a move without score and total',
      '>ann: DINNVWY 8D WINDY 32',
      /line 3: expected a score and a running total/,
    ],
    [
      'a position off the board',
      '>ann: DINNVWY 8Z WINDY +32 32',
      /line 3: expected a position like 8D or D8, got '8Z'/,
    ],
    ['a word with a digit', '>ann: DINNVWY 8D WIN3Y +32 32', /line 3: expected a word of letters/],
    ['an unknown move token', '>ann: DINNVWY ?? +0 0', /line 3: expected a position and word/],
    ['players out of order', '#player4 dan Dan', /line 3: '#player4' is out of order/],
  ];
  for (const [what, line, message] of malformed) {
    it(`names the line and what was expected for ${what}`, () => {
      const r = readGcg(`#player1 ann Ann\n#player2 ben Ben\n${line}\n`);
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.message).toMatch(message);
    });
  }

  it('names the line of a play that does not fit the board', () => {
    const r = replayGcg(read('#player1 a A\n#player2 b B\n>a: WINDY 8D WINDY +32 32\n>b: XYZ 8D XY +0 0\n'));
    expect(r).toMatchObject({ ok: false, line: 4 });
    if (!r.ok) expect(r.message).toMatch(/line 4: the word XY puts X on a square holding W/);
  });

  it('names the line of an illegal play', () => {
    const r = replayGcg(read('#player1 a A\n#player2 b B\n>a: WINDY 1A WINDY +32 32\n'));
    expect(r).toMatchObject({ ok: false, line: 3 });
    if (!r.ok) expect(r.message).toMatch(/centre/);
  });

  it('refuses two players with the same nickname', () => {
    const r = replayGcg(read('#player1 x A\n#player2 x B\n>x: AB 8G AB +8 8\n'));
    expect(r).toMatchObject({ ok: false, line: 2 });
  });
});

describe('fixture games', () => {
  for (const file of fixtureGames) {
    it(`replays ${file} as its golden says`, () => {
      const golden = JSON.parse(readFileSync(new URL(file.replace(/\.gcg$/, '.json'), gamesDir), 'utf8'));
      const replayed = replayGcg(read(readFileSync(new URL(file, gamesDir), 'utf8')));
      if (!replayed.ok) throw new Error(replayed.message);
      const { players, turns, mismatches } = replayed.report;
      expect({ file, players, turns, mismatches }).toEqual(golden);
    });
  }
});

describe('writing GCG', () => {
  for (const file of fixtureGames) {
    it(`writes ${file} back byte for byte`, () => {
      const text = readFileSync(new URL(file, gamesDir), 'utf8');
      expect(writeGcg(read(text))).toBe(text);
    });
  }

  it('writes old conventions in the canonical form, and reads that back to the same game', () => {
    const old =
      '#player1 ann Ann\n#player2 ben Ben\n>ann:   ?EINRST  8b RETaINS   +64 64\n>ben:  d8 TO +2 2\n';
    const written = writeGcg(read(old));
    expect(written).toBe(
      '#player1 ann Ann\n#player2 ben Ben\n>ann: ?EINRST 8B RETaINS +64 64\n>ben:  D8 TO +2 2\n',
    );
    expect(read(written)).toEqual(read(old));
  });
});

describe('exporting a game', () => {
  it('writes a game as GCG that replays to the same scores', () => {
    for (const file of fixtureGames) {
      const replayed = replayGcg(read(readFileSync(new URL(file, gamesDir), 'utf8')));
      if (!replayed.ok) throw new Error(replayed.message);
      const text = writeGcg(gcgFromGame(replayed.report.state));
      const again = replayGcg(read(text));
      if (!again.ok) throw new Error(`${file}: ${again.message}\n${text}`);
      expect(again.report.players, file).toEqual(replayed.report.players);
      expect(again.report.mismatches, file).toEqual([]);
    }
  });
});

describe('a record past the cap on move lines', () => {
  it('is refused at the first line past it, before anything is replayed', () => {
    const lines = ['#player1 a Ann', '#player2 b Ben'];
    for (let i = 0; i < MAX_GCG_MOVES; i++) lines.push(`>${i % 2 ? 'b' : 'a'}: - +0 0`);
    expect(readGcg(lines.join('\n')).ok).toBe(true);
    lines.push('>a: - +0 0');
    expect(readGcg(lines.join('\n'))).toMatchObject({
      ok: false,
      line: MAX_GCG_MOVES + 3,
      message: `line ${MAX_GCG_MOVES + 3}: a game record holds at most ${MAX_GCG_MOVES} move lines; this one holds more`,
    });
  });
});
