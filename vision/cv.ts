/**
 * The one door to OpenCV (opencv-wasm). It is loaded synchronously with `createRequire` and handed out wrapped in
 * an object: the module object is thenable-like, and awaiting it (or returning it from an async function) never
 * settles. Nothing else in tilecam imports opencv-wasm.
 */
import { createRequire } from 'node:module';

// biome-ignore lint/suspicious/noExplicitAny: opencv.js ships no usable types for its wasm build.
export type CV = any;
// biome-ignore lint/suspicious/noExplicitAny: an OpenCV Mat from the wasm build.
export type Mat = any;

let loaded: { cv: CV } | undefined;

/** The OpenCV module, loaded on first use (about 0.2 s), wrapped so that it is never awaited. */
export function opencv(): { cv: CV } {
  if (!loaded) {
    const require = createRequire(import.meta.url);
    loaded = { cv: (require('opencv-wasm') as { cv: CV }).cv };
  }
  return loaded;
}

/** Runs `fn` and deletes every Mat it registered with `keep`, whatever happens. */
export function withMats<T>(fn: (track: <M extends { delete(): void }>(m: M) => M) => T): T {
  const mats: { delete(): void }[] = [];
  try {
    return fn((m) => {
      mats.push(m);
      return m;
    });
  } finally {
    for (const m of mats) m.delete();
  }
}
