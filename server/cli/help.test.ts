import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { root } from '../../test/helpers.ts';
import { allHelp, HELP_WIDTH } from './main.ts';

describe('the help', () => {
  it('has no line wider than a terminal', () => {
    const wide = allHelp()
      .flatMap((text) => text.split('\n'))
      .filter((line) => line.length > HELP_WIDTH);
    expect(wide).toEqual([]);
  });

  it('answers `tilecam COMMAND --help` with that command’s options, exit 0', async () => {
    const { stdout } = await promisify(execFile)(join(root, 'server/cli/bin.mjs'), ['verify', '--help'], {
      cwd: root,
    });
    expect(stdout).toMatch(/^usage: tilecam verify BEFORE AFTER \[options\]\n/);
    expect(stdout).toMatch(/--claimed N +the points claimed/);
  });
});
