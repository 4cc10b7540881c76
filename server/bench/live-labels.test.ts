import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { boardFromText, emptyBoard, makeMove, type Placement } from '../engine/index.ts';
import { decompose, readLabelledGame } from './live-labels.ts';

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

describe('a labelled game with turns that lay no tile (a rendered seat game, bench:live --seat)', () => {
  it('makes a pass of each `pass` line, so the players after it take their own turns', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tilecam-labels-'));
    try {
      const label = (lines: Record<number, string>) =>
        `${Array.from({ length: 15 }, (_, r) => (lines[r] ?? '').padEnd(15, '.')).join('\n')}\n`;
      writeFileSync(join(dir, 'move-01.txt'), label({ 7: '......CAT' }));
      writeFileSync(join(dir, 'move-02.txt'), label({ 7: '......CAT', 8: '......O', 9: '......W' }));
      // Seat 1 plays CAT, seat 2 exchanges, seat 1 passes, seat 2 plays COW.
      writeFileSync(
        join(dir, 'sequence.txt'),
        'move-00.jpg empty\nmove-01.jpg\nmove-01.jpg pass\nmove-01.jpg pass\nmove-02.jpg\n',
      );
      const game = readLabelledGame('g', dir, dir);
      expect(game.moves.map((m) => `${m.kind} ${m.colour}`)).toEqual([
        'play green',
        'pass red',
        'pass green',
        'play red',
      ]);
      expect(game.moves[1]!.photo).toBe(join(dir, 'move-01.jpg'));
      expect(game.moves[1]!.label).toEqual(game.moves[0]!.label);
      // COW scores for the second seat (C 3, O 1 on G9's double letter, W 4: 9), CAT's for the first.
      expect(game.moves[3]!.totals).toEqual({ green: game.moves[0]!.totals.green, red: 9 });
      expect(game.notes).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a pass before the first photo and an unknown mark', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tilecam-labels-'));
    try {
      writeFileSync(join(dir, 'sequence.txt'), 'move-00.jpg pass\n');
      expect(() => readLabelledGame('g', dir, dir)).toThrow(/a pass before the first photo/);
      writeFileSync(join(dir, 'sequence.txt'), 'move-00.jpg empty\nmove-00.jpg skip\n');
      expect(() => readLabelledGame('g', dir, dir)).toThrow(/NAME.jpg pass/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
