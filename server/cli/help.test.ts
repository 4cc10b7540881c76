import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { root } from '../../test/helpers.ts';
import { allHelp, commandHelp, HELP_WIDTH } from './main.ts';
import { parseCommand } from './options.ts';
import { serveSpec } from './serve.ts';

describe('the help', () => {
  it('has no line wider than a terminal', () => {
    const wide = allHelp()
      .flatMap((text) => text.split('\n'))
      .filter((line) => line.length > HELP_WIDTH);
    expect(wide).toEqual([]);
  });

  it('lists every option the command parses, from the one declaration', () => {
    const help = commandHelp('serve');
    for (const name of Object.keys(serveSpec.options)) expect(help).toContain(`--${name}`);
    expect(help).toMatch(/--trust-proxy N\|ADDRESSES +the proxies to trust/);
    expect(parseCommand(serveSpec, ['--trust-proxy', 'loopback']).values['trust-proxy']).toBe('loopback');
    // What is not declared is refused, not ignored.
    expect(() => parseCommand(serveSpec, ['--trust-proxies', '1'])).toThrow(/--trust-proxies/);
    expect(() => parseCommand(serveSpec, ['extra'])).toThrow(/extra/);
  });

  it('answers `tilecam COMMAND --help` with that command’s options, exit 0', async () => {
    const { stdout } = await promisify(execFile)(join(root, 'server/cli/bin.mjs'), ['verify', '--help'], {
      cwd: root,
    });
    expect(stdout).toMatch(/^usage: tilecam verify BEFORE AFTER \[options\]\n/);
    expect(stdout).toMatch(/--claimed N +the points claimed/);
  });
});
