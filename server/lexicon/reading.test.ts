/**
 * The German reading lexicon (Hunspell's dictionary read with nspell, about a second and 80 MB) is loaded when a word
 * is first looked up, not when a German game is loaded: an instance handing its frames to workers never reads one.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';

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

const { readingLexicon } = await import('./index.ts');
const { SqliteStore } = await import('../store/sqlite.ts');
const { GameService } = await import('../service/service.ts');
const { parseGameConfig } = await import('../service/validate.ts');

describe('the German reading lexicon', () => {
  it('is not read when a German game is loaded, only at the first word looked up in it, and once', async () => {
    const store = new SqliteStore(join(mkdtempSync(join(tmpdir(), 'tilecam-lexicon-')), 'games.db'));
    const service = new GameService(store);
    try {
      const { id } = await service.create(parseGameConfig({ players: ['Anna', 'Ben'], lang: 'de' }));
      await service.get(id);
      expect(built.count).toBe(0);
      const lexicon = readingLexicon('de')!;
      expect(lexicon.has('HAUS')).toBe(true);
      expect(lexicon.has('ÄRGER')).toBe(true);
      expect(lexicon.has('XQZT')).toBe(false);
      expect(built.count).toBe(1);
    } finally {
      service.stopAll();
      store.close();
    }
  });
});
