import { describe, expect, it } from 'vitest';
import { optionsOf } from './recognize.ts';

describe("a square's readings as reported (optionsOf)", () => {
  const odd = [
    { tile: '.', p: 0.15 },
    { tile: '#', p: 0.8 },
    { tile: 'E', p: 0.03 },
    { tile: '?', p: 0.01 },
  ];

  it('reports the reading first, then the model’s others, the hand share kept where the square is not shown', () => {
    expect(optionsOf('.', 0.15, odd, false)).toEqual([
      { tile: '.', p: 0.15 },
      { tile: '#', p: 0.8 },
      { tile: 'E', p: 0.03 },
      { tile: '?', p: 0.01 },
    ]);
  });

  it('gives the hand share of a square that shows its own colour to its empty reading', () => {
    // Read empty: the reported share takes it (the game then trusts the empty square, as it did an odd one).
    expect(optionsOf('.', 0.15, odd, true)).toEqual([
      { tile: '.', p: 0.95 },
      { tile: 'E', p: 0.03 },
      { tile: '?', p: 0.01 },
    ]);
    // Read as a letter, the empty reading listed: it takes it, and the others are in order.
    expect(optionsOf('E', 0.03, odd, true)).toEqual([
      { tile: 'E', p: 0.03 },
      { tile: '.', p: 0.95 },
      { tile: '?', p: 0.01 },
    ]);
    // Read as a letter, no empty reading listed: one is added with the hand's share.
    const noEmpty = [
      { tile: 'W', p: 0.5 },
      { tile: '#', p: 0.3 },
      { tile: 'M', p: 0.1 },
    ];
    expect(optionsOf('W', 0.5, noEmpty, true)).toEqual([
      { tile: 'W', p: 0.5 },
      { tile: '.', p: 0.3 },
      { tile: 'M', p: 0.1 },
    ]);
  });
});
