/**
 * `npm test`: every check, the independent ones at the same time, in three lanes that keep two
 * cores busy while tests wait on servers, browsers and timers:
 * - the test builds (scripts/test-build.ts: the browser files, the packed package), then the
 *   end-to-end tests, the Next.js one (the longest) first;
 * - the typecheck, the lint, then the Node tests;
 * - the browser tests (from source, needing no build), which mostly wait on Chromium;
 * then, once every lane is done, the load tests alone (`node` includes them).
 * Each stage's output is printed whole when it ends (as it comes when only one lane runs), and a
 * summary closes with each stage's time and counts. Any failing stage fails the run.
 * `npm test -- node e2e` runs only the stages named (the build first when e2e is one of them).
 */
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

interface Stage {
  name: string;
  /** The command it runs, from the repository's root. */
  command: () => string[];
}

interface Outcome {
  name: string;
  ok: boolean;
  seconds: number;
  counts: string;
  /** Processor seconds the stage and everything it started used (user + system), when known. */
  cpuSeconds?: number;
  /** What the stage said about its failures, repeated after the summary (a log kept only by its tail still shows it). */
  failures: string;
}

const root = fileURLToPath(new URL('../', import.meta.url));
const bin = (name: string) => join(root, 'node_modules/.bin', name);
const testFiles = (folder: string) =>
  readdirSync(join(root, folder))
    .filter((name) => name.endsWith('.test.ts'))
    .sort()
    .map((name) => `${folder}/${name}`);
/** How many test files of a stage run at once: they mostly wait on servers, browsers and timers. */
const FILES_AT_ONCE = Number(process.env['CONSULT_TEST_CONCURRENCY'] ?? 3);
const nodeTest = (files: string[]) => [
  process.execPath,
  '--import',
  'tsx',
  '--test',
  `--test-concurrency=${FILES_AT_ONCE}`,
  '--test-reporter=spec',
  ...files,
];

/**
 * Files that measure the proxy under load (deliveries within the service's timeout while forged
 * ones flood in): they run alone once every other stage is done. Beside the end-to-end tests (a
 * Next.js build among them) a 2-core machine missed some of the service's deadlines.
 */
const UNDER_LOAD = ['test/node/proxy-webhook-load.test.ts'];

/**
 * The longest files of each folder (as measured), started first so that none of them is left
 * running alone at the end while the rest wait on it; the others follow in name order.
 */
const LONGEST_FIRST = [
  'test/e2e/nextjs.test.ts',
  'test/e2e/quickstart.test.ts',
  'test/e2e/endpoint.test.ts',
  'test/e2e/demo.test.ts',
  'test/e2e/browser-only-install.test.ts',
  'test/e2e/layout-shift.test.ts',
  'test/node/proxy-webhook-registration.test.ts',
  'test/node/browser-declarations.test.ts',
  'test/node/proxy-sentinel.test.ts',
  'test/node/proxy-faults.test.ts',
  'test/node/demo-portal.test.ts',
  'test/node/proxy-cli.test.ts',
  'test/node/bundle-budget.test.ts',
  'test/node/sandbox-cli.test.ts',
];
const longestFirst = (files: string[]) => [
  ...LONGEST_FIRST.filter((file) => files.includes(file)),
  ...files.filter((file) => !LONGEST_FIRST.includes(file)),
];

const LANES: Stage[][] = [
  [
    { name: 'build', command: () => [process.execPath, '--import', 'tsx', 'scripts/test-build.ts'] },
    { name: 'e2e', command: () => nodeTest(longestFirst(testFiles('test/e2e'))) },
  ],
  [
    { name: 'typecheck', command: () => ['npm', 'run', '--silent', 'typecheck'] },
    { name: 'lint', command: () => ['npm', 'run', '--silent', 'lint'] },
    {
      name: 'node',
      command: () =>
        nodeTest(longestFirst(testFiles('test/node').filter((file) => !UNDER_LOAD.includes(file)))),
    },
  ],
  [{ name: 'browser', command: () => [bin('web-test-runner')] }],
];
const ALONE_AT_THE_END: Stage = { name: 'load', command: () => nodeTest(UNDER_LOAD) };

/** The pass and fail counts in a stage's output: node --test's closing lines, or Web Test Runner's. */
function countsIn(output: string): string {
  // eslint-disable-next-line no-control-regex -- the escape that starts a colour
  const plain = output.replace(/\x1b\[[0-9;]*m/g, '');
  const nodeCount = (word: string) =>
    [...plain.matchAll(new RegExp(`^(?:ℹ|#) ${word} (\\d+)$`, 'gm'))].at(-1)?.[1];
  const pass = nodeCount('pass');
  if (pass !== undefined) return `${pass} passed, ${nodeCount('fail') ?? '0'} failed`;
  // Web Test Runner repeats its progress line: the last one counts.
  const browser = [...plain.matchAll(/(\d+) passed, (\d+) failed/g)].at(-1);
  if (browser) return `${browser[1]} passed, ${browser[2]} failed`;
  return '';
}

/**
 * The failing tests a stage named: node --test's closing "failing tests" section, or each failed
 * browser test file's block; otherwise the output's last lines.
 */
function failuresIn(output: string): string {
  // eslint-disable-next-line no-control-regex -- the escape that starts a colour
  const plain = output.replace(/\x1b\[[0-9;]*[A-Za-z]/g, '');
  const nodeSection = plain.lastIndexOf('✖ failing tests:');
  const short = (line: string) => (line.length > 400 ? `${line.slice(0, 400)}…` : line);
  if (nodeSection >= 0)
    return plain.slice(nodeSection).trimEnd().split('\n').slice(0, 120).map(short).join('\n');
  const browserFailures = plain.split('\n').filter((line) => /❌|✖|Error:|failed/.test(line));
  const lines = browserFailures.length ? browserFailures : plain.trimEnd().split('\n');
  return [...new Set(lines)].slice(-60).map(short).join('\n');
}

/** The processor time bash's `times` printed last: its children's user and system time. */
function cpuIn(output: string): { cpuSeconds?: number } {
  const lines = [...output.matchAll(/^(\d+)m([\d.]+)s (\d+)m([\d.]+)s$/gm)];
  const children = lines.at(-1);
  if (!children) return {};
  const [userMinutes = 0, userSeconds = 0, systemMinutes = 0, systemSeconds = 0] = children
    .slice(1)
    .map(Number);
  return { cpuSeconds: (userMinutes + systemMinutes) * 60 + userSeconds + systemSeconds };
}

const started = performance.now();
const since = (from: number) => (performance.now() - from) / 1000;
const stamp = () => `[${since(started).toFixed(0).padStart(4)} s]`;

/** Whether stage output goes straight through (one lane runs: nothing to interleave with). */
let live = false;

function runStage(stage: Stage): Promise<Outcome> {
  const begun = performance.now();
  // Run under bash, whose `times` then prints the processor time of everything the stage ran.
  const [command = '', ...args] = [
    'bash',
    '-c',
    '"$@"; code=$?; times >&2; exit $code',
    'stage',
    ...stage.command(),
  ];
  console.log(`${stamp()} ${stage.name}: started`);
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd: root,
      env: { ...process.env, FORCE_COLOR: process.env['FORCE_COLOR'] ?? '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      if (live) process.stdout.write(chunk);
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.once('close', (code) => {
      const ok = code === 0;
      const outcome = {
        name: stage.name,
        ok,
        seconds: since(begun),
        counts: countsIn(output),
        ...cpuIn(output),
        failures: ok ? '' : failuresIn(output),
      };
      const rule = '─'.repeat(Math.max(4, 72 - stage.name.length));
      if (!live) console.log(`\n── ${stage.name} ${rule}\n${output.trimEnd()}`);
      console.log(
        `${stamp()} ${stage.name}: ${outcome.ok ? 'passed' : `FAILED (exit ${code})`} in ${outcome.seconds.toFixed(1)} s\n`,
      );
      resolve(outcome);
    });
  });
}

/** Runs a lane's stages one after another; a failed build skips what needs it. */
async function runLane(stages: Stage[]): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  for (const stage of stages) {
    const failedBuild = outcomes.find((outcome) => outcome.name === 'build' && !outcome.ok);
    if (failedBuild) {
      outcomes.push({
        name: stage.name,
        ok: false,
        seconds: 0,
        counts: 'not run: the build failed',
        failures: '',
      });
      continue;
    }
    outcomes.push(await runStage(stage));
  }
  return outcomes;
}

const only = process.argv.slice(2);
const lanes = LANES.map((lane) =>
  lane.filter(
    (stage) =>
      only.length === 0 || only.includes(stage.name) || (stage.name === 'build' && only.includes('e2e')),
  ),
).filter((lane) => lane.length > 0);
const loadToo = only.length === 0 || only.includes('load') || only.includes('node');
const stages = [...LANES.flat(), ALONE_AT_THE_END];
const unknown = only.filter((name) => !stages.some((stage) => stage.name === name));
if (unknown.length) {
  console.error(
    `unknown stage ${unknown.join(', ')}; the stages are ${stages.map((s) => s.name).join(', ')}`,
  );
  process.exit(2);
}

live = lanes.length === 1;
const outcomes = (await Promise.all(lanes.map(runLane))).flat();
if (loadToo) outcomes.push(await runStage(ALONE_AT_THE_END));
const total = since(started);
const failed = outcomes.filter((outcome) => !outcome.ok);
for (const { name, failures } of failed) {
  if (failures)
    console.log(`\n── what failed in ${name} ${'─'.repeat(Math.max(4, 58 - name.length))}\n${failures}\n`);
}
console.log('── summary ' + '─'.repeat(64));
for (const { name, ok, seconds, counts, cpuSeconds } of outcomes) {
  const cpu = cpuSeconds === undefined ? '' : `${cpuSeconds.toFixed(0).padStart(4)} s cpu`;
  console.log(
    `  ${name.padEnd(10)} ${(ok ? 'ok' : 'FAILED').padEnd(7)} ${seconds.toFixed(1).padStart(6)} s ${cpu.padEnd(10)}  ${counts}`,
  );
}
const cpuTotal = outcomes.reduce((sum, outcome) => sum + (outcome.cpuSeconds ?? 0), 0);
console.log(
  `  ${'total'.padEnd(10)} ${(failed.length ? 'FAILED' : 'ok').padEnd(7)} ${total.toFixed(1).padStart(6)} s ${`${cpuTotal.toFixed(0).padStart(4)} s cpu`.padEnd(10)}  on ${availableParallelism()} cores`,
);
process.exitCode = failed.length ? 1 : 0;
