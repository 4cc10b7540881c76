/**
 * The browser code is TypeScript in web/; the server bundles each page's entry with esbuild when it starts (a few
 * tens of milliseconds) and serves the result from memory at /app/NAME.js. No separate build step to forget.
 */
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const pages = ['index', 'board', 'overlay', 'overlay-builder', 'camera', 'check', 'hall'] as const;

export async function bundleWeb(): Promise<Map<string, string>> {
  const dir = fileURLToPath(new URL('../../web/', import.meta.url));
  const result = await build({
    entryPoints: pages.map((p) => `${dir}${p}.ts`),
    bundle: true,
    format: 'esm',
    target: 'es2022',
    write: false,
    outdir: '/app',
    minify: true,
    logLevel: 'silent',
  });
  return new Map(result.outputFiles.map((f) => [f.path.split('/').pop()!, f.text]));
}
