/**
 * The readings kept per square: the likeliest few, picked as a stable sort by falling score would order them; and the
 * quick copy of the model that reads every cell first.
 */
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as ort from 'onnxruntime-node';
import { afterAll, describe, expect, it } from 'vitest';
import { TileMemory } from './adapt.ts';
import { classifyCells, likeliest, loadModel } from './classify.ts';
import { readFrame, recognize } from './recognize.ts';
import { VisionError } from './types.ts';
import { cellCrops } from './warp.ts';

describe('likeliest', () => {
  it('gives the first four of a stable sort by falling score, the last score (a hand) included', () => {
    let seed = 3;
    const rnd = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    let ties = 0;
    for (let trial = 0; trial < 500; trial++) {
      const n = 1 + Math.floor(rnd() * 40);
      // Few distinct values: ties everywhere (letters a model lacks score 0; shares repeat).
      const pick = () => [0, 0, 0.1, 0.25, 0.5, rnd()][Math.floor(rnd() * 6)]!;
      const scores = Array.from({ length: n }, pick);
      const last = pick();
      const all = [...scores, last];
      const expected = all
        .map((v, j) => [v, j] as const)
        .sort((a, b) => b[0] - a[0])
        .slice(0, 4)
        .map(([, j]) => j);
      if (new Set(expected.map((j) => all[j])).size < expected.length) ties++;
      expect(likeliest(scores, last)).toEqual(expected);
    }
    expect(ties).toBeGreaterThan(100);
  });
});

describe('the quick copy reads first, the model the cells it is unsure of', () => {
  const root = fileURLToPath(new URL('../', import.meta.url));
  const session = (path: string) =>
    ort.InferenceSession.create(path, { intraOpNumThreads: 1, graphOptimizationLevel: 'all' });
  const shares = async (s: ort.InferenceSession, cells: Float32Array) => {
    const out = await s.run({ cells: new ort.Tensor('float32', cells, [cells.length / 3072, 3, 32, 32]) });
    const logits = out.logits!.data as Float32Array;
    const probs = await classifyCells({ ...(await loadModel()), quick: undefined, session: s }, cells);
    return { logits, probs: probs.probs, features: out.features!.data as Float32Array };
  };

  it('takes the copy where its likeliest share reaches trustAbove, and the model elsewhere', async () => {
    const model = await loadModel();
    expect(model.quick).toBeDefined();
    const trust = model.quick!.trustAbove;
    // A real board's 225 cells, and eight of noise that neither model can be sure of.
    const state = await readFrame(readFileSync(join(root, 'fixtures/photos/blank_tiles.jpg')));
    const board = cellCrops(state.warped, model.size, model.margin);
    let seed = 5;
    const noise = Float32Array.from({ length: 8 * 3072 }, () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    });
    const cells = new Float32Array(board.length + noise.length);
    cells.set(board);
    cells.set(noise, board.length);
    const n = cells.length / 3072;
    const k = model.classes.length;
    const f = model.features;
    const quick = await shares(await session(join(root, 'models/cells.int8.onnx')), cells);
    const full = await shares(await session(join(root, 'models/cells.onnx')), cells);
    const got = await classifyCells(model, cells);
    let trusted = 0;
    for (let i = 0; i < n; i++) {
      const row = (v: Float32Array, m = k) => Array.from(v.subarray(i * m, (i + 1) * m));
      const sure = Math.max(...row(quick.probs)) >= trust;
      if (sure) trusted++;
      const want = sure ? quick : full;
      const close = (a: number[], b: number[]) => a.every((v, j) => Math.abs(v - b[j]!) < 1e-5);
      expect(close(row(got.probs), row(want.probs)), `cell ${i}'s shares`).toBe(true);
      expect(close(row(got.features!, f), row(want.features, f)), `cell ${i}'s features`).toBe(true);
    }
    // Both paths were taken, and the two models differ on the cells compared.
    expect(trusted).toBeGreaterThan(150);
    expect(trusted).toBeLessThan(n);
    expect(quick.probs.some((v, j) => Math.abs(v - full.probs[j]!) > 1e-3)).toBe(true);
  });

  describe('the metadata naming the copy', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tilecam-quick-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));
    const floatMeta = JSON.parse(readFileSync(join(root, 'models/cells.json'), 'utf8'));
    const quickMeta = JSON.parse(readFileSync(join(root, 'models/cells.int8.json'), 'utf8'));
    /** A model directory of its own: the committed float model and copy, with metadata changed by `edit`. */
    const setUp = (name: string, edit: (float: typeof floatMeta, quick: typeof quickMeta) => void) => {
      const at = join(dir, name);
      mkdirSync(at);
      const float = structuredClone(floatMeta);
      const copy = structuredClone(quickMeta);
      float.quick = { ...floatMeta.quick, file: 'q.onnx' };
      float.seat = { ...floatMeta.seat, file: 's.onnx' };
      edit(float, copy);
      copyFileSync(join(root, 'models/cells.onnx'), join(at, 'm.onnx'));
      copyFileSync(join(root, 'models/cells.int8.onnx'), join(at, 'q.onnx'));
      copyFileSync(join(root, 'models/cells.seat.onnx'), join(at, 's.onnx'));
      copyFileSync(join(root, 'models/cells.seat.json'), join(at, 's.json'));
      writeFileSync(join(at, 'm.json'), JSON.stringify(float));
      writeFileSync(join(at, 'q.json'), JSON.stringify(copy));
      return join(at, 'm.onnx');
    };
    const refusal = async (path: string) => {
      const err = await loadModel(path).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(VisionError);
      expect((err as VisionError).code).toBe('no-model');
      return (err as VisionError).message;
    };

    it('loads a copy made from the very model', async () => {
      const model = await loadModel(setUp('good', () => {}));
      expect(model.quick?.trustAbove).toBe(floatMeta.quick.trustAbove);
      // And the seat reader fine-tuned from it, with its weight and squeeze.
      expect(model.seat?.weight).toBe(floatMeta.seat.weight);
      expect(model.seat?.belowAspect).toBe(floatMeta.seat.belowAspect);
      expect(model.seat?.model.classes).toEqual(model.classes);
    });
    it('refuses a seat reader fine-tuned from another model, another file, or named badly', async () => {
      const other = setUp('seat-other', () => {});
      const seatMeta = JSON.parse(readFileSync(join(root, 'models/cells.seat.json'), 'utf8'));
      seatMeta.fineTuning.fromSha256 = '0'.repeat(64);
      writeFileSync(join(dir, 'seat-other', 's.json'), JSON.stringify(seatMeta));
      expect(await refusal(other)).toMatch(/s\.onnx was not fine-tuned from .*m\.onnx/);
      for (const [name, edit, why] of [
        ['seat-classes', (q: typeof quickMeta) => q.classes.reverse(), /reads other classes/],
        ['seat-crops', (q: typeof quickMeta) => (q.input.cropMargin += 0.1), /reads other crops/],
      ] as const) {
        const path = setUp(name, () => {});
        const edited = JSON.parse(readFileSync(join(root, 'models/cells.seat.json'), 'utf8'));
        edit(edited);
        writeFileSync(join(dir, name, 's.json'), JSON.stringify(edited));
        expect(await refusal(path), name).toMatch(why);
      }
      // A seat reader, named with its SHA-256, whose output is not the model's classes' logits
      // (fixtures/models/features-8.onnx: 110 classes, made by models/training/make_test_model.py).
      const narrow = readFileSync(join(root, 'fixtures/models/features-8.onnx'));
      const few = setUp('seat-narrow', (m) => {
        m.seat.sha256 = createHash('sha256').update(narrow).digest('hex');
      });
      writeFileSync(join(dir, 'seat-narrow', 's.onnx'), narrow);
      expect(await refusal(few)).toMatch(/s\.onnx gives no logits for/);
      const swapped = setUp('seat-swapped', (m) => {
        m.seat.sha256 = '0'.repeat(64);
      });
      expect(await refusal(swapped)).toMatch(/is not the seat reader .* names/);
      for (const [name, seat] of [
        ['seat-heavy', { ...floatMeta.seat, file: 's.onnx', weight: 1.5 }],
        ['seat-none', { ...floatMeta.seat, file: 's.onnx', weight: 0 }],
        ['seat-aspect', { ...floatMeta.seat, file: 's.onnx', belowAspect: '0.65' }],
        ['seat-away', { ...floatMeta.seat, file: '../good/s.onnx' }],
        ['seat-null', null],
      ] as const) {
        const path = setUp(name, (m) => {
          m.seat = seat;
        });
        expect(await refusal(path), name).toMatch(/names its seat reader badly/);
      }
    });
    it('refuses a copy made from another model', async () => {
      const path = setUp('other', (_, q) => {
        q.quantisation.fromSha256 = '0'.repeat(64);
      });
      expect(await refusal(path)).toMatch(/was not made from/);
    });
    it('refuses a share out of (0, 1] and a file elsewhere', async () => {
      for (const [name, quick] of [
        ['high', { ...floatMeta.quick, file: 'q.onnx', trustAbove: 1.5 }],
        ['zero', { ...floatMeta.quick, file: 'q.onnx', trustAbove: 0 }],
        ['text', { ...floatMeta.quick, file: 'q.onnx', trustAbove: '0.8' }],
        ['away', { ...floatMeta.quick, file: '../good/q.onnx' }],
      ] as const) {
        const path = setUp(name, (m) => {
          m.quick = quick;
        });
        expect(await refusal(path)).toMatch(/names its quick copy badly/);
      }
    });
    it('refuses "quick": null, a name with a backslash, and a copy without its SHA-256', async () => {
      for (const [name, quick] of [
        ['null', null],
        ['backslash', { file: '..\\good\\q.onnx', sha256: 'x', trustAbove: 0.8 }],
        ['unhashed', { file: 'q.onnx', trustAbove: 0.8 }],
      ] as const) {
        const path = setUp(name, (m) => {
          m.quick = quick;
        });
        expect(await refusal(path)).toMatch(/names its quick copy badly/);
      }
    });
    it('refuses another file than the one whose SHA-256 the metadata gives', async () => {
      const path = setUp('swapped', (m) => {
        m.quick.sha256 = '0'.repeat(64);
      });
      expect(await refusal(path)).toMatch(/is not the quick copy .* names/);
    });
    it('refuses a copy that reads other classes', async () => {
      const path = setUp('classes', (_, q) => {
        q.classes = [...q.classes].reverse();
      });
      expect(await refusal(path)).toMatch(/reads other classes/);
    });
    it('refuses a copy whose features are not as wide as the model’s', async () => {
      // A copy as the metadata names it, made from this model, reading its classes: but 8 features a cell
      // (fixtures/models/features-8.onnx, made by models/training/make_test_model.py).
      const narrow = readFileSync(join(root, 'fixtures/models/features-8.onnx'));
      const path = setUp('narrow', (m) => {
        m.quick.sha256 = createHash('sha256').update(narrow).digest('hex');
      });
      writeFileSync(join(dir, 'narrow', 'q.onnx'), narrow);
      expect(await refusal(path)).toMatch(/q\.onnx gives other features than .*npm run quantize/);
    });
    it('refuses a copy whose metadata is there but not its model, saying what to do', async () => {
      const path = setUp('nofile', () => {});
      rmSync(join(dir, 'nofile', 'q.onnx'));
      expect(await refusal(path)).toMatch(/q\.onnx.*the quick copy of .*npm run quantize/);
    });
    it('refuses a copy that is not there', async () => {
      const path = setUp('missing', (m) => {
        m.quick.file = 'gone.onnx';
      });
      expect(await refusal(path)).toMatch(/metadata beside .*gone\.onnx/);
    });
  });
});

describe('which readings the quick copy makes', () => {
  const root = fileURLToPath(new URL('../', import.meta.url));
  const made: string[] = [];
  afterAll(() => {
    for (const dir of made) rmSync(dir, { recursive: true, force: true });
  });
  /** The committed model and its copy in a folder of their own, the copy trusted from `trust`: the model's path. */
  const trustedFrom = (trust: number) => {
    const dir = mkdtempSync(join(tmpdir(), 'tilecam-trust-'));
    made.push(dir);
    const meta = JSON.parse(readFileSync(join(root, 'models/cells.json'), 'utf8'));
    meta.quick.trustAbove = trust;
    for (const file of [
      'cells.onnx',
      'cells.int8.onnx',
      'cells.int8.json',
      'cells.seat.onnx',
      'cells.seat.json',
    ])
      copyFileSync(join(root, 'models', file), join(dir, file));
    writeFileSync(join(dir, 'cells.json'), JSON.stringify(meta));
    return join(dir, 'cells.onnx');
  };
  const alone = async () => ({ ...(await loadModel()), quick: undefined });

  it("keeps the model's own features in a frame's state (a camera's), and with the game's examples", async () => {
    const model = await loadModel();
    const bytes = readFileSync(join(root, 'fixtures/photos/blank_tiles.jpg'));
    // A camera's frame (readFrame's default), and a reading the game's examples weigh, asked to be quick.
    for (const state of [
      await readFrame(bytes),
      await readFrame(bytes, { memory: new TileMemory() }, undefined, undefined, true),
    ]) {
      const crops = cellCrops(state.warped, model.size, model.margin);
      const own = (await classifyCells(await alone(), crops)).features!;
      const copy = (await classifyCells({ ...model, session: model.quick!.session, quick: undefined }, crops))
        .features!;
      const f = model.features;
      let apart = 0;
      for (let i = 0; i < 225; i++) {
        const row = (v: Float32Array) => Array.from(v.subarray(i * f, (i + 1) * f));
        const got = row(state.features!);
        expect(
          got.every((v, j) => Math.abs(v - row(own)[j]!) < 1e-5),
          `cell ${i}`,
        ).toBe(true);
        if (got.some((v, j) => Math.abs(v - row(copy)[j]!) > 1e-3)) apart++;
      }
      // The copy's features differ: a state read by it would not pass.
      expect(apart).toBeGreaterThan(100);
    }
  });

  it('gives a letter the copy leaves in doubt a second look by the model itself, its own crop too', async () => {
    // demo_game/1: square 110 (an N) is a doubtful letter, read on the board's plane. Trusted from 0.3 here, the
    // copy's first look of it would stand in the average but for the model's reading of its own crop.
    const options = { model: trustedFrom(0.3), tileHeight: 0 };
    const bytes = readFileSync(join(root, 'fixtures/demo_game/1.jpg'));
    const exact = await readFrame(bytes, options);
    const quick = await readFrame(bytes, options, undefined, undefined, true);
    const model = await loadModel(options.model);
    const crops = cellCrops(exact.warped, model.size, model.margin);
    const copy = (await classifyCells({ ...model, session: model.quick!.session, quick: undefined }, crops))
      .probs;
    const k = model.classes.length;
    const cell = 110;
    const row = (v: Float32Array) => Array.from(v.subarray(cell * k, (cell + 1) * k));
    expect(quick.seen.confidence[cell]).toBeLessThan(0.8);
    expect(Math.max(...row(copy))).toBeGreaterThanOrEqual(0.3);
    expect(row(copy).some((v, j) => Math.abs(v - row(exact.probs)[j]!) > 1e-4)).toBe(true);
    expect(row(quick.probs).every((v, j) => Math.abs(v - row(exact.probs)[j]!) < 1e-6)).toBe(true);
    expect(quick.reading.board).toEqual(exact.reading.board);
  });

  it('reads a square the colours overrule by the model itself: the quick reading of it is the model’s', async () => {
    // me_game/2-2: square 112 the model reads empty, and the colours call a blank tile. The copy gives it 0.75: to
    // have the copy's reading of it stand but for the overruling, the copy is trusted from 0.5 here.
    const options = { model: trustedFrom(0.5) };
    const bytes = readFileSync(join(root, 'fixtures/me_game/2-2.jpg'));
    const state = await readFrame(bytes, options);
    const exact = state.reading;
    const quickState = await readFrame(bytes, options, undefined, undefined, true);
    const quick = await recognize(bytes, options);
    expect(quick.board).toEqual(exact.board);
    expect(quickState.reading.board).toEqual(exact.board);
    expect(exact.rotation).toBe(0);
    const overruled = state.seen.chars.flatMap((c, i) =>
      c === '.' && exact.board[Math.floor(i / 15)]![i % 15] !== '.' ? [i] : [],
    );
    expect(overruled).toContain(112);
    const model = await loadModel(options.model);
    const crops = cellCrops(state.warped, model.size, model.margin);
    const copy = (await classifyCells({ ...model, session: model.quick!.session, quick: undefined }, crops))
      .probs;
    const k = model.classes.length;
    for (const i of overruled) {
      const cellRow = (v: Float32Array) => Array.from(v.subarray(i * k, (i + 1) * k));
      // Trusted, the copy's shares would be the reading's, and they are not the model's.
      expect(Math.max(...cellRow(copy))).toBeGreaterThanOrEqual(0.5);
      expect(cellRow(copy).some((v, j) => Math.abs(v - cellRow(state.probs)[j]!) > 1e-4)).toBe(true);
      // The quick reading's shares of it are the model's.
      expect(cellRow(quickState.probs).every((v, j) => Math.abs(v - cellRow(state.probs)[j]!) < 1e-6)).toBe(
        true,
      );
    }
  });
});
