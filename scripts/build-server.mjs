// Builds the server for plain Node: `node server/dist/main.js` (what `npm start`, `npm run serve`,
// `npm run worker` and the image run). tsc compiles each package on its own (tsconfig.dist.json
// beside it; no type check, `npm run check` does that), rewriting `.ts` import specifiers to `.js`.
// The workspace packages the server imports are compiled into server/dist/node_modules/@app/, each
// with a package.json whose exports name the compiled files, so Node finds them there before the
// repository's TypeScript sources. Incremental: what has not changed is not compiled again.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const dist = path.join(root, 'server', 'dist');

/** The workspace packages the built server imports: where each is and which of its sources are compiled. */
const PACKAGES = [
  { dir: 'shared-contracts', name: '@app/contracts' },
  { dir: 'host-pages', name: '@app/host-pages' },
  { dir: 'widgets/build-config', name: '@app/widget-build' },
];

const started = Date.now();
const tsc = path.join(root, 'node_modules', 'typescript', 'bin', 'tsc');
const configs = ['server', ...PACKAGES.map((p) => p.dir)].map((dir) => path.join(root, dir, 'tsconfig.dist.json'));
try {
  execFileSync(process.execPath, [tsc, '-b', ...configs], { cwd: root, stdio: 'inherit' });
} catch {
  console.error('build of the server failed');
  process.exit(1);
}

/**
 * Removes compiled files whose source is gone (a module deleted or renamed), which tsc leaves
 * behind: the built server holds what the sources hold. `skip`: folders of other builds inside.
 */
function prune(srcDir, outDir, skip = []) {
  if (!fs.existsSync(outDir)) return;
  for (const entry of fs.readdirSync(outDir, { withFileTypes: true })) {
    const out = path.join(outDir, entry.name);
    if (entry.isDirectory()) {
      if (!skip.includes(out) && !entry.name.startsWith('.')) prune(path.join(srcDir, entry.name), out);
    } else if (entry.name.endsWith('.js') && !['.ts', '.tsx'].some((ext) => fs.existsSync(path.join(srcDir, entry.name.replace(/\.js$/, ext))))) {
      fs.rmSync(out);
    }
  }
}
prune(path.join(root, 'server', 'src'), dist, [path.join(dist, 'node_modules')]);

// The database functions' sources (one file a version), which the migrations read beside their module.
const functionsSrc = path.join(root, 'server', 'src', 'db', 'functions');
const functionsOut = path.join(dist, 'db', 'functions');
fs.mkdirSync(functionsOut, { recursive: true });
for (const name of fs.readdirSync(functionsOut)) {
  if (name.endsWith('.sql') && !fs.existsSync(path.join(functionsSrc, name))) fs.rmSync(path.join(functionsOut, name));
}
// Only what changed is written: a build running while a test's server reads these (two test runs at
// once, each building first) never truncates a file under it.
for (const name of fs.readdirSync(functionsSrc)) {
  if (!name.endsWith('.sql')) continue;
  const source = fs.readFileSync(path.join(functionsSrc, name));
  const out = path.join(functionsOut, name);
  if (!fs.existsSync(out) || !fs.readFileSync(out).equals(source)) fs.writeFileSync(out, source);
}
for (const { dir, name } of PACKAGES) prune(path.join(root, dir, 'src'), path.join(dist, 'node_modules', ...name.split('/')));

/** `./src/x.ts` → `./x.js`, for the entries whose compiled file exists (a package's build compiles part of it). */
function compiledExports(exports, outDir) {
  const mapped = {};
  for (const [entry, target] of Object.entries(exports)) {
    if (typeof target !== 'string') continue;
    const compiled = target.replace(/^\.\/src\//, './').replace(/\.tsx?$/, '.js');
    if (compiled !== target && fs.existsSync(path.join(outDir, compiled))) mapped[entry] = compiled;
  }
  return mapped;
}

for (const { dir, name } of PACKAGES) {
  const source = JSON.parse(fs.readFileSync(path.join(root, dir, 'package.json'), 'utf8'));
  const outDir = path.join(dist, 'node_modules', ...name.split('/'));
  const manifest = `${JSON.stringify({ name, version: source.version, private: true, type: 'module', exports: compiledExports(source.exports, outDir) }, null, 2)}\n`;
  const file = path.join(outDir, 'package.json');
  if (!fs.existsSync(file) || fs.readFileSync(file, 'utf8') !== manifest) fs.writeFileSync(file, manifest);
}
console.log(`built server in ${((Date.now() - started) / 1000).toFixed(1)} s`);
