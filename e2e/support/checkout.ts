import fs from 'node:fs';
import path from 'node:path';

const REPO_ROOT = path.resolve(import.meta.dirname, '..', '..');

/**
 * `<tree>/node_modules` for a source tree outside the repository (another checkout, another
 * commit's tree): every package the repository installed, linked, but the workspaces (`@app/*`)
 * from `workspaces` (package name → folder).
 */
export function linkNodeModules(tree: string, workspaces: Record<string, string>): void {
  const modules = path.join(tree, 'node_modules');
  fs.mkdirSync(path.join(modules, '@app'), { recursive: true });
  for (const entry of fs.readdirSync(path.join(REPO_ROOT, 'node_modules'))) {
    if (entry !== '@app' && entry !== '.bin') fs.symlinkSync(path.join(REPO_ROOT, 'node_modules', entry), path.join(modules, entry));
  }
  for (const [name, dir] of Object.entries(workspaces)) fs.symlinkSync(dir, path.join(modules, name));
}

/** The repository's workspaces as installed: package name → folder. */
export function repoWorkspaces(): Record<string, string> {
  const dir = path.join(REPO_ROOT, 'node_modules', '@app');
  return Object.fromEntries(fs.readdirSync(dir).map((entry) => [`@app/${entry}`, fs.realpathSync(path.join(dir, entry))]));
}
