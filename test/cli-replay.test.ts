/** The `tilecam replay` contract of docs/design.md, through the real command line. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { root, tilecam } from './helpers.ts';

const games = join(root, 'fixtures/games');

describe('tilecam replay', () => {
  it('prints one JSON object for one file, with scores computed from the tiles', async () => {
    const r = await tilecam('replay', join(games, 'going_out_tournament.gcg'), '--json');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out).toEqual({
      file: join(games, 'going_out_tournament.gcg'),
      players: [
        { name: 'Ann', score: 101 },
        { name: 'Ben', score: 21 },
      ],
      turns: 6,
      mismatches: [],
    });
  });

  it('prints { files: [...] } in the order given for several files', async () => {
    const a = join(games, 'phony_withdrawn.gcg');
    const b = join(games, 'double_challenge_lost_turn.gcg');
    const r = await tilecam('replay', b, a, '--json');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).files.map((f: { file: string }) => f.file)).toEqual([b, a]);
  });

  it('reports a recorded score that disagrees with the tiles', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tilecam-cli-'));
    const file = join(dir, 'wrong.gcg');
    writeFileSync(file, '#player1 a A\n#player2 b B\n>a: DINNVWY 8D WINDY +30 30\n>b: ANZ 9D AN +9 9\n');
    const r = await tilecam('replay', file, '--json');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).mismatches).toEqual([
      { line: 3, recorded: 30, computed: 32, field: 'score' },
    ]);
  });

  it('exits 1 naming the line when a file cannot be read', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tilecam-cli-'));
    const file = join(dir, 'bad.gcg');
    writeFileSync(file, '#player1 a A\n#player2 b B\n>a: DINNVWY 8D WINDY\n');
    const r = await tilecam('replay', file, '--json');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/bad\.gcg: line 3: expected a score and a running total/);
    expect(JSON.parse(r.stdout).error).toMatchObject({ line: 3 });
  });

  it('exits 1 with a clear message for a missing file or an unknown option', async () => {
    const missing = await tilecam('replay', '/nonexistent.gcg');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/cannot read \/nonexistent\.gcg: no such file or folder/);
    const option = await tilecam('replay', '--frobnicate', 'x.gcg');
    expect(option.code).toBe(1);
    expect(option.stderr).toMatch(
      /unknown option --frobnicate \(`tilecam COMMAND --help` lists a command's options\)/,
    );
  });

  it('prints a human summary without --json', async () => {
    const r = await tilecam('replay', join(games, 'phony_withdrawn.gcg'));
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/4 lines; Ann Example 41, Ben Example 0; every turn agrees/);
  });
});

describe('tilecam serve', () => {
  it('says clearly when its port is taken, and exits 1', async () => {
    const { createServer } = await import('node:net');
    const blocker = createServer();
    await new Promise<void>((done) => blocker.listen(0, '127.0.0.1', done));
    const port = (blocker.address() as { port: number }).port;
    try {
      const dir = mkdtempSync(join(tmpdir(), 'tilecam-serve-'));
      const r = await tilecam(
        'serve',
        '--port',
        String(port),
        '--host',
        '127.0.0.1',
        '--db',
        join(dir, 'g.db'),
        '--json',
      );
      expect(r.code).toBe(1);
      expect(JSON.parse(r.stdout).error.message).toMatch(new RegExp(`port ${port} is taken.*--port 0`));
    } finally {
      blocker.close();
    }
  });

  it('says clearly when its database cannot be opened (never its password), and exits 1', async () => {
    const { createServer } = await import('node:net');
    // A port nothing answers on: bound, then let go.
    const probe = createServer();
    await new Promise<void>((done) => probe.listen(0, '127.0.0.1', done));
    const port = (probe.address() as { port: number }).port;
    await new Promise<void>((done) => probe.close(() => done()));
    const down = await tilecam(
      'serve',
      '--port',
      '0',
      '--db',
      `postgres://ann:secret@127.0.0.1:${port}/t`,
      '--json',
    );
    expect(down.code).toBe(1);
    const message = JSON.parse(down.stdout).error.message as string;
    expect(message).toMatch(
      new RegExp(`cannot open the database postgres://ann@127.0.0.1:${port}/t: .*ECONNREFUSED`),
    );
    expect(message).not.toMatch(/secret/);
    const other = await tilecam('serve', '--port', '0', '--db', 'mysql://x/y', '--json');
    expect(other.code).toBe(1);
    expect(JSON.parse(other.stdout).error.message).toMatch(
      /must be postgres:\/\/… or a SQLite file, not mysql/,
    );
  });
});
