/**
 * The move generator on real positions: every recorded turn of the English games in ../shared/corpus/gcg with its
 * recorded rack, and every third one again with a rack drawn from the tiles unseen there (more blanks, more letters
 * the players did not hold), against the brute-force reference (every word of the default list tried at every
 * square, kept by the engine's own checks and scored by score.ts): identical plays, identical scores.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  analyzeRecord,
  type Board,
  Dawg,
  decodeGcg,
  type GameRules,
  listPlays,
  readGcg,
  recordPositions,
  unseenTiles,
} from '../server/engine/index.ts';
import { playKey, referencePlays, referenceWords } from '../server/engine/movegen/brute.ts';

const corpus = fileURLToPath(new URL('../../shared/corpus/gcg/', import.meta.url));
const A = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const words = (
  JSON.parse(
    readFileSync(createRequire(import.meta.url).resolve('an-array-of-english-words'), 'utf8'),
  ) as string[]
).map((w) => w.toUpperCase());
const dawg = Dawg.build(A, words);

function records() {
  const out: { file: string; document: Extract<ReturnType<typeof readGcg>, { ok: true }>['document'] }[] = [];
  for (const dir of readdirSync(corpus).sort())
    for (const name of readdirSync(join(corpus, dir)).sort()) {
      const decoded = decodeGcg(new Uint8Array(readFileSync(join(corpus, dir, name))));
      if (!decoded.ok) continue;
      const read = readGcg(decoded.text);
      if (read.ok) out.push({ file: `${dir}/${name}`, document: read.document });
    }
  return out;
}

/** A small seeded generator (mulberry32), so the drawn racks are the same every run. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('the move generator against the brute-force reference', () => {
  it('finds exactly the same plays with the same scores on over 1,000 corpus positions', () => {
    const ref = referenceWords(A, words);
    const draw = random(2026);
    const positions: { where: string; board: Board; rack: string; rules: GameRules }[] = [];
    for (const { file, document } of records()) {
      const found = recordPositions(document);
      if (!found.ok || found.lang !== 'en') continue;
      found.positions.forEach((p, k) => {
        const rack = p.entry.rack?.toUpperCase();
        if (!rack) return;
        positions.push({ where: `${file} line ${p.entry.line}`, board: p.board, rack, rules: p.rules });
        if (k % 3 !== 0) return;
        const pool = [...unseenTiles(p.rules.tileSet, p.board).tiles].flatMap(
          ([t, c]) => Array(c).fill(t) as string[],
        );
        let drawn = '';
        for (let i = 0; i < 7 && pool.length > 0; i++)
          drawn += pool.splice(Math.floor(draw() * pool.length), 1)[0];
        if (drawn)
          positions.push({
            where: `${file} line ${p.entry.line} (drawn)`,
            board: p.board,
            rack: drawn,
            rules: p.rules,
          });
      });
    }
    expect(positions.length).toBeGreaterThanOrEqual(1000);
    const wrong: string[] = [];
    let plays = 0;
    for (const p of positions) {
      const list = listPlays(p.board, p.rack, dawg, p.rules);
      const generated = new Map<string, number>();
      for (let i = 0; i < list.size; i++) generated.set(playKey(list.play(i).placements), list.score[i]!);
      plays += list.size;
      const reference = referencePlays(p.board, p.rack, ref, p.rules);
      const differ =
        generated.size !== list.size ||
        generated.size !== reference.size ||
        [...reference].some(([key, r]) => generated.get(key) !== r.score);
      if (differ)
        wrong.push(`${p.where} ${p.rack}: ${list.size} generated, ${reference.size} by brute force`);
    }
    expect(wrong).toEqual([]);
    expect(plays).toBeGreaterThan(100_000);
  }, 900_000);

  it('generates every recorded play whose words are all in the lexicon, with the score the engine gives it', () => {
    let valid = 0;
    let ranked = 0;
    for (const { document } of records()) {
      const analysed = analyzeRecord(document, dawg);
      if (!analysed.ok || analysed.lang !== 'en') continue;
      for (const t of analysed.turns) {
        // A rack that lacks a tile the play put down (the quackle test positions pair racks and plays freely) has no
        // such play among its own.
        if (t.rack === null || !t.rackHolds || t.played.position === '' || !t.played.valid) continue;
        valid++;
        if (t.played.rank !== null) ranked++;
        else expect.soft(t, `${t.player} turn ${t.turn}`).toBeUndefined();
      }
    }
    expect(valid).toBeGreaterThan(300);
    expect(ranked).toBe(valid);
  }, 300_000);
});
