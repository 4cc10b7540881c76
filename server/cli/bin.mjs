#!/usr/bin/env -S node --initial-old-space-size=96
// The `tilecam` command: registers the TypeScript loader, then runs the CLI from source.
// The flags after `node` are node-flags.ts's NODE_FLAGS (why: there).
import { register } from 'tsx/esm/api';

// A reader that stops early (`| head`) is not an error of ours.
process.stdout.on('error', (err) => {
  if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw err;
});
register();
const { main } = await import('./main.ts');
process.exitCode = await main(process.argv.slice(2));
