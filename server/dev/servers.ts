/**
 * Real database servers for tests, benches and `npm run hall` (a local hall for development), each started in a
 * temporary folder on a free loopback port and stopped after: PostgreSQL from Debian's packages (`initdb` + `pg_ctl`; `initdb` refuses root, so as root they
 * run as the `postgres` system user, in a folder it owns), and Redis (`redis-server`, nothing saved to disk).
 * Nothing is left running or on disk.
 */
import { type ChildProcess, execFile, execFileSync, spawn, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { NODE_FLAGS } from '../cli/node-flags.ts';

/** The folder of PostgreSQL's server programs, if installed (Debian: /usr/lib/postgresql/VERSION/bin). */
export function postgresBin(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'pg_ctl')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] && join(root, versions[0], 'bin');
}

/** A free TCP port on loopback. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

export interface RunningPostgres {
  /** `postgres://tilecam@127.0.0.1:PORT/tilecam` */
  readonly url: string;
  /** The server's main process (its connections are its children), while it runs. */
  pid(): number | undefined;
  /** Stops the server with `pg_ctl stop -m fast` (a fault for tests), keeping its data; `start` brings it back. */
  stopFast(): Promise<void>;
  /** Starts a server stopped by `stopFast` again, on the same port and data. */
  start(): Promise<void>;
  stop(): void;
}

/**
 * Starts a PostgreSQL server of its own: a fresh cluster (user `tilecam`, trust on loopback only), a database
 * `tilecam`, fsync off (a test's data need not survive a power cut).
 */
export async function startPostgres(): Promise<RunningPostgres> {
  const bin = postgresBin();
  if (!bin) throw new Error('PostgreSQL is not installed (apt-get install -y postgresql)');
  const dir = mkdtempSync(join(tmpdir(), 'tilecam-pg-'));
  const data = join(dir, 'data');
  const root = process.getuid?.() === 0;
  const as = (program: string, args: string[]) => {
    const [cmd, argv] = root
      ? ['runuser', ['-u', 'postgres', '--', join(bin, program), ...args]]
      : [join(bin, program), args];
    const run = spawnSync(cmd, argv, { encoding: 'utf8', timeout: 60_000 });
    if (run.status !== 0)
      throw new Error(`${program} failed (${run.status}): ${run.stderr || run.stdout || run.error?.message}`);
  };
  if (root) chownSync(dir, uidOf('postgres'), gidOf('postgres'));
  const port = await freePort();
  const startArgs = () => [
    '-D',
    data,
    '-l',
    join(dir, 'log'),
    '-w',
    '-t',
    '30',
    '-o',
    `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off`,
    'start',
  ];
  // Without blocking the caller's event loop (a test's clients go on meanwhile).
  const asAsync = (program: string, args: string[]) =>
    new Promise<void>((resolve, reject) => {
      const [cmd, argv] = root
        ? ['runuser', ['-u', 'postgres', '--', join(bin, program), ...args]]
        : [join(bin, program), args];
      execFile(cmd, argv, { timeout: 60_000 }, (err, stdout, stderr) =>
        err ? reject(new Error(`${program} failed: ${stderr || stdout || err.message}`)) : resolve(),
      );
    });
  try {
    as('initdb', ['-D', data, '-U', 'tilecam', '-A', 'trust', '--no-sync', '-E', 'UTF8', '--locale=C']);
    as('pg_ctl', startArgs());
    as('createdb', ['-h', '127.0.0.1', '-p', String(port), '-U', 'tilecam', 'tilecam']);
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  let stopped = false;
  const pid = () => {
    try {
      return Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]) || undefined;
    } catch {
      return undefined;
    }
  };
  return {
    url: `postgres://tilecam@127.0.0.1:${port}/tilecam`,
    pid,
    stopFast: () => asAsync('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']),
    start: () => asAsync('pg_ctl', startArgs()),
    stop() {
      if (stopped) return;
      stopped = true;
      try {
        // A server already stopped (stopFast) is not an error.
        if (pid() !== undefined) as('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

function uidOf(user: string): number {
  return Number(execFileSync('id', ['-u', user], { encoding: 'utf8' }).trim());
}

function gidOf(user: string): number {
  return Number(execFileSync('id', ['-g', user], { encoding: 'utf8' }).trim());
}

/** Whether Debian's redis-server is installed. */
export function redisBin(): string | undefined {
  return ['/usr/bin/redis-server', '/usr/local/bin/redis-server'].find((p) => existsSync(p));
}

export interface RunningRedis {
  /** `redis://127.0.0.1:PORT` */
  readonly url: string;
  /** The server's process id, while it runs. */
  readonly pid: number | undefined;
  /** Sends the server `signal` (a fault for tests: SIGTERM exits, saving nothing) and waits for it to exit. */
  kill(signal?: NodeJS.Signals): Promise<void>;
  /** Starts the server again on the same port (empty: nothing was saved), after `kill`. */
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** Starts a Redis server of its own on a free loopback port: in memory only, gone when stopped. */
export async function startRedis(): Promise<RunningRedis> {
  const bin = redisBin();
  if (!bin) throw new Error('Redis is not installed (apt-get install -y redis-server)');
  const dir = mkdtempSync(join(tmpdir(), 'tilecam-redis-'));
  const port = await freePort();
  let child = await spawnRedis(bin, port, dir);
  const exit = async (signal: NodeJS.Signals) => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((done) => child.once('exit', done));
    child.kill(signal);
    await exited;
  };
  return {
    url: `redis://127.0.0.1:${port}`,
    get pid() {
      return child.exitCode === null && child.signalCode === null ? child.pid : undefined;
    },
    kill: exit,
    async start() {
      child = await spawnRedis(bin, port, dir);
    },
    async stop() {
      await exit('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function spawnRedis(bin: string, port: number, dir: string): Promise<ChildProcess> {
  const child = spawn(
    bin,
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  await new Promise<void>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`redis-server did not start: ${out}`)), 20_000);
    child.stdout!.on('data', (d) => {
      out += d;
      if (out.includes('Ready to accept connections')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited with ${code}: ${out}`));
    });
  });
  child.stdout!.resume();
  child.stderr!.resume();
  return child;
}

/**
 * Starts `tilecam ARGS --json` from the repository as a process of its own. `ready` resolves with the first line it
 * prints (the JSON object saying it is ready) and rejects with what went wrong: an `{ error }` line, an exit, or
 * nothing in 60 s. The process is there at once, to be stopped whatever happens.
 */
export function startTilecam(
  args: readonly string[],
  /** Where its log (standard error) goes: this process's (the default), or an open file's descriptor. */
  { stderr = 'inherit' }: { stderr?: 'inherit' | 'ignore' | number } = {},
): {
  child: ChildProcess;
  ready: Promise<Record<string, unknown>>;
} {
  // TILECAM_PROFILE=DIR: each process writes a CPU profile (.cpuprofile) there when it stops.
  const profile = process.env.TILECAM_PROFILE
    ? ['--cpu-prof', `--cpu-prof-dir=${process.env.TILECAM_PROFILE}`]
    : [];
  const child = spawn(
    process.execPath,
    [...NODE_FLAGS, ...profile, 'server/cli/bin.mjs', ...args, '--json'],
    {
      cwd: fileURLToPath(new URL('../..', import.meta.url)),
      stdio: ['ignore', 'pipe', stderr],
    },
  );
  const ready = new Promise<Record<string, unknown>>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`tilecam ${args[0]} did not start in 60 s`)), 60_000);
    child.stdout!.on('data', (d) => {
      out += d;
      if (!out.includes('\n')) return;
      clearTimeout(timer);
      child.stdout!.resume();
      let line: Record<string, unknown> & { error?: { message?: string } };
      try {
        line = JSON.parse(out.split('\n')[0]!) as typeof line;
      } catch {
        return reject(new Error(`tilecam ${args[0]} said: ${out}`));
      }
      if (line.error) reject(new Error(`tilecam ${args[0]}: ${line.error.message}`));
      else resolve(line);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`tilecam ${args[0]} exited with ${code}`));
    });
  });
  return { child, ready };
}
