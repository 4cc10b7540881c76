/**
 * The German reading lexicon: what nspell accepts of Hunspell's German dictionary, worked out once (1–2 s) and kept
 * as a sorted list in a file. It is loaded when a word is first looked up, not when a German game is loaded: an
 * instance handing its frames to workers never reads one.
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import dictionaryDe from 'dictionary-de';
import { afterAll, describe, expect, it, vi } from 'vitest';

const built = vi.hoisted(() => ({ count: 0 }));
vi.mock('nspell', async (original) => {
  const real = (await original<{ default: (...args: unknown[]) => unknown }>()).default;
  return {
    default: (...args: unknown[]) => {
      built.count++;
      return real(...args);
    },
  };
});

const cache = mkdtempSync(join(tmpdir(), 'tilecam-words-'));
const before = process.env.TILECAM_CACHE_DIR;
process.env.TILECAM_CACHE_DIR = cache;
afterAll(() => {
  if (before === undefined) delete process.env.TILECAM_CACHE_DIR;
  else process.env.TILECAM_CACHE_DIR = before;
});

const fresh = async () => {
  vi.resetModules();
  return (await import('./index.ts')).readingLexicon('de')!;
};

describe('the German reading lexicon', () => {
  it('is not read when a German game is loaded, only at the first word looked up in it, and once', async () => {
    const { readingLexicon } = await import('./index.ts');
    const { SqliteStore } = await import('../store/sqlite.ts');
    const { GameService } = await import('../service/service.ts');
    const { parseGameConfig } = await import('../service/validate.ts');
    const store = new SqliteStore(join(mkdtempSync(join(tmpdir(), 'tilecam-lexicon-')), 'games.db'));
    const service = new GameService(store);
    try {
      const { id } = await service.create(parseGameConfig({ players: ['Anna', 'Ben'], lang: 'de' }));
      await service.get(id);
      expect(built.count).toBe(0);
      expect(readdirSync(cache)).toEqual([]);
      const lexicon = readingLexicon('de')!;
      expect(lexicon.has('HAUS')).toBe(true);
      expect(lexicon.has('ÄRGER')).toBe(true);
      expect(lexicon.has('XQZT')).toBe(false);
      expect(lexicon.has('haus')).toBe(true);
      expect(built.count).toBe(1);
      expect(readingLexicon('de')!.has('HÄUSER')).toBe(true);
      expect(built.count).toBe(1);
    } finally {
      service.stopAll();
      store.close();
    }
  });

  it('is read from the file kept the first time, and worked out again when that file is not whole', async () => {
    expect((await fresh()).has('HAUS')).toBe(true);
    const [file] = readdirSync(cache).filter((f) => f.endsWith('.words'));
    expect(file).toBeDefined();
    const path = join(cache, file!);
    const text = readFileSync(path, 'utf8');
    const count = built.count;
    const kept = await fresh();
    expect([kept.has('HAUS'), kept.has('KATZEN'), kept.has('XQZT')]).toEqual([true, true, false]);
    expect(built.count).toBe(count);
    // Cut short, as by a disk that filled up; and with one word left out, the rest in order and whole: neither is
    // read, each is worked out again and kept whole.
    const lines = text.split('\n');
    const at = lines.indexOf('ZWIEBEL');
    expect(at).toBeGreaterThan(0);
    for (const damaged of [
      text.slice(0, text.length >> 1),
      [...lines.slice(0, at), ...lines.slice(at + 1)].join('\n'),
    ]) {
      writeFileSync(path, damaged);
      const before = built.count;
      const again = await fresh();
      expect([again.has('HAUS'), again.has('ZWIEBEL')]).toEqual([true, true]);
      expect(built.count).toBe(before + 1);
      expect(readFileSync(path, 'utf8')).toBe(text);
    }
  });

  it('answers as nspell does, for every form it spells out and for words one letter off them', async () => {
    const { default: nspell } = await import('nspell');
    const spell = nspell({ aff: Buffer.from(dictionaryDe.aff), dic: Buffer.from(dictionaryDe.dic) });
    // What the lexicon answered before it was kept as a list: nspell, asked in capitals and capitalised.
    const accepts = (word: string) => {
      const upper = word.toUpperCase();
      return spell.correct(upper) || spell.correct(upper[0] + upper.slice(1).toLowerCase());
    };
    const lexicon = await fresh();
    const forms = Object.keys((spell as unknown as { data: object }).data);
    expect(forms.length).toBeGreaterThan(400_000);
    const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÜ';
    let compared = 0;
    let differ = 0;
    forms.forEach((form, k) => {
      const probes = [form, form.toUpperCase()];
      // Every 7th form also with a letter changed, added and taken away (most are not words).
      if (k % 7 === 0) {
        const at = k % form.length;
        const letter = letters[k % letters.length]!;
        probes.push(
          form.slice(0, at) + letter + form.slice(at + 1),
          form + letter,
          form.slice(0, at) + form.slice(at + 1),
        );
      }
      for (const probe of probes) {
        if (!probe || probe.toUpperCase().toLowerCase().toUpperCase() !== probe.toUpperCase()) continue;
        compared++;
        if (lexicon.has(probe) !== accepts(probe)) differ++;
      }
    });
    expect(compared).toBeGreaterThan(1_000_000);
    expect(differ).toBe(0);
  }, 60_000);
});
