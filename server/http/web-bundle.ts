/**
 * The browser code is TypeScript in web/; the server bundles each page's entry (every module in web/pages/) with
 * esbuild when it starts (a few tens of milliseconds) and serves the result from memory at /app/NAME.js. No separate
 * build step to forget.
 */
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';

const VISION = fileURLToPath(new URL('../../vision/', import.meta.url));

/**
 * The pages import the vision's pure geometry through `vision/index.ts`, beside which stand modules that load OpenCV,
 * onnxruntime and sharp. Those modules only do work when called, so the bundle may treat them as free of side effects
 * and drop what the pages never use; the Node packages they import stay external, and `bundleWeb` fails if one of
 * them is still imported by the output.
 */
const visionForTheBrowser: Plugin = {
  name: 'vision-for-the-browser',
  setup(b) {
    b.onResolve({ filter: /.*/ }, (args) => {
      if (!args.importer.startsWith(VISION)) return undefined;
      if (args.path.startsWith('.'))
        return { path: fileURLToPath(new URL(args.path, `file://${args.importer}`)), sideEffects: false };
      return { path: args.path, external: true, sideEffects: false };
    });
  },
};

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
    plugins: [visionForTheBrowser],
    metafile: true,
  });
  for (const [name, out] of Object.entries(result.metafile.outputs)) {
    const left = out.imports.filter((i) => i.external).map((i) => i.path);
    if (left.length > 0)
      throw new Error(`the page bundle ${name.split('/').pop()} still imports ${left.join(', ')}`);
  }
  return new Map(result.outputFiles.map((f) => [f.path.split('/').pop()!, f.text]));
}
