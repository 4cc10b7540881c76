/** Learning a set's look from labelled squares: a bias that moves readings the way the examples say. */
import { describe, expect, it } from 'vitest';
import { fitBias } from './adapt.ts';

describe('fitBias', () => {
  it('raises a reading the model keeps scoring under another, and leaves alone what it reads right', () => {
    const keys = ['.', '?', 'I', 'L'];
    // This font's I: the model gives L 0.55 and I 0.4. Its L and empty squares it reads right.
    const examples = [
      ...Array.from({ length: 20 }, () => ({ scores: [0.01, 0.01, 0.4, 0.55], label: 'I' })),
      ...Array.from({ length: 20 }, () => ({ scores: [0.01, 0.01, 0.05, 0.9], label: 'L' })),
      ...Array.from({ length: 40 }, () => ({ scores: [0.97, 0.01, 0.01, 0.01], label: '.' })),
    ];
    const bias = fitBias(keys, examples);
    const read = (scores: number[]) => {
      const biased = scores.map((s, j) => Math.log(s) + (bias.get(keys[j]!) ?? 0));
      return keys[biased.indexOf(Math.max(...biased))];
    };
    expect(read([0.01, 0.01, 0.4, 0.55])).toBe('I');
    expect(read([0.01, 0.01, 0.05, 0.9])).toBe('L');
    expect(read([0.97, 0.01, 0.01, 0.01])).toBe('.');
    // No examples, no bias.
    expect(fitBias(keys, []).size).toBe(0);
  });
});
