import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

const VITE = path.resolve(import.meta.dirname, '..', '..', 'node_modules', 'vite', 'bin', 'vite.js');

/** The build as `npm run build` runs it: without vitest's environment variables. */
const buildEnv = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('VITEST') && key !== 'NODE_ENV' && key !== 'TEST'));

/** `vite build` of the widget in `dir`, as scripts/build-frontend.mjs runs it; a failed build answers its output. */
export async function buildWidget(dir: string): Promise<{ ok: true } | { ok: false; output: string }> {
  try {
    await promisify(execFile)(process.execPath, [VITE, 'build', '--configLoader', 'runner'], { cwd: dir, env: buildEnv });
    return { ok: true };
  } catch (err) {
    const { stdout = '', stderr = '' } = err as { stdout?: string; stderr?: string };
    return { ok: false, output: `${stdout}\n${stderr}` };
  }
}
