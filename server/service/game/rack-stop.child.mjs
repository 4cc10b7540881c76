// Run by rack-thread.test.ts in a process of its own: rack reads stopped while onnxruntime runs them (too slow for
// their time, or the reader closed), then the process exits. Prints one JSON line: how many reads were stopped and
// how many answered. A thread ended mid-run would abort this process instead (worker-queue.ts).
import { readFileSync } from 'node:fs';
import { register } from 'tsx/esm/api';

register();
const { RackReader } = await import('./rack-thread.ts');
const { readFrame } = await import('./frames.ts');
const frame = readFileSync(new URL('../../../fixtures/seat-game/move-08.jpg', import.meta.url));
const { reading } = await readFrame(frame, 'en');
const reader = new RackReader();
let stopped = 0;
let answered = 0;
for (const ms of process.argv.slice(2).map(Number)) {
  // A thread ready (the model loaded), then a read given `ms`: stopped while the model runs, or answered in time.
  await reader.read(frame, reading.corners, 'en');
  await reader.read(frame, reading.corners, 'en', undefined, ms).then(
    () => answered++,
    () => stopped++,
  );
  // The refused run comes back meanwhile (an ended thread's run aborted the process then).
  await new Promise((resolve) => setTimeout(resolve, 1500));
}
// And the reader closed while a read runs, the process exiting at once after.
await reader.read(frame, reading.corners, 'en');
const last = reader.read(frame, reading.corners, 'en').catch(() => stopped++);
await new Promise((resolve) => setTimeout(resolve, 150));
await reader.close();
await last;
process.stdout.write(`${JSON.stringify({ stopped, answered })}\n`);
process.exit(0);
