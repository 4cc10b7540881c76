import { describe, expect, it } from 'vitest';
import { bundleWeb } from './web-bundle.ts';

describe('the pages bundled for the browser', () => {
  it('has every page, and no page carries the vision that needs Node (OpenCV, onnxruntime, sharp)', async () => {
    const pages = await bundleWeb();
    expect([...pages.keys()].sort()).toEqual([
      'analysis.js',
      'board.js',
      'camera.js',
      'check.js',
      'hall.js',
      'index.js',
      'overlay-builder.js',
      'overlay.js',
    ]);
    for (const [name, code] of pages) {
      expect(code, name).not.toMatch(/opencv|onnxruntime|["']sharp["']|createRequire|["']node:/);
    }
    // The scoreboard zooms a held square through the vision's homography: it is there.
    expect(pages.get('board.js')).toMatch(/NaN/);
  });
});
