/** The `tilecam recognize` and `tilecam eval` contracts of docs/design.md, through the real command line. */
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { root, tilecam } from './helpers.ts';

const photos = join(root, 'fixtures/photos');

describe('tilecam recognize', () => {
  it('prints the board, confidences, corners, rotation and timings as one JSON object', async () => {
    const r = await tilecam('recognize', join(photos, 'seen_from_the_left_side.jpg'), '--json');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.board).toHaveLength(15);
    expect(out.board[7]).toBe('...WINDY.......');
    expect(out.confidence).toHaveLength(15);
    expect(out.confidence[7]).toHaveLength(15);
    expect(out.corners).toHaveLength(4);
    expect(out.rotation).toBe(90);
    expect(Object.keys(out.ms).sort()).toEqual(['classify', 'decode', 'locate', 'total']);
  });

  it('writes the grid and the straightened board with --debug', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tilecam-debug-'));
    const r = await tilecam('recognize', join(photos, 'overhead_green_cream.jpg'), '--debug', dir);
    expect(r.code).toBe(0);
    expect(readdirSync(dir).sort()).toEqual([
      'overhead_green_cream.grid.jpg',
      'overhead_green_cream.warped.jpg',
    ]);
    // A photo with squares in doubt: a sheet of them too, one square each.
    const demo = await tilecam('recognize', join(root, 'fixtures/demo_game/1.jpg'), '--debug', dir, '--json');
    const unsure = JSON.parse(demo.stdout).unsure.length;
    expect(unsure).toBeGreaterThan(0);
    expect(
      readdirSync(dir)
        .filter((f) => f.startsWith('1.'))
        .sort(),
    ).toEqual(['1.grid.jpg', '1.unsure.jpg', '1.warped.jpg']);
    const sheet = await sharp(join(dir, '1.unsure.jpg')).metadata();
    expect(sheet.width).toBe(Math.min(unsure, 6) * 184 - 4);
  });

  it('exits 1 with a clear message for a file that is not an image, and for bad corners', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tilecam-bad-'));
    writeFileSync(join(dir, 'notes.jpg'), 'not a photo');
    const r = await tilecam('recognize', join(dir, 'notes.jpg'), '--json');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/not an image tilecam can read/);
    expect(JSON.parse(r.stdout).error.code).toBe('not-an-image');
    const c = await tilecam('recognize', join(photos, 'overhead_green_cream.jpg'), '--corners', '1,2,3');
    expect(c.code).toBe(1);
    expect(c.stderr).toMatch(/--corners needs 8 numbers/);
    // A --debug folder that cannot be made: said before any work, not a crash.
    const d = await tilecam(
      'recognize',
      join(photos, 'overhead_green_cream.jpg'),
      '--debug',
      join(dir, 'notes.jpg'),
    );
    expect(d.code).toBe(1);
    expect(d.stderr).toMatch(/--debug: .*notes\.jpg is not a folder/);
    const e = await tilecam('eval', photos, '--debug', join(dir, 'notes.jpg', 'sub'));
    expect(e.code).toBe(1);
    expect(e.stderr).toMatch(/--debug: cannot make the folder .*ENOTDIR/);
  });
});

describe('tilecam eval', () => {
  it('measures labelled photos below the folders given', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tilecam-eval-'));
    for (const name of ['overhead_green_cream', 'blank_tiles']) {
      copyFileSync(join(photos, `${name}.jpg`), join(dir, `${name}.jpg`));
      copyFileSync(join(photos, `${name}.txt`), join(dir, `${name}.txt`));
    }
    // A wrong label: one square says X where the photo has nothing.
    copyFileSync(join(photos, 'tilted_30_red_wooden.jpg'), join(dir, 'mislabelled.jpg'));
    writeFileSync(
      join(dir, 'mislabelled.txt'),
      `X${readFileSync(join(photos, 'tilted_30_red_wooden.txt'), 'utf8').slice(1)}`,
    );
    const r = await tilecam('eval', dir, '--json');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({ images: 3, detected: 3, cells: 675, cellErrors: 1, boardsPerfect: 2 });
    expect(out.cellErrorRate).toBeCloseTo(1 / 675, 6);
    expect(out.confusions).toEqual([['X', '.', 1]]);
    expect(out.msPerImageMedian).toBeGreaterThan(0);
  });

  it("takes the labels from another folder with --labels, at the photos' own paths, and says when it cannot", async () => {
    // Photos that may not be copied into the project, their hand-made labels kept elsewhere (fixtures/labels/).
    const shots = mkdtempSync(join(tmpdir(), 'tilecam-eval-photos-'));
    const labels = mkdtempSync(join(tmpdir(), 'tilecam-eval-labels-'));
    mkdirSync(join(shots, 'a'));
    mkdirSync(join(labels, 'a'));
    copyFileSync(join(photos, 'overhead_green_cream.jpg'), join(shots, 'a', 'one.jpg'));
    copyFileSync(join(photos, 'overhead_green_cream.txt'), join(labels, 'a', 'one.txt'));
    // A label beside the photo is not the one read: it says X where the photo has nothing.
    writeFileSync(
      join(shots, 'a', 'one.txt'),
      `X${readFileSync(join(photos, 'overhead_green_cream.txt'), 'utf8').slice(1)}`,
    );
    // A photo with no label in the folder is left out.
    copyFileSync(join(photos, 'blank_tiles.jpg'), join(shots, 'two.jpg'));
    const r = await tilecam('eval', shots, '--labels', labels, '--json');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ images: 1, detected: 1, cellErrors: 0 });
    const missing = await tilecam('eval', shots, '--labels', join(labels, 'none'), '--json');
    expect(missing.code).toBe(1);
    expect(JSON.parse(missing.stdout).error.message).toMatch(
      /cannot read the labels in .*none: no such file or folder/,
    );
  });

  it('counts the squares read right but reported unsure (each would stop a game for a click)', async () => {
    const demo = join(root, 'fixtures/demo_game');
    // Counted here from `recognize` of each labelled photo: its unsure squares whose reading is the label's.
    let expected = 0;
    for (const name of readdirSync(demo).filter((f) => f.endsWith('.txt'))) {
      const label = readFileSync(join(demo, name), 'utf8').trim().split('\n');
      const r = await tilecam('recognize', join(demo, name.replace('.txt', '.jpg')), '--json');
      const read = JSON.parse(r.stdout) as { board: string[]; unsure: { row: number; col: number }[] };
      for (const { row, col } of read.unsure)
        if ([...read.board[row]!][col] === [...label[row]!][col]) expected++;
    }
    // The demo's photos have one (a reading that changes with the model would change this: it is then re-counted).
    expect(expected).toBeGreaterThan(0);
    const out = JSON.parse((await tilecam('eval', demo, '--json')).stdout);
    expect(out.unsureRight).toBe(expected);
    expect((await tilecam('eval', demo)).stdout).toMatch(
      new RegExp(`; ${expected} right squares reported unsure;`),
    );
  });

  it('measures the int8 copy of the model (npm run quantize): the demo photos read as the float model reads them', async () => {
    const demo = join(root, 'fixtures/demo_game');
    const float = JSON.parse((await tilecam('eval', demo, '--json')).stdout);
    const r = await tilecam('eval', demo, '--json', '--model', join(root, 'models/cells.int8.onnx'));
    expect(r.code).toBe(0);
    const int8 = JSON.parse(r.stdout);
    expect(int8).toMatchObject({ images: 3, detected: 3, cellErrors: float.cellErrors, boardsPerfect: 3 });
  });

  it('compares a blank as empty for label sets that write blanks as "."', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tilecam-eval-blanks-'));
    copyFileSync(join(photos, 'blank_tiles.jpg'), join(dir, 'blank_tiles.jpg'));
    const label = readFileSync(join(photos, 'blank_tiles.txt'), 'utf8');
    const blanks = label.split('?').length - 1;
    expect(blanks).toBeGreaterThan(0);
    writeFileSync(join(dir, 'blank_tiles.txt'), label.replaceAll('?', '.'));
    const strict = JSON.parse((await tilecam('eval', dir, '--json')).stdout);
    expect(strict).toMatchObject({ cellErrors: blanks, boardsPerfect: 0 });
    expect(strict.confusions).toEqual([['.', '?', blanks]]);
    expect(strict.blanksOnEmptyLabels).toBeUndefined();
    const r = await tilecam('eval', dir, '--json', '--blanks-labelled-empty');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({
      cellErrors: 0,
      boardsPerfect: 1,
      blanksOnEmptyLabels: blanks,
    });
  });

  it('compares a blank labelled with the letter it was named (lowercase) as the blank it is read as', async () => {
    // The rendered games' labels write a blank as its named letter in lowercase; no photo shows that letter.
    const dir = mkdtempSync(join(tmpdir(), 'tilecam-eval-named-'));
    copyFileSync(join(photos, 'blank_tiles.jpg'), join(dir, 'blank_tiles.jpg'));
    const label = readFileSync(join(photos, 'blank_tiles.txt'), 'utf8');
    expect(label.split('?').length - 1).toBeGreaterThan(0);
    writeFileSync(join(dir, 'blank_tiles.txt'), label.replaceAll('?', 'e'));
    expect(JSON.parse((await tilecam('eval', dir, '--json')).stdout)).toMatchObject({
      cellErrors: 0,
      boardsPerfect: 1,
    });
    // A blank labelled where the photo shows an empty square is still an error.
    expect(label[0]).toBe('.');
    writeFileSync(join(dir, 'blank_tiles.txt'), `e${label.slice(1)}`);
    const wrong = JSON.parse((await tilecam('eval', dir, '--json')).stdout);
    expect(wrong.confusions).toEqual([['?', '.', 1]]);
  });

  it('compares with labels corrected by --errata, and refuses errata that do not fit the labels', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tilecam-eval-errata-'));
    for (const sub of ['a', 'b']) {
      mkdirSync(join(dir, sub));
      copyFileSync(join(photos, 'tilted_30_red_wooden.jpg'), join(dir, sub, 'board.jpg'));
    }
    const label = readFileSync(join(photos, 'tilted_30_red_wooden.txt'), 'utf8');
    expect(label[0]).toBe('.');
    writeFileSync(join(dir, 'a', 'board.txt'), `X${label.slice(1)}`);
    writeFileSync(join(dir, 'b', 'board.txt'), label);
    const debug = mkdtempSync(join(tmpdir(), 'tilecam-eval-debug-'));
    const plain = await tilecam('eval', dir, '--debug', debug);
    expect(plain.code).toBe(0);
    // The text output names every wrong square, and --debug draws them for a person to check.
    expect(plain.stdout).toMatch(/a\/board\.jpg: 1 wrong: 1A X→\./);
    expect(readdirSync(debug)).toEqual(['a_board.squares.jpg']);
    const sheet = await sharp(join(debug, 'a_board.squares.jpg')).metadata();
    expect([sheet.width, sheet.height]).toEqual([180, 204]);
    const errata = join(dir, 'errata.txt');
    writeFileSync(errata, '# the label of a/board says X at 1A\na/board 1A X . no tile there\n');
    const r = await tilecam('eval', dir, '--json', '--errata', errata);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({
      images: 2,
      cellErrors: 0,
      boardsPerfect: 2,
      labelsCorrected: 1,
    });
    // Written for another version of the labels: the command stops instead of measuring against a wrong label.
    writeFileSync(errata, 'b/board 1A X .\n');
    const stale = await tilecam('eval', dir, '--errata', errata);
    expect(stale.code).toBe(1);
    expect(stale.stderr).toMatch(/errata line 1: .*b\/board\.txt says '\.' at 1A, not 'X'/);
    // A photo named so briefly that it could be either.
    writeFileSync(errata, 'board 2A . E\n');
    const vague = await tilecam('eval', dir, '--errata', errata);
    expect(vague.code).toBe(1);
    expect(vague.stderr).toMatch(/errata line 1: 'board' names 2 photos/);
    writeFileSync(errata, 'a/board 1A X\n');
    const bad = await tilecam('eval', dir, '--errata', errata);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/errata\.txt: errata line 1: needs PHOTO SQUARE LABEL PHOTO-SHOWS/);
    const missing = await tilecam('eval', dir, '--errata', join(dir, 'none.txt'));
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/cannot read the errata .*none\.txt/);
  });

  it('measures another model with --model, and stops with a clear message when it cannot be loaded', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tilecam-eval-model-'));
    copyFileSync(join(photos, 'overhead_green_cream.jpg'), join(dir, 'overhead_green_cream.jpg'));
    copyFileSync(join(photos, 'overhead_green_cream.txt'), join(dir, 'overhead_green_cream.txt'));
    const models = mkdtempSync(join(tmpdir(), 'tilecam-models-'));
    copyFileSync(join(root, 'models/cells.onnx'), join(models, 'copy.onnx'));
    copyFileSync(join(root, 'models/cells.json'), join(models, 'copy.json'));
    // Its metadata names the quick copy that reads first (models/cells.int8.onnx): without it beside, no reading.
    const alone = await tilecam('eval', dir, '--model', join(models, 'copy.onnx'));
    expect(alone.code).toBe(1);
    expect(alone.stderr).toMatch(/metadata beside .*cells\.int8\.onnx/);
    for (const ext of ['onnx', 'json'])
      copyFileSync(join(root, `models/cells.int8.${ext}`), join(models, `cells.int8.${ext}`));
    // And the seat reader (models/cells.seat.onnx): without it beside, no reading either.
    const noSeat = await tilecam('eval', dir, '--model', join(models, 'copy.onnx'));
    expect(noSeat.code).toBe(1);
    expect(noSeat.stderr).toMatch(/metadata beside .*cells\.seat\.onnx.*the seat reader of/);
    for (const ext of ['onnx', 'json'])
      copyFileSync(join(root, `models/cells.seat.${ext}`), join(models, `cells.seat.${ext}`));
    const r = await tilecam('eval', dir, '--json', '--model', join(models, 'copy.onnx'));
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ images: 1, detected: 1, cellErrors: 0 });
    // No metadata beside it: the command fails instead of counting every square wrong.
    const missing = await tilecam('eval', dir, '--model', join(models, 'missing.onnx'));
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/cannot read the model's metadata/);
    // Metadata, but not an ONNX file.
    writeFileSync(join(models, 'broken.onnx'), 'not a model');
    copyFileSync(join(root, 'models/cells.json'), join(models, 'broken.json'));
    const broken = await tilecam('eval', dir, '--json', '--model', join(models, 'broken.onnx'));
    expect(broken.code).toBe(1);
    expect(JSON.parse(broken.stdout).error.message).toMatch(/cannot load the model/);
  });

  it('reads a folder as one steady camera with --sequence, unlabelled photos too', async () => {
    const demo = join(root, 'fixtures/demo_game');
    const plain = JSON.parse((await tilecam('eval', demo, '--json')).stdout);
    expect(plain.sequence).toBeUndefined();
    const r = await tilecam('eval', '--sequence', demo, '--json');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    // 0.jpg has no label: it is not compared, but the camera sees it first, before 1.jpg.
    expect(out).toMatchObject({ images: 3, detected: 3, cells: 675 });
    for (const k of ['cellErrors', 'silentErrors', 'boardsPerfect', 'confusions'])
      expect(out[k], k).toEqual(plain[k]);
    const seq = out.sequence;
    expect(seq).toMatchObject({ frames: 4, cameras: 1 });
    expect(Object.keys(seq.paths).sort()).toEqual(['changed', 'hint', 'search', 'still']);
    // The rendered frames differ too much from each other (each a new view): after the first search, each is read
    // whole from the last grid.
    expect(seq.paths).toEqual({ search: 1, hint: 3, still: 0, changed: 0 });
    expect(seq.cellsReadMedian).toBe(225);
    expect(Object.keys(seq.msMedian).sort()).toEqual(['classify', 'decode', 'locate', 'total']);
    expect(seq.msMedian.total).toBeGreaterThan(0);
  });

  it('--sequence: each folder below is its own camera, photos in natural order; --errata and --debug too', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tilecam-eval-sequence-'));
    const label = readFileSync(join(photos, 'tilted_30_red_wooden.txt'), 'utf8');
    mkdirSync(join(dir, 'a'));
    mkdirSync(join(dir, 'b'));
    for (const name of ['image-2', 'image-10']) {
      copyFileSync(join(photos, 'tilted_30_red_wooden.jpg'), join(dir, 'a', `${name}.jpg`));
      writeFileSync(join(dir, 'a', `${name}.txt`), `X${label.slice(1)}`);
    }
    copyFileSync(join(photos, 'overhead_green_cream.jpg'), join(dir, 'b', 'board.jpg'));
    copyFileSync(join(photos, 'overhead_green_cream.txt'), join(dir, 'b', 'board.txt'));
    const debug = mkdtempSync(join(tmpdir(), 'tilecam-eval-sequence-debug-'));
    const text = await tilecam('eval', dir, '--sequence', '--debug', debug);
    expect(text.code).toBe(0);
    // image-2 before image-10, as a camera took them.
    expect(text.stdout).toMatch(/a\/image-2\.jpg: 1 wrong: 1A X→\.\n.*a\/image-10\.jpg: 1 wrong: 1A X→\./);
    expect(text.stdout).toMatch(/as 2 steady cameras: 3 frames read \(search 2, /);
    expect(readdirSync(debug).sort()).toEqual(['a_image-10.squares.jpg', 'a_image-2.squares.jpg']);
    const sheet = await sharp(join(debug, 'a_image-10.squares.jpg')).metadata();
    expect([sheet.width, sheet.height]).toEqual([180, 204]);
    const errata = join(dir, 'errata.txt');
    writeFileSync(errata, 'a/image-2 1A X . no tile there\n');
    const r = await tilecam('eval', dir, '--sequence', '--json', '--errata', errata);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({
      images: 3,
      cellErrors: 1,
      boardsPerfect: 2,
      labelsCorrected: 1,
      sequence: { frames: 3, cameras: 2 },
    });
  });

  it('exits 1 when a folder holds no labelled photo', async () => {
    const r = await tilecam('eval', mkdtempSync(join(tmpdir(), 'tilecam-empty-')));
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/no labelled photos/);
  });

  it('exits 1 with a clear message for a folder that is not there', async () => {
    const r = await tilecam('eval', join(tmpdir(), 'tilecam-no-such-folder'));
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/cannot read .*tilecam-no-such-folder: no such folder/);
  });
});
