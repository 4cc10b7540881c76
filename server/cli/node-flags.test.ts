import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { root } from '../../test/helpers.ts';
import { NODE_FLAGS } from './node-flags.ts';

const flags = NODE_FLAGS.join(' ');

describe('the flags node runs tilecam with', () => {
  it('are on the tilecam command’s #! line', () => {
    const first = readFileSync(join(root, 'server/cli/bin.mjs'), 'utf8').split('\n')[0];
    expect(first).toBe(`#!/usr/bin/env -S node ${flags}`);
  });

  it('are given by every npm script that starts node', () => {
    const { scripts } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    // Scripts that start node themselves; one written as `npx tsx …` or `VAR=… tsx …` would need adding here.
    const starting = Object.entries(scripts).filter(([, line]) => /^(node|tsx) /.test(line));
    // The service, the demo, the dev hall and every bench.
    expect(starting.map(([name]) => name)).toEqual(
      expect.arrayContaining([
        'start',
        'demo',
        'hall',
        'bench:vision',
        'bench:verify',
        'bench:live',
        'bench:hall',
      ]),
    );
    for (const [name, line] of starting) {
      const runner = line.slice(0, line.indexOf(' '));
      expect(`${name}: ${line}`).toContain(`${name}: ${runner} ${flags} `);
    }
  });

  it('let the command start through its #! line', async () => {
    // As a shell or npx starts it: the kernel reads the #! line, and env splits it (-S).
    const { stdout } = await promisify(execFile)(join(root, 'server/cli/bin.mjs'), ['--help'], { cwd: root });
    expect(stdout).toMatch(/^usage: tilecam <command>/);
  });
});
