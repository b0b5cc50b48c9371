// Builds the server for plain Node (scripts/build-server.mjs), the browser loader and every widget
// (each its own vite build), two at a time; names (`server`, `loader`, a widget's) build only those.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const widgetsDir = path.join(root, 'widgets');
const only = process.argv.slice(2);
const widgets = fs
  .readdirSync(widgetsDir)
  // A widget has its own vite config and a mount entry (widgets/kit has mount.tsx but is a library).
  .filter((name) => fs.existsSync(path.join(widgetsDir, name, 'vite.config.ts')) && fs.existsSync(path.join(widgetsDir, name, 'src', 'mount.tsx')))
  .filter((name) => only.length === 0 || only.includes(name));

const vite = path.join(root, 'node_modules', 'vite', 'bin', 'vite.js');
const jobs = [
  ...(only.length === 0 || only.includes('server') ? [{ name: 'server', cwd: root, args: [path.join(root, 'scripts', 'build-server.mjs')] }] : []),
  ...(only.length === 0 || only.includes('loader') ? [{ name: 'loader', cwd: path.join(root, 'host-pages'), args: [vite, 'build', '--config', 'loader.vite.config.ts', '--configLoader', 'runner'] }] : []),
  ...widgets.map((name) => ({ name, cwd: path.join(widgetsDir, name), args: [vite, 'build', '--configLoader', 'runner'] })),
];

const run = (job) =>
  new Promise((resolve, reject) => {
    const started = Date.now();
    const child = spawn(process.execPath, job.args, { cwd: job.cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('close', (code) => {
      if (code === 0) {
        console.log(`built ${job.name} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
        resolve();
      } else {
        reject(new Error(`build of ${job.name} failed:\n${output}`));
      }
    });
  });

const queue = [...jobs];
const workers = Array.from({ length: 2 }, async () => {
  while (queue.length) await run(queue.shift());
});
try {
  await Promise.all(workers);
} catch (err) {
  console.error(err.message);
  process.exit(1);
}
