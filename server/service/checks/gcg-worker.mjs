// The worker thread that rescores GCG records (off-thread.ts starts it): registers the TypeScript loader, as
// server/cli/bin.mjs does, then answers each { id, bytes, lang } with { id, outcome } (gcg-check.ts).
import { parentPort } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
const { rescoreGcg } = await import('./gcg-check.ts');
parentPort.on('message', ({ id, bytes, lang }) => {
  let outcome;
  try {
    outcome = rescoreGcg(bytes, lang);
  } catch (err) {
    outcome = { ok: false, message: `the record could not be rescored: ${err?.message ?? err}` };
  }
  parentPort.postMessage({ id, outcome });
});
