import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { boardFromText, emptyBoard, inferMove, makeRules, scorePlay } from './index.ts';

const dir = new URL('../../fixtures/rules/worked_example/', import.meta.url);
// Before turn 1 the board is empty; turnN.txt is the board after turn N.
const after = [1, 2, 3, 4, 5].map((n) => boardFromText(readFileSync(new URL(`turn${n}.txt`, dir), 'utf8')));
const boards = [emptyBoard(), ...after];
const rules = makeRules();

describe('the seed rule book worked example (R on the centre star)', () => {
  const expected = [
    { score: 14, words: { HORN: 14 } },
    { score: 9, words: { FARM: 9 } },
    { score: 25, words: { PASTE: 15, FARMS: 10 } },
    { score: 16, words: { MOB: 8, NOT: 4, BE: 4 } },
    { score: 16, words: { BIT: 10, PI: 4, AT: 2 } },
  ];
  for (const [i, want] of expected.entries()) {
    it(`scores turn ${i + 1} as ${Object.keys(want.words).join(' + ')} = ${want.score}`, () => {
      const inferred = inferMove(boards[i]!, boards[i + 1]!);
      if (!inferred.ok || inferred.kind !== 'play') throw new Error(`turn ${i + 1} not inferred`);
      const score = scorePlay(boards[i + 1]!, inferred.move.placements, inferred.move.direction, rules);
      expect(Object.fromEntries(score.words.map((w) => [w.word, w.score]))).toEqual(want.words);
      expect(score.score).toBe(want.score);
    });
  }

  it('shows the letter premium and word multiplier of each letter in the breakdown', () => {
    const inferred = inferMove(boards[4]!, boards[5]!);
    if (!inferred.ok || inferred.kind !== 'play') throw new Error('not inferred');
    const bit = scorePlay(boards[5]!, inferred.move.placements, inferred.move.direction, rules).words[0]!;
    expect(bit.word).toBe('BIT');
    expect(bit.wordMultiplier).toBe(2); // B on 11E, a double word square
    expect(bit.letters.map((l) => [l.tile, l.value, l.letterMultiplier, l.placed])).toEqual([
      ['B', 3, 1, true],
      ['I', 1, 1, true],
      ['T', 1, 1, true],
    ]);
  });

  it('counts premiums only under tiles placed this turn', () => {
    // Turn 3: P of PASTE sits on 10F, a triple letter; in turn 5 the P is part of PI and counts face value.
    const inferred = inferMove(boards[4]!, boards[5]!);
    if (!inferred.ok || inferred.kind !== 'play') throw new Error('not inferred');
    const pi = scorePlay(boards[5]!, inferred.move.placements, inferred.move.direction, rules).words.find(
      (w) => w.word === 'PI',
    )!;
    expect(pi.letters[0]).toMatchObject({ tile: 'P', letterMultiplier: 1, placed: false });
  });
});
