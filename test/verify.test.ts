/**
 * Settling a score from photos (`tilecam verify`, server/service/checks/verify.ts) on the shared German games
 * (../shared/realdata/scrabscrap-de, when it is there: measured, never committed): every consecutive pair of photos
 * of every game, up to its first challenge, must give the score sheet's points for that move. And the inputs that
 * cannot settle a score say so. One photo is no fair test: game07's image-6 has a hand over the board (the
 * fingers hide the A at 11E and look like tiles); both its pairs must say they cannot settle the score, and why.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { gameFolders, readGame } from '../server/bench/live-sheet.ts';
import { boardFromText, explainMove, inferMove, makeRules } from '../server/engine/index.ts';
import { germanReadingLexicon } from '../server/lexicon/index.ts';
import { type PhotoReader, type Read, readPhoto, verifyPhotos } from '../server/service/checks/verify.ts';
import { root, tilecam } from './helpers.ts';

const games = join(root, '..', 'shared', 'realdata', 'scrabscrap-de');
const present = existsSync(games);
if (!present) console.warn(`NOTICE: ${games} is absent; the real-photo cases of verify are skipped.`);

/** Each photo is read once for all the pairs it is part of. */
const cache = new Map<string, Promise<Read>>();
const files = new Map<Uint8Array, string>();
const cachedRead: PhotoReader = (bytes, lang) => {
  const key = files.get(bytes) ?? '';
  if (!key) return readPhoto(bytes, lang);
  if (!cache.has(key)) cache.set(key, readPhoto(bytes, lang));
  return cache.get(key)!;
};
const photo = (file: string) => {
  const bytes = readFileSync(file);
  files.set(bytes, file);
  return bytes;
};

describe.skipIf(!present)(
  'every move of the shared German games, from the photos before and after it',
  () => {
    const lexicon = germanReadingLexicon();
    for (const name of present ? gameFolders(games) : []) {
      it(`${name}: the sheet's points, up to the first challenge`, { timeout: 120_000 }, async () => {
        const game = readGame(games, name);
        let previous: string | undefined;
        const checked: string[] = [];
        const problems: string[] = [];
        for (const move of game.moves) {
          if (move.kind === 'challenge') break;
          if (!move.photo) {
            previous = undefined;
            continue;
          }
          if (previous) {
            const claimed = move.kind === 'play' ? move.points! : null;
            const v = await verifyPhotos(
              photo(previous),
              photo(move.photo),
              { lang: 'de', claimed, lexicon },
              cachedRead,
            );
            const hand = [previous, move.photo].some((f) => f.endsWith(join('game07', 'image-6.jpg')));
            if (hand) {
              if (v.verdict !== 'unsure' || !v.message.includes('a hand covers'))
                problems.push(`move ${move.number}: a photo with a hand gave ${v.verdict}: ${v.message}`);
              previous = move.photo;
              continue;
            }
            const want = move.kind === 'play' ? 'right' : 'unsure';
            if (v.verdict !== want || (move.kind === 'play' && v.points !== move.points))
              problems.push(
                `move ${move.number} (${move.word ?? 'pass'} ${move.points ?? ''}): ${v.verdict}, ${v.message}`,
              );
            checked.push(`${move.number}`);
          }
          previous = move.photo;
        }
        expect(problems).toEqual([]);
        expect(checked.length).toBeGreaterThan(3);
      });
    }
  },
);

describe('tilecam verify', () => {
  const demo = join(root, 'fixtures/demo_game');
  const label = (n: number) => boardFromText(readFileSync(join(demo, `${n}.txt`), 'utf8'));
  /** What the engine makes of the labelled boards: the score the photos must give. */
  const truth = (() => {
    const inferred = inferMove(label(1), label(2));
    if (!inferred.ok || inferred.kind !== 'play') throw new Error('the demo game has no move 2');
    return explainMove(label(2), inferred.move, makeRules());
  })();

  it('finds the move between two photos, explains it and judges the claim (--json)', async () => {
    const r = await tilecam(
      'verify',
      join(demo, '1.jpg'),
      join(demo, '2.jpg'),
      '--claimed',
      String(truth.points),
      '--json',
    );
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({ verdict: 'right', points: truth.points, claimed: truth.points, cause: null });
    expect(out.move).toEqual(truth.move);
    expect(out.words.map((w: { word: string }) => w.word)).toEqual(truth.words.map((w) => w.word));
    expect(Object.keys(out.words[0].letters[0]).sort()).toEqual(
      ['col', 'covered', 'placed', 'premium', 'row', 'tile', 'value'].sort(),
    );
  });

  it('says a wrong claim is wrong, by how much and why (exit 1)', async () => {
    // The claim with a cross-word left out.
    const cross = truth.words.find((w) => !w.main)!;
    const r = await tilecam(
      'verify',
      join(demo, '1.jpg'),
      join(demo, '2.jpg'),
      '--claimed',
      String(truth.points - cross.score),
    );
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`not ${truth.points - cross.score} (${cross.score} too few)`);
    expect(r.stdout).toContain(`cross-word ${cross.word}`);
    for (const w of truth.words) expect(r.stdout).toContain(w.sentence);
    // No --lang: the set the points were scored with is said (a German board read so is scored wrong).
    expect(r.stderr).toContain(
      'scored with the English tile set, the default: for a German set give --lang de',
    );
    const chosen = await tilecam('verify', join(demo, '1.jpg'), join(demo, '2.jpg'), '--lang', 'en');
    expect(chosen.stderr).toBe('');
  });

  it('checks an announced move against the photo after it', async () => {
    const word = truth.words.find((w) => w.main)!;
    const r = await tilecam(
      'verify',
      join(demo, '2.jpg'),
      '--move',
      `${truth.move.position} ${word.word} ${truth.points}`,
      '--json',
    );
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ verdict: 'right', points: truth.points });
    const wrong = await tilecam(
      'verify',
      join(demo, '2.jpg'),
      '--move',
      `${truth.move.position} ${word.word}X`,
    );
    expect(wrong.code).toBe(2);
    expect(wrong.stderr + wrong.stdout).toMatch(/runs off|does not show|no tile/);
  });

  it('cannot settle bad input, and says why (exit 2)', async () => {
    // A photo of something else: a plain gradient.
    const noBoard = join(mkdtempSync(join(tmpdir(), 'tilecam-verify-')), 'wall.png');
    const width = 400;
    const pixels = Buffer.alloc(width * width * 3, 0).map((_, i) => (i % (width * 3)) / 5);
    writeFileSync(
      noBoard,
      await sharp(pixels, { raw: { width, height: width, channels: 3 } })
        .png()
        .toBuffer(),
    );
    const cases: [string[], RegExp][] = [
      [[join(demo, '2.jpg'), join(demo, '2.jpg')], /no move: the two photos show the same tiles/],
      [
        [join(demo, '2.jpg'), join(root, 'fixtures/photos/german_umlauts.jpg')],
        // Read as English, the German board's Ä, Ö and Ü are said first: the points would hang on the wrong set.
        /^these tiles look German: .*This is the English set: check it with the German set \(the Check page's tile set, or tilecam verify --lang de\)$/,
      ],
      [
        [join(demo, '2.jpg'), join(root, 'fixtures/photos/german_umlauts.jpg'), '--lang', 'de'],
        /no single legal move|disagree|more than one move/,
      ],
      [[noBoard, join(demo, '2.jpg')], /the photo before: no Scrabble board/],
      [[join(demo, '1.jpg'), join(demo, '2.txt')], /the photo after: /],
      [
        [join(demo, '1.jpg'), join(demo, 'no-such.jpg')],
        /cannot read .*no-such\.jpg: no such file or folder/,
      ],
      [[join(demo, '1.jpg')], /needs two photos/],
      [[join(demo, '1.jpg'), join(demo, '2.jpg'), '--claimed', 'lots'], /--claimed must be a score/],
      [[join(demo, '1.jpg'), join(demo, '2.jpg'), '--lang', 'fr'], /--lang must be en or de/],
    ];
    for (const [args, message] of cases) {
      const r = await tilecam('verify', ...args, '--json');
      expect(r.code, args.join(' ')).toBe(2);
      const out = JSON.parse(r.stdout);
      expect(out.error?.message ?? out.message, args.join(' ')).toMatch(message);
      if (!out.error) expect(out.verdict).toBe('unsure');
    }
  });
});

describe('squares in doubt between two photos (readings made by hand)', () => {
  const rows = (r: Record<number, string>) =>
    Array.from({ length: 15 }, (_, i) => (r[i] ?? '').padEnd(15, '.'));
  const board = (r: Record<number, string>) => boardFromText(rows(r).join('\n'));
  /** WINDY on row 8, then AN under its W and I; `doubt` the square both photos are unsure of, with its readings. */
  const reader = (doubt: {
    row: number;
    col: number;
    options: { tile: string; p: number }[];
  }): PhotoReader => {
    const reads = [board({ 7: '...WINDY' }), board({ 7: '...WINDY', 8: '...AN' })].map(
      (b): Read => ({ board: b, unsure: [{ row: doubt.row, col: doubt.col }], alternatives: [doubt] }),
    );
    return async (bytes) => reads[bytes[0]!]!;
  };
  const run = (doubt: Parameters<typeof reader>[0], claimed: number | null) =>
    verifyPhotos(new Uint8Array([0]), new Uint8Array([1]), { lang: 'en', claimed }, reader(doubt));

  it('names an old tile read two ways in both photos, with what each reading scores', async () => {
    // The W of WINDY (8D, in the cross-word WA): W 4 or M 3.
    const v = await run(
      {
        row: 7,
        col: 3,
        options: [
          { tile: 'W', p: 0.5 },
          { tile: 'M', p: 0.45 },
        ],
      },
      null,
    );
    expect(v.verdict).toBe('unsure');
    expect(v.unsure).toHaveLength(1);
    expect(v.unsure[0]).toMatchObject({ square: '8D', photo: 'before' });
    expect(v.unsure[0]!.readings.map((r) => [r.tile, r.points])).toEqual([
      ['W', 9],
      ['M', 8],
    ]);
  });

  it('settles the score when every reading of the doubtful square scores the same', async () => {
    // The I of WINDY (8E, in IN): I 1 or L 1.
    const v = await run(
      {
        row: 7,
        col: 4,
        options: [
          { tile: 'I', p: 0.5 },
          { tile: 'L', p: 0.45 },
        ],
      },
      9,
    );
    expect(v).toMatchObject({ verdict: 'right', points: 9 });
    expect(v.unsure[0]!.readings.map((r) => r.points)).toEqual([9, 9]);
    expect(v.message).toContain('the same score either way');
  });
});

describe.skipIf(!present)('a German board checked, or played, as English', () => {
  const image = (n: number) => readFileSync(join(games, 'game01', `image-${n}.jpg`));

  it('is no confident verdict: the check names the letters and asks for the German set', async () => {
    // Move 3 of game01 is MÖS. at J2: its Ö, read as English, would be an O worth 1, not 8.
    const v = await verifyPhotos(image(2), image(3), { lang: 'en', claimed: 21 });
    expect(v.verdict).toBe('unsure');
    expect(v.message).toMatch(
      /^these tiles look German: Ö at 10C\. This is the English set: check it with the German set \(the Check page's tile set, or tilecam verify --lang de\)$/,
    );
    const right = await verifyPhotos(image(2), image(3), { lang: 'de', claimed: 19 });
    expect([right.verdict, right.points]).toEqual(['right', 19]);
  });

  it('holds the move in an English game, naming the letters', async () => {
    const { GameService } = await import('../server/service/service.ts');
    const { SqliteStore } = await import('../server/store/sqlite.ts');
    const store = new SqliteStore(join(mkdtempSync(join(tmpdir(), 'tilecam-foreign-')), 'games.db'));
    const service = new GameService(store);
    const { id } = await service.create({
      players: ['Stefan', 'Hanns'],
      lang: 'en',
      variant: 'classic',
      challengeRule: 'double',
      capture: 'button',
    });
    const session = await service.session(id);
    const board2 = readFileSync(join(games, 'game01', 'image-2.txt'), 'utf8')
      .trimEnd()
      .split('\n');
    expect((await session.act({ type: 'confirm', board: board2 })).status).toBe('committed');
    const held = await session.submitFrame(image(3), true);
    expect(held.status).toBe('needs-confirmation');
    expect(held.reasons?.[0]).toMatch(
      /^these tiles look German: Ö at 10C\. This is the English set: start a German game/,
    );
    await store.close();
  });
});

describe.skipIf(!present)('what a check cannot settle, said so that the player knows what to do', () => {
  const image = (n: number) => readFileSync(join(games, 'game04', `image-${n}.jpg`));
  const lexicon = germanReadingLexicon();

  it('photos given the wrong way round: says they look swapped and how to give them', async () => {
    const v = await verifyPhotos(image(6), image(5), { lang: 'de', claimed: 30, lexicon });
    expect(v.verdict).toBe('unsure');
    expect(v.message).toBe(
      'the photo after has no tiles on 15C, 15D, 15F, 15G, 15H, which the photo before shows: the photos look swapped. Give the earlier photo first (tilecam verify EARLIER LATER)',
    );
    // The right way round, the sheet's 30.
    const right = await verifyPhotos(image(5), image(6), { lang: 'de', claimed: 30, lexicon });
    expect([right.verdict, right.points]).toEqual(['right', 30]);
  });

  it('two moves apart: names each move by its word on the board, not by the tiles placed', async () => {
    const v = await verifyPhotos(image(5), image(7), { lang: 'de', lexicon });
    expect(v.message).toMatch(
      /more than one move between the photos \((ÄRA at 4L, then FINNEN at 15C|FINNEN at 15C, then ÄRA at 4L)\)/,
    );
  });

  it('an announced word whose old tiles the photo cannot tell: each reading written as the player would mark it', async () => {
    const { verifyAnnouncedPhoto } = await import('../server/service/checks/verify.ts');
    const v = await verifyAnnouncedPhoto(image(6), '15C FINNEN 30', { lang: 'de', claimed: null, lexicon });
    expect(v.verdict).toBe('unsure');
    expect(v.message).toMatch(
      /^FINNEN at 15C: 3 readings score the 30 announced\. Mark the tiles that were already there, as in FI\(N\)NEN: FI\(N\)NEN scores 30; /,
    );
  });
});

describe.skipIf(!present)('a new tile of another set that the camera doubts', () => {
  it('is no confident verdict either: game04 3→4, MENÜS with its Ü read as an unsure U in English', async () => {
    const image = (n: number) => readFileSync(join(games, 'game04', `image-${n}.jpg`));
    const v = await verifyPhotos(image(3), image(4), { lang: 'en', claimed: 32 });
    expect(v.verdict).toBe('unsure');
    expect(v.message).toMatch(/^these tiles look German: Ü at 9G\./);
  });
});
