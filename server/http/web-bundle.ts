/**
 * The browser code is TypeScript in web/; the server bundles each page's entry (every module in web/pages/) with
 * esbuild when it starts (a few tens of milliseconds) and serves the result from memory at /app/NAME.js. No separate
 * build step to forget.
 */
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

export async function bundleWeb(): Promise<Map<string, string>> {
  const dir = fileURLToPath(new URL('../../web/pages/', import.meta.url));
  const pages = readdirSync(dir).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));
  const result = await build({
    entryPoints: pages.map((p) => `${dir}${p}`),
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
