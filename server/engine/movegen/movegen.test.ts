/** The DAWG, the move generator against the brute-force reference on hand-made boards, equity, a record analysed. */
import { describe, expect, it } from 'vitest';
import { boardFromText, emptyBoard, place } from '../board.ts';
import { readGcg } from '../gcg/read.ts';
import { makeRules } from '../rules.ts';
import { scorePlay } from '../score.ts';
import { tileSets } from '../tilesets.ts';
import { checkPlacement } from '../words.ts';
import { analyzeRecord } from './analyze.ts';
import { playKey, referencePlays, referenceWords } from './brute.ts';
import { Dawg } from './dawg.ts';
import { leaveValue } from './equity.ts';
import { generatePlays } from './generate.ts';

const A = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const WORDS = [
  'QI',
  'QAT',
  'QATS',
  'AT',
  'TA',
  'TI',
  'IT',
  'ITS',
  'SIT',
  'SAT',
  'AS',
  'IS',
  'SI',
  'TAT',
  'TATS',
  'A',
  'I',
];
const rules = makeRules({ lang: 'en' });

describe('the DAWG', () => {
  const dawg = Dawg.build(A, WORDS);

  it('holds every word of two letters or more, and nothing else', () => {
    for (const w of WORDS) expect(dawg.has(w)).toBe(w.length >= 2);
    expect(dawg.size).toBe(WORDS.filter((w) => w.length >= 2).length);
    for (const w of ['Q', 'QA', 'QATSS', 'TIS', '', 'ÄT']) expect(dawg.has(w)).toBe(false);
  });

  it('shares equal suffixes: QATS and TATS end in one node', () => {
    const q = dawg.walk('QA');
    const t = dawg.walk('TA');
    expect(dawg.child(q, A.indexOf('T'))).toBe(dawg.child(t, A.indexOf('T')));
  });

  it('reads back from its bytes the same, and refuses bytes that are not one', () => {
    const bytes = dawg.toBytes();
    const back = Dawg.fromBytes(bytes)!;
    expect(back.size).toBe(dawg.size);
    expect(back.counts).toEqual(dawg.counts);
    for (const w of [...WORDS, 'QATSS']) expect(back.has(w)).toBe(dawg.has(w));
    expect(Dawg.fromBytes(bytes.subarray(0, bytes.length - 4))).toBeUndefined();
    const bad = bytes.slice();
    bad[0] = 0;
    expect(Dawg.fromBytes(bad)).toBeUndefined();
    const wild = bytes.slice();
    new DataView(wild.buffer).setUint32(wild.length - 4, 1e6, true);
    expect(Dawg.fromBytes(wild)).toBeUndefined();
  });
});

describe('the move generator', () => {
  const dawg = Dawg.build(A, WORDS);
  const ref = referenceWords(A, WORDS);
  const same = (board: ReturnType<typeof emptyBoard>, rack: string) => {
    const plays = generatePlays(board, rack, dawg, rules);
    const keys = plays.map((p) => playKey(p.placements));
    expect(new Set(keys).size).toBe(keys.length);
    const brute = referencePlays(board, rack, ref, rules);
    expect(new Map(plays.map((p) => [playKey(p.placements), p.score]))).toEqual(
      new Map([...brute].map(([k, v]) => [k, v.score])),
    );
    return plays;
  };

  it('opens on the centre square only, every play scored as score.ts scores it', () => {
    const plays = same(emptyBoard(), 'QATSIT?');
    expect(plays.length).toBeGreaterThan(20);
    for (const p of plays) {
      expect(p.placements.some((t) => t.row === 7 && t.col === 7)).toBe(true);
      const check = checkPlacement(emptyBoard(), p.placements);
      expect(check.ok).toBe(true);
      const after = place(emptyBoard(), p.placements);
      expect(scorePlay(after, p.placements, p.direction, rules).score).toBe(p.score);
    }
    // QATS through the centre across, Q on the double word: (10+1+1+1)·2 = 26.
    expect(
      plays.find((p) => p.word === 'QATS' && p.row === 7 && p.col === 7 && p.direction === 'across')?.score,
    ).toBe(26);
  });

  it('plays a blank as any letter, worth nothing, and says what is left', () => {
    const plays = same(emptyBoard(), '?I');
    const qi = plays.find((p) => p.word === 'qI' && p.col === 6 && p.direction === 'across')!;
    expect(qi.score).toBe(2);
    expect(qi.leave).toBe('');
    expect(
      plays.every((p) => p.placements.every((t) => t.tile === 'I' || t.tile === t.tile.toLowerCase())),
    ).toBe(true);
  });

  it('lists a single tile making words both ways once, across, and hooks and parallels', () => {
    const board = boardFromText(
      [
        '...............',
        '...............',
        '...............',
        '...............',
        '...............',
        '...............',
        '.......Q.......',
        '.......AT......',
        '.......T.......',
        '...............',
        '...............',
        '...............',
        '...............',
        '...............',
        '...............',
      ].join('\n'),
    );
    const plays = same(board, 'SIAT');
    const s = plays.filter(
      (p) => p.placements.length === 1 && p.placements[0]!.row === 9 && p.placements[0]!.col === 7,
    );
    expect(s.map((p) => p.word)).toEqual(['QATS']);
    // QI across on row 7 hooks IT down beside AT: a parallel play.
    expect(plays.some((p) => p.word === 'QI' && p.direction === 'across' && p.row === 6)).toBe(true);
  });

  it('never puts a word through a blank of unknown letter', () => {
    const board = boardFromText(
      ['.......?A......'.padEnd(15, '.'), ...Array(14).fill('.'.repeat(15))].join('\n'),
    );
    const plays = generatePlays(board, 'QT', dawg, rules);
    expect(plays.every((p) => !p.word.includes('?'))).toBe(true);
  });
});

describe('equity', () => {
  const en = tileSets.en;
  it('values a blank and an S above a Q, and duplicates and too many vowels below', () => {
    expect(leaveValue('?', en)).toBeGreaterThan(leaveValue('S', en));
    expect(leaveValue('S', en)).toBeGreaterThan(leaveValue('Q', en));
    expect(leaveValue('II', en)).toBeLessThan(2 * leaveValue('I', en));
    expect(leaveValue('AEIOU', en)).toBeLessThan(leaveValue('AERST', en));
    expect(leaveValue('', en)).toBe(0);
  });
});

describe('analysing a record', () => {
  const gcg = ['#player1 a Ann', '#player2 b Bob', '>a: QATSXYZ 8G QAT +24 24', '>b: H8 (A)IT +3 3'].join(
    '\n',
  );

  it('ranks each move among the plays of its rack, says what it gave up, and leaves a turn without a rack alone', () => {
    const read = readGcg(gcg);
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    const analysed = analyzeRecord(read.document, Dawg.build(A, [...WORDS, 'AIT']), { top: 100 });
    expect(analysed.ok).toBe(true);
    if (!analysed.ok) return;
    const [first, second] = analysed.turns;
    expect(first!.rack).toBe('QATSXYZ');
    expect(first!.played.valid).toBe(true);
    expect(first!.played.rank).not.toBeNull();
    expect(first!.best[0]!.equity).toBeGreaterThanOrEqual(first!.played.equity);
    expect(first!.equityLost).toBeCloseTo(first!.best[0]!.equity - first!.played.equity, 5);
    // QATS on the same squares scores 2 more, but QAT keeps the S: worth more than 2 in equity.
    const qats = first!.best.find((b) => b.word === 'QATS' && b.position === '8G');
    expect(qats?.score).toBe(26);
    expect(first!.played.equity).toBeGreaterThan(qats!.equity);
    expect(second!.rack).toBeNull();
    expect(second!.best).toEqual([]);
    expect(second!.played.rank).toBeNull();
  });
});
