// Every test's temporary files (databases, photos, servers' data directories) go under one
// folder made for this run, removed when the run ends, so test runs do not fill /tmp. The word
// lists worked out from the lexicons (server/lexicon) are kept there too: a run depends on none
// left by an earlier one.
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup(): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'tilecam-tests-'));
  // Like /tmp itself: PostgreSQL's tests run its binaries as the postgres user beneath it.
  chmodSync(dir, 0o1777);
  const before = process.env.TMPDIR;
  const cacheBefore = process.env.TILECAM_CACHE_DIR;
  process.env.TMPDIR = dir;
  process.env.TILECAM_CACHE_DIR = join(dir, 'cache');
  return () => {
    if (before === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = before;
    if (cacheBefore === undefined) delete process.env.TILECAM_CACHE_DIR;
    else process.env.TILECAM_CACHE_DIR = cacheBefore;
    try {
      rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
    } catch (err) {
      // A server a failed test left running may still be writing there: the run's result stands.
      console.warn(`could not remove ${dir}: ${(err as Error).message}`);
    }
  };
}
