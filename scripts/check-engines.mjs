// Every installed package must declare support for the Node.js that runs it (npm only warns,
// with EBADENGINE, and goes on): fails naming each package whose `engines.node` excludes it.
import fs from 'node:fs';
import path from 'node:path';
import semver from 'semver';

const root = path.resolve(import.meta.dirname, '..');
const node = process.versions.node;
const lock = JSON.parse(fs.readFileSync(path.join(root, 'package-lock.json'), 'utf8'));
const bad = [];
for (const [where, entry] of Object.entries(lock.packages)) {
  // Workspace links, and optional packages of other platforms that are not installed, do not run here.
  if (!where.includes('node_modules/') || entry.link || !fs.existsSync(path.join(root, where))) continue;
  const range = entry.engines?.node;
  if (range && !semver.satisfies(node, range, { includePrerelease: true })) bad.push(`${where.replace(/^.*node_modules\//, '')}@${entry.version} needs node ${range}`);
}
if (bad.length) {
  console.error(`Packages that do not declare support for Node ${node}:\n  ${bad.join('\n  ')}`);
  process.exit(1);
}
console.log(`every package declares support for Node ${node}`);
