// `npm test` after the build: every vitest project, the browser tests beside the server and widget
// tests, then the load and fault test alone.
//
// The browser tests run one file at a time (Chromium keeps both cores busy; two files at once
// gained nothing) and mostly wait on Chromium, the server and widget tests run three files at once
// and mostly wait on PostgreSQL: side by side they share the machine better than one after the
// other (measured here: 455 s for both at once against about 555 s in turn). vitest runs projects
// of different worker counts only one after another, so they are two vitest processes, each one's
// output printed whole when it ends. The load test (`bench/load`) times recoveries from faults and
// runs after both, on a machine nothing else is using.
//
// With arguments (`npm test -- e2e/chat.test.ts`) it is one `vitest run` with them.
import { spawn, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const vitest = path.join(root, 'node_modules', 'vitest', 'vitest.mjs');

/** Runs vitest with `args`; its output goes to `log` (a file) or to this process's. Answers its exit code. */
function run(args, log) {
  return new Promise((resolve) => {
    const out = log === undefined ? 'inherit' : fs.openSync(log, 'w');
    const child = spawn(process.execPath, [vitest, 'run', ...args], { cwd: root, stdio: ['ignore', out, out] });
    const forward = (signal) => child.kill(signal);
    process.on('SIGINT', forward);
    process.on('SIGTERM', forward);
    child.on('close', (code, signal) => {
      process.off('SIGINT', forward);
      process.off('SIGTERM', forward);
      if (typeof out === 'number') fs.closeSync(out);
      resolve(code ?? (signal ? 1 : 0));
    });
  });
}

const extra = process.argv.slice(2);
if (extra.length > 0) process.exit(await run(extra));

// The built server, once, before the two runs whose global setups would each build it (then there is nothing left to do).
execFileSync(process.execPath, [path.join(root, 'scripts', 'build-server.mjs')], { cwd: root, stdio: 'inherit' });

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ns-test-'));
const parts = [
  { name: 'server and widget tests', args: ['--project', 'server', '--project', 'widgets'] },
  { name: 'browser tests', args: ['--project', 'e2e'] },
];
console.log(`${parts.map((p) => p.name).join(' and ')} at once; each one's output follows when it ends`);
const codes = await Promise.all(
  parts.map(async (part, i) => {
    const log = path.join(dir, `${String(i)}.log`);
    const started = Date.now();
    const code = await run(part.args, log);
    process.stdout.write(`\n==== ${part.name}: ${code === 0 ? 'passed' : `FAILED (${String(code)})`} in ${String(Math.round((Date.now() - started) / 1000))} s ====\n`);
    process.stdout.write(fs.readFileSync(log));
    return code;
  }),
);
fs.rmSync(dir, { recursive: true, force: true });

console.log('\n==== the load and fault test ====');
codes.push(await run(['--project', 'load']));
process.exit(codes.find((c) => c !== 0) ?? 0);
