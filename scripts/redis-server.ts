/**
 * A real Redis for tests and benchmarks: Debian's `redis-server` started on a free loopback port
 * with no persistence, and stopped after. `.ci/run` installs it as it does Chromium.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createConnection, createServer, type AddressInfo } from 'node:net';

/** A port nothing listens on now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export interface TestRedis {
  url: string;
  port: number;
  /** The redis-server process id (to pause it with SIGSTOP and resume it with SIGCONT). */
  pid: number;
  stop(): Promise<void>;
}

/** Answers once Redis answers PING on `port`. */
async function ready(port: number, deadline: number): Promise<void> {
  for (;;) {
    const answered = await new Promise<boolean>((resolve) => {
      const socket = createConnection(port, '127.0.0.1', () => socket.write('PING\r\n'));
      socket.once('data', (data) => {
        resolve(data.toString().startsWith('+PONG'));
        socket.destroy();
      });
      socket.once('error', () => resolve(false));
    });
    if (answered) return;
    if (Date.now() > deadline) throw new Error(`redis-server did not start on port ${port}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Starts an empty redis-server on `port` (a free one when not given, or one a stopped Redis had). */
export async function startRedis(options: { port?: number } = {}): Promise<TestRedis> {
  const port = options.port ?? (await freePort());
  let child: ChildProcess;
  try {
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
        '--loglevel',
        'warning',
      ],
      { stdio: 'ignore' },
    );
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
  await Promise.race([ready(port, Date.now() + 10_000), failed]);
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    pid: child.pid ?? 0,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        // A paused Redis would never act on SIGTERM.
        child.kill('SIGCONT');
        child.kill('SIGTERM');
      }),
  };
}
