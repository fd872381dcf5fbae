/**
 * A real Redis for tests and benchmarks: Debian's `redis-server` started on a free loopback port
 * with no persistence, and stopped after. `.ci/run` installs it as it does Chromium.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port.js';

export interface TestRedis {
  url: string;
  port: number;
  /** The redis-server process id (to pause it with SIGSTOP and resume it with SIGCONT). */
  pid: number;
  stop(): Promise<void>;
}

/**
 * Answers once the redis-server with process id `pid` answers on `port`. Another one answering
 * there (a test file running beside this one took the port first) is not it: this one then
 * cannot bind, and that is said.
 */
async function ready(port: number, pid: number, deadline: number): Promise<void> {
  for (;;) {
    const answer = await new Promise<string>((resolve) => {
      const socket = createConnection(port, '127.0.0.1', () => socket.write('INFO server\r\n'));
      let text = '';
      socket.on('data', (data) => {
        text += data.toString();
        if (/\r\nprocess_id:\d+\r\n/.test(text)) {
          resolve(text);
          socket.destroy();
        }
      });
      socket.once('error', () => resolve(''));
      socket.once('close', () => resolve(text));
    });
    const answering = /\r\nprocess_id:(\d+)\r\n/.exec(answer)?.[1];
    if (answering === String(pid)) return;
    if (answering !== undefined) throw new PortTaken(port);
    if (Date.now() > deadline) throw new Error(`redis-server did not start on port ${port}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

class PortTaken extends Error {
  constructor(port: number) {
    super(`another redis-server answers on port ${port}`);
  }
}

export interface StartRedisOptions {
  /** A free one when not given, or one a stopped Redis had. */
  port?: number;
  /** More arguments for redis-server, e.g. `['--replicaof', '127.0.0.1', '6379']`. */
  args?: readonly string[];
  /**
   * Runs a Sentinel (`redis-server <file> --sentinel`) with these lines of sentinel.conf (its port
   * and bind are added); the file, which the Sentinel rewrites, goes in a directory of its own.
   */
  sentinel?: readonly string[];
}

/**
 * Starts an empty redis-server (or a Sentinel) on loopback: on a free port, another if a process
 * beside this one took it first; on `options.port` or not at all.
 */
export async function startRedis(options: StartRedisOptions = {}): Promise<TestRedis> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startRedisOn(options.port ?? (await freePort()), options);
    } catch (error) {
      if (!(error instanceof PortTaken) || options.port !== undefined || attempt === 5) throw error;
    }
  }
}

async function startRedisOn(port: number, options: StartRedisOptions): Promise<TestRedis> {
  let child: ChildProcess;
  // A directory of its own: a replica's full sync writes dump.rdb there, and a redis-server loads
  // any dump.rdb it finds in its directory at start, which would bring another run's data back.
  const dir = mkdtempSync(join(tmpdir(), options.sentinel ? 'consult-sentinel-' : 'consult-redis-'));
  try {
    if (options.sentinel) {
      const file = join(dir, 'sentinel.conf');
      writeFileSync(
        file,
        [`port ${port}`, 'bind 127.0.0.1', `dir ${dir}`, ...options.sentinel, ''].join('\n'),
      );
      child = spawn('redis-server', [file, '--sentinel', '--loglevel', 'warning'], { stdio: 'ignore' });
    } else {
      child = spawn(
        'redis-server',
        [
          '--port',
          String(port),
          '--bind',
          '127.0.0.1',
          '--save',
          '',
          '--appendonly',
          'no',
          '--dir',
          dir,
          '--loglevel',
          'warning',
          ...(options.args ?? []),
        ],
        { stdio: 'ignore' },
      );
    }
  } catch (error) {
    throw new Error(
      `redis-server could not be started (on Debian: apt-get install redis-server): ${String(error)}`,
    );
  }
  const failed = new Promise<never>((_, reject) =>
    child.once('error', (error) =>
      reject(
        new Error(
          `redis-server could not be started (on Debian: apt-get install redis-server): ${error.message}`,
        ),
      ),
    ),
  );
  try {
    await Promise.race([ready(port, child.pid ?? 0, Date.now() + 10_000), failed]);
  } catch (error) {
    child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    pid: child.pid ?? 0,
    stop: () =>
      new Promise<void>((resolve) => {
        const done = () => {
          rmSync(dir, { recursive: true, force: true });
          resolve();
        };
        // Already gone (stopped, or killed by a test).
        if (child.exitCode !== null || child.signalCode !== null) return done();
        child.once('exit', done);
        // A paused Redis would never act on SIGTERM.
        child.kill('SIGCONT');
        child.kill('SIGTERM');
      }),
  };
}
