/** Running the real `tilecam` command line from tests; a seeded random generator for test data. */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

export const root = fileURLToPath(new URL('..', import.meta.url));
const bin = join(root, 'server/cli/bin.mjs');

export async function tilecam(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [bin, ...args], { cwd: root });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/** The demo game's board after move `n` (fixtures/demo_game/N.txt), as board text. */
export function demoBoard(n: number): string[] {
  return readFileSync(join(root, 'fixtures/demo_game', `${n}.txt`), 'utf8')
    .trimEnd()
    .split('\n');
}

/** A deterministic pseudo-random generator (mulberry32): numbers in [0, 1), all 32 bits of state used. */
export { seeded as random } from '../server/bench/corpus.ts';
