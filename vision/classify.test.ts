/** The readings kept per square: the likeliest few, picked as a stable sort by falling score would order them. */
import { describe, expect, it } from 'vitest';
import { likeliest } from './classify.ts';

describe('likeliest', () => {
  it('gives the first four of a stable sort by falling score, the last score (a hand) included', () => {
    let seed = 3;
    const rnd = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    let ties = 0;
    for (let trial = 0; trial < 500; trial++) {
      const n = 1 + Math.floor(rnd() * 40);
      // Few distinct values: ties everywhere (letters a model lacks score 0; shares repeat).
      const pick = () => [0, 0, 0.1, 0.25, 0.5, rnd()][Math.floor(rnd() * 6)]!;
      const scores = Array.from({ length: n }, pick);
      const last = pick();
      const all = [...scores, last];
      const expected = all
        .map((v, j) => [v, j] as const)
        .sort((a, b) => b[0] - a[0])
        .slice(0, 4)
        .map(([, j]) => j);
      if (new Set(expected.map((j) => all[j])).size < expected.length) ties++;
      expect(likeliest(scores, last)).toEqual(expected);
    }
    expect(ties).toBeGreaterThan(100);
  });
});
