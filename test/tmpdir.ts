// Every test's temporary files (databases, photos, servers' data directories) go under one
// folder made for this run, removed when the run ends, so test runs do not fill /tmp.
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup(): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'tilecam-tests-'));
  // Like /tmp itself: PostgreSQL's tests run its binaries as the postgres user beneath it.
  chmodSync(dir, 0o1777);
  const before = process.env.TMPDIR;
  process.env.TMPDIR = dir;
  return () => {
    if (before === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = before;
    try {
      rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
    } catch (err) {
      // A server a failed test left running may still be writing there: the run's result stands.
      console.warn(`could not remove ${dir}: ${(err as Error).message}`);
    }
  };
}
