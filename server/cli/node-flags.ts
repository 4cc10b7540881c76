/**
 * The flags node runs tilecam with. They are written where tilecam is started: the `#!` line of bin.mjs (the
 * `tilecam` command), the npm scripts that start node (package.json), and the processes started from here (the dev
 * hall's, the soak bench's server). node-flags.test.ts checks that all of them say the same. The `#!` line needs an
 * `env` that takes `-S` (GNU coreutils 8.30 and later, macOS, FreeBSD; npm's Windows shims read it too): BusyBox's
 * (Alpine) does not, and there tilecam is started as `node --initial-old-space-size=96 server/cli/bin.mjs …`.
 *
 * `--initial-old-space-size=96`: V8's old generation starts at 96 MB. NODE_OPTIONS refuses this flag and
 * `v8.setFlagsFromString` at run time leaves the heap as it was made, so it must be on node's command line. A photo
 * read makes and drops about 10 MB of pixel buffers (the decoded photo, the straightened board, the model's input),
 * and V8 counts them against a limit it otherwise derives from the live heap, about 20 MB in the service: it ran a
 * full mark-compact every read or two (267 in `npm run bench:verify`'s 260 photos; 44 at 64 MB, 5 at 96). Measured
 * alternated on this machine's 2 cores: the dispute check 195–199 → 168–170 ms a pair and a third less CPU, for
 * about 25 MB more RSS (max 319–321 → 346–348 MB); the soak bench's RSS peak within its usual spread (394–398 against
 * 397 MB). Sessions 17, 18, 19 and 23 measured 64 and 128 MB on steady cameras and the hall only and did not keep
 * them (no clear gain there); the cold reads were not measured then. docs/measurements.md, session 24.
 */
export const NODE_FLAGS: readonly string[] = ['--initial-old-space-size=96'];

/** The node version and the heap flag this process was started with (whatever its value), as a bench prints them. */
export function runtimeLine(): string {
  const heap = process.execArgv.filter((f) => /^--initial[-_]old[-_]space[-_]size=/.test(f));
  return `node ${process.version} ${heap.length ? heap.join(' ') : 'with V8’s default heap'}`;
}
