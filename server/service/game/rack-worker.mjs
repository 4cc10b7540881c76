// The worker thread that reads racks (rack-thread.ts starts it): registers the TypeScript loader, as
// server/cli/bin.mjs does, then answers each { id, bytes, corners, lang, near } with { id, reading } or { id, error }
// (frames.ts readRackIn), one at a time as rack-thread.ts sends them.
import { parentPort } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
const { readRackIn } = await import('./frames.ts');
parentPort.on('message', async ({ id, bytes, corners, lang, near }) => {
  try {
    const reading = await readRackIn(bytes, corners, lang, near);
    parentPort.postMessage({ id, reading });
  } catch (err) {
    parentPort.postMessage({ id, error: `the rack could not be read: ${err?.message ?? err}` });
  }
});
