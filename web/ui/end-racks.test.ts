import { describe, expect, it } from 'vitest';
import type { GameSnapshot } from '../../server/protocol/index.ts';
import { racksFromTracker } from './end-racks.ts';

const snapshot = (over: { players?: number; bag: number; tiles: Record<string, number>; last?: number }) =>
  ({
    players: Array.from({ length: over.players ?? 2 }, (_, i) => ({ name: `P${i}`, score: 0 })),
    turns: over.last === undefined ? [] : [{ player: over.last, kind: 'play', points: 10, cumulative: 10 }],
    unseen: {
      tiles: over.tiles,
      total: Object.values(over.tiles).reduce((a, b) => a + b, 0),
      vowels: 0,
      consonants: 0,
      blanks: 0,
      bag: over.bag,
    },
  }) as unknown as GameSnapshot;

describe('the racks the End-game dialog fills in', () => {
  it('are the unseen tiles on the other rack when the last player went out of an empty bag', () => {
    expect(racksFromTracker(snapshot({ bag: 0, tiles: { Q: 1, U: 1, '?': 1, A: 0 }, last: 1 }), 7)).toEqual([
      'QU?',
      '',
    ]);
  });

  it('are left to the players while tiles are in the bag, racks are fuller, or more than two play', () => {
    expect(racksFromTracker(snapshot({ bag: 3, tiles: { Q: 1 }, last: 0 }), 7)).toBeUndefined();
    expect(racksFromTracker(snapshot({ bag: 0, tiles: { E: 9 }, last: 0 }), 7)).toBeUndefined();
    expect(racksFromTracker(snapshot({ players: 3, bag: 0, tiles: { E: 2 }, last: 0 }), 7)).toBeUndefined();
    expect(racksFromTracker(snapshot({ bag: 0, tiles: { E: 2 } }), 7)).toBeUndefined();
  });
});
