import { describe, expect, it } from 'vitest';
import { boardFromText, emptyBoard, makeMove, type Placement } from '../engine/index.ts';
import { decompose } from './live-labels.ts';

const rows = (lines: Record<number, string>) =>
  boardFromText(Array.from({ length: 15 }, (_, r) => (lines[r] ?? '').padEnd(15, '.')));
const word = (p: readonly Placement[]) => p.map((t) => t.tile).join('');

describe('the plays between two photographed boards (bench:live, the English game)', () => {
  it('is the one play when the change is one', () => {
    const plays = decompose(emptyBoard(), rows({ 7: '......CAT' }));
    expect(plays?.map(word)).toEqual(['CAT']);
  });

  it('finds plays, legal one after another, for moves made between two photos', () => {
    // CAT through the centre, then COW down from its C, then WE across from the W.
    const after = rows({ 7: '......CAT', 8: '......O', 9: '......WE' });
    const plays = decompose(emptyBoard(), after)!;
    expect(plays.length).toBeGreaterThan(1);
    let board = emptyBoard();
    for (const play of plays) {
      const made = makeMove(board, play);
      expect(made.ok).toBe(true);
      if (made.ok) board = made.after;
    }
    expect(board.cells).toEqual(after.cells);
  });

  it('finds none when a tile was taken away or changed', () => {
    expect(decompose(rows({ 7: '......CAT' }), rows({ 7: '......CA' }))).toBeUndefined();
    expect(decompose(rows({ 7: '......CAT' }), rows({ 7: '......COT' }))).toBeUndefined();
  });
});
