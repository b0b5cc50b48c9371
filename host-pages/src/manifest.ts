import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { WidgetManifestEntrySchema, type WidgetManifest, type WidgetManifestEntry } from '@app/contracts';
import { devManifestEntry } from './dev.ts';
import { STYLE_GROUP_NAMES } from './style-groups.ts';

const ASSET = z.string().regex(/^\/assets\/[\w.-]+\.js$/);
/** `loader.json` of the loader's build. */
const LoaderFilesSchema = z.object({
  preload: z.array(ASSET),
  preloadLast: z.array(ASSET).default([]),
  lazy: z.record(z.string(), z.array(ASSET)).default({}),
  /** The style groups the build wrote a file of (`loader-<group>.css`). */
  styles: z.array(z.enum(STYLE_GROUP_NAMES)).default([]),
});
export type LoaderFiles = z.infer<typeof LoaderFilesSchema>;
const NO_LOADER_FILES: LoaderFiles = { preload: [], preloadLast: [], lazy: {}, styles: [] };

interface Cached<T> {
  mtimeMs: number;
  value: T;
}

/**
 * Reads the widget manifest from `<widgetsDir>/<name>/dist/widget.json` at request time
 * (cached per file by mtime), so a widget rebuilt alone is served on the next page load.
 */
export class ManifestStore {
  /** What was read of each file (a manifest entry, `loader.json`, `loader.js`'s hash), by its path. */
  private readonly files = new Map<string, Cached<unknown>>();

  constructor(
    private readonly widgetsDir: string,
    private readonly loaderDir: string,
    /** Widgets served by their `vite dev` server (name → origin): their build is not read. */
    private readonly devServers: Record<string, string> = {},
  ) {}

  /**
   * `read` of the file's content, read again only when its mtime changed; undefined when the file
   * cannot be read (not built yet, removed).
   */
  private async byMtime<T>(file: string, read: (content: Buffer) => T): Promise<T | undefined> {
    try {
      const stat = await fs.stat(file);
      const cached = this.files.get(file) as Cached<T> | undefined;
      if (cached?.mtimeMs === stat.mtimeMs) return cached.value;
      const value = read(await fs.readFile(file));
      this.files.set(file, { mtimeMs: stat.mtimeMs, value });
      return value;
    } catch {
      this.files.delete(file);
      return undefined;
    }
  }

  async entry(name: string): Promise<WidgetManifestEntry | null> {
    if (!/^[a-z0-9-]+$/.test(name)) return null;
    const devOrigin = Object.hasOwn(this.devServers, name) ? this.devServers[name] : undefined;
    if (devOrigin) return devManifestEntry(name, devOrigin);
    const entry = await this.byMtime(path.join(this.widgetsDir, name, 'dist', 'widget.json'), (content) => parseJson(content, WidgetManifestEntrySchema));
    return entry ?? null;
  }

  async manifestFor(names: readonly string[]): Promise<WidgetManifest> {
    const manifest: WidgetManifest = {};
    for (const name of new Set(names)) {
      const entry = await this.entry(name);
      if (entry) manifest[name] = entry;
    }
    return manifest;
  }

  /**
   * What a page links as modulepreload of the loader's build (`loader.json`): the chunks
   * `loader.js` needs at once (the boot chunk, React), and the files of each lazy host module;
   * nothing if the build wrote no list.
   */
  async loaderFiles(): Promise<LoaderFiles> {
    const files = await this.byMtime(path.join(this.loaderDir, 'loader.json'), (content) => parseJson(content, LoaderFilesSchema));
    return files ?? NO_LOADER_FILES;
  }

  /** Content hash of the loader, for its URL. */
  async loaderVersion(): Promise<string> {
    const hash = await this.byMtime(path.join(this.loaderDir, 'loader.js'), (content) => crypto.createHash('sha256').update(content).digest('hex').slice(0, 12));
    return hash ?? 'missing';
  }
}

/** The file's JSON as `schema` reads it; undefined when it is not JSON or not of that shape. */
function parseJson<T>(content: Buffer, schema: { safeParse: (value: unknown) => { success: true; data: T } | { success: false } }): T | undefined {
  try {
    const parsed = schema.safeParse(JSON.parse(content.toString('utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
