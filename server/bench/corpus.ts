/**
 * The recorded games of ../shared/corpus/gcg as the move generator's benchmark and test take them: each readable
 * record, and each English turn's position with its recorded rack and, where asked, a rack drawn from the tiles
 * unseen there (a seeded draw: the same racks every run).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type Board,
  decodeGcg,
  type GameRules,
  type GcgDocument,
  readGcg,
  recordPositions,
  unseenTiles,
} from '../engine/index.ts';

export const corpusDir = fileURLToPath(new URL('../../../shared/corpus/gcg/', import.meta.url));

/** Every record below the corpus folder that decodes and reads, in path order (none when it is absent). */
export function corpusRecords(dir = corpusDir): { file: string; document: GcgDocument }[] {
  if (!existsSync(dir)) return [];
  const out: { file: string; document: GcgDocument }[] = [];
  for (const sub of readdirSync(dir).sort())
    for (const name of readdirSync(join(dir, sub)).sort()) {
      const decoded = decodeGcg(new Uint8Array(readFileSync(join(dir, sub, name))));
      if (!decoded.ok) continue;
      const read = readGcg(decoded.text);
      if (read.ok) out.push({ file: `${sub}/${name}`, document: read.document });
    }
  return out;
}

export interface RackPosition {
  readonly where: string;
  readonly board: Board;
  readonly rack: string;
  readonly rules: GameRules;
}

/**
 * The English records' positions: each turn with a recorded rack, and at every `drawEvery`-th turn a rack of up to 7
 * tiles drawn with `random` from the tiles unseen there.
 */
export function rackPositions(
  records: readonly { file: string; document: GcgDocument }[],
  random: () => number,
  drawEvery: number,
): RackPosition[] {
  const positions: RackPosition[] = [];
  for (const { file, document } of records) {
    const found = recordPositions(document);
    if (!found.ok || found.lang !== 'en') continue;
    found.positions.forEach((p, k) => {
      const rack = p.entry.rack?.toUpperCase();
      if (rack)
        positions.push({ where: `${file} line ${p.entry.line}`, board: p.board, rack, rules: p.rules });
      if (k % drawEvery !== 0) return;
      const drawn = drawUnseen(p, 7, random, true);
      if (drawn)
        positions.push({
          where: `${file} line ${p.entry.line} (drawn)`,
          board: p.board,
          rack: drawn,
          rules: p.rules,
        });
    });
  }
  return positions;
}

/**
 * Racks with two blanks, the generator's hardest case: at every `every`-th English turn, `??` and five tiles drawn with
 * `random` from the other tiles unseen there; `most` positions at most.
 */
export function twoBlankPositions(
  records: readonly { file: string; document: GcgDocument }[],
  random: () => number,
  every: number,
  most: number,
): RackPosition[] {
  const positions: RackPosition[] = [];
  for (const { file, document } of records) {
    const found = recordPositions(document);
    if (!found.ok || found.lang !== 'en') continue;
    for (let k = 0; k < found.positions.length && positions.length < most; k += every) {
      const p = found.positions[k]!;
      const rack = `??${drawUnseen(p, 5, random, false)}`;
      positions.push({
        where: `${file} line ${p.entry.line} (two blanks)`,
        board: p.board,
        rack,
        rules: p.rules,
      });
    }
  }
  return positions;
}

/** Up to `count` tiles drawn with `random` from those unseen on `p`'s board (`blanks`: the blanks among them). */
function drawUnseen(
  p: { readonly board: Board; readonly rules: GameRules },
  count: number,
  random: () => number,
  blanks: boolean,
): string {
  const pool = [...unseenTiles(p.rules.tileSet, p.board).tiles].flatMap(([t, c]) =>
    !blanks && t === '?' ? [] : (Array(c).fill(t) as string[]),
  );
  let drawn = '';
  for (let i = 0; i < count && pool.length > 0; i++)
    drawn += pool.splice(Math.floor(random() * pool.length), 1)[0];
  return drawn;
}

/** A deterministic pseudo-random generator (mulberry32): numbers in [0, 1). */
export function seeded(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
