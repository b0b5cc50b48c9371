import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

export interface FileSize {
  raw: number;
  gzip: number;
}

export interface WidgetSize extends FileSize {
  name: string;
  version: string;
  files: number;
}

export interface LoaderSize {
  js: FileSize;
  /** The loader's chunks (`host-*.js`: host modules a page fetches when a widget asks). */
  chunks: (FileSize & { name: string })[];
  /** `loader.css`, which every page links, and each style group's file, which pages of its widgets link. */
  css: (FileSize & { name: string })[];
}

/** Bytes of a file and of it gzipped as a server would (zlib's default level 6). */
export function sizeOf(content: Buffer): FileSize {
  return { raw: content.length, gzip: zlib.gzipSync(content).length };
}

export const sum = (sizes: FileSize[]): FileSize => ({ raw: sizes.reduce((n, s) => n + s.raw, 0), gzip: sizes.reduce((n, s) => n + s.gzip, 0) });

/** Widgets (a vite config and `src/mount.tsx`, as scripts/build-frontend.mjs picks them), built or not. */
export function widgetNames(widgetsDir: string): string[] {
  return fs
    .readdirSync(widgetsDir)
    .filter((name) => fs.existsSync(path.join(widgetsDir, name, 'vite.config.ts')) && fs.existsSync(path.join(widgetsDir, name, 'src', 'mount.tsx')))
    .sort();
}

export const isBuilt = (widgetsDir: string, name: string) => fs.existsSync(path.join(widgetsDir, name, 'dist', 'widget.json'));

/**
 * A widget's own JS: `remoteEntry.js` plus every `assets/*.js` of its current build, each
 * gzipped on its own (they are separate requests). React and the host modules come from the
 * loader, so they are not in here.
 */
export function widgetSize(widgetsDir: string, name: string): WidgetSize {
  const dist = path.join(widgetsDir, name, 'dist');
  // dist/assets also keeps the previous build's chunks (for pages opened before a redeploy): count the current build's only.
  const builds = JSON.parse(fs.readFileSync(path.join(dist, '.builds.json'), 'utf8')) as { files: string[] }[];
  const current = builds.at(-1)?.files ?? [];
  const assets = current.filter((f) => f.startsWith('assets/') && f.endsWith('.js'));
  const files = [path.join(dist, 'remoteEntry.js'), ...assets.map((f) => path.join(dist, f))];
  const manifest = JSON.parse(fs.readFileSync(path.join(dist, 'widget.json'), 'utf8')) as { version: string };
  return { name, version: manifest.version, files: files.length, ...sum(files.map((f) => sizeOf(fs.readFileSync(f)))) };
}

export function loaderSize(loaderDir: string): LoaderSize {
  const chunks = fs
    .readdirSync(loaderDir)
    .filter((f) => /^host-.+\.js$/.test(f))
    .sort();
  return {
    js: sizeOf(fs.readFileSync(path.join(loaderDir, 'loader.js'))),
    chunks: chunks.map((name) => ({ name, ...sizeOf(fs.readFileSync(path.join(loaderDir, name))) })),
    css: fs
      .readdirSync(loaderDir)
      .filter((f) => /^loader(-[\w-]+)?\.css$/.test(f))
      .sort()
      .map((name) => ({ name, ...sizeOf(fs.readFileSync(path.join(loaderDir, name))) })),
  };
}

/**
 * Whether a widget's file (a URL path under `/widgets/<name>/`) holds only Module Federation glue
 * (the remote's entry, its share map, the runtime shim, re-exporting facades), as its build
 * recorded in `dist/.builds.json`; everything else a widget loads is its own code.
 */
export function isGlueFile(widgetsDir: string, urlPath: string): boolean {
  const match = /^\/widgets\/([a-z0-9-]+)\/([^?]+)/.exec(urlPath);
  if (!match?.[1] || !match[2]) return false;
  const builds = JSON.parse(fs.readFileSync(path.join(widgetsDir, match[1], 'dist', '.builds.json'), 'utf8')) as { files: string[]; glue?: string[] }[];
  return builds.some((b) => b.glue?.includes(match[2] ?? ''));
}

/** The file on disk behind a URL path the server serves (`/assets/*` from the loader's dist, `/widgets/<name>/*` from the widget's). */
export function servedFile(urlPath: string, dirs: { widgetsDir: string; loaderDir: string }): string | null {
  const asset = /^\/assets\/([^/]+)$/.exec(urlPath);
  if (asset?.[1]) return path.join(dirs.loaderDir, asset[1]);
  const widget = /^\/widgets\/([a-z0-9-]+)\/(.+)$/.exec(urlPath);
  if (widget?.[1] && widget[2] && !widget[2].includes('..')) return path.join(dirs.widgetsDir, widget[1], 'dist', widget[2]);
  return null;
}
