import { describe, expect, it } from 'vitest';
import { count } from './ui/render.ts';

describe('the unseen line’s counts', () => {
  it('say 1 vowel, 2 vowels, 0 blanks', () => {
    expect([count(1, 'vowel'), count(2, 'vowel'), count(0, 'blank')]).toEqual([
      '1 vowel',
      '2 vowels',
      '0 blanks',
    ]);
  });
});
