/**
 * The flags node runs tilecam with. V8's flags can only be given on node's command line (not in NODE_OPTIONS, not at
 * run time), so they are written where tilecam is started: the `#!` line of bin.mjs (the `tilecam` command), the npm
 * scripts that start the service or measure it (package.json), and the processes started from here (the dev hall's,
 * the soak bench's server). node-flags.test.ts checks that all of them say the same.
 *
 * `--initial-old-space-size=96`: V8's old generation starts at 96 MB. A photo read makes and drops about 10 MB of
 * pixel buffers (the decoded photo, the straightened board, the model's input), and V8 counts them against a limit
 * it otherwise derives from the live heap, about 20 MB in the service: it ran a full mark-compact every read or two
 * (267 in `npm run bench:verify`'s 260 photos; 44 at 64 MB, 5 at 96). Measured alternated on this machine's 2 cores:
 * a cold read 7–15% faster, the dispute check 195–199 → 168–170 ms a pair and a third less CPU; the soak bench's RSS
 * peak the same (394–398 against 397 MB). docs/measurements.md, session 24.
 */
export const NODE_FLAGS: readonly string[] = ['--initial-old-space-size=96'];

/** The node version and its flags as a bench prints them: which of NODE_FLAGS this process was started with. */
export function runtimeLine(): string {
  const missing = NODE_FLAGS.filter((f) => !process.execArgv.includes(f));
  return `node ${process.version} ${missing.length ? `without ${missing.join(' ')}` : NODE_FLAGS.join(' ')}`;
}
