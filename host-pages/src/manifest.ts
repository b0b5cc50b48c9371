import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { WidgetManifestEntrySchema, type WidgetManifest, type WidgetManifestEntry } from '@app/contracts';
import { devManifestEntry } from './dev.ts';

const ASSET = z.string().regex(/^\/assets\/[\w.-]+\.js$/);
/** `loader.json` of the loader's build. */
const LoaderFilesSchema = z.object({ preload: z.array(ASSET), lazy: z.record(z.string(), z.array(ASSET)).default({}) });
export type LoaderFiles = z.infer<typeof LoaderFilesSchema>;
const NO_LOADER_FILES: LoaderFiles = { preload: [], lazy: {} };

interface Cached<T> {
  mtimeMs: number;
  value: T;
}

/**
 * Reads the widget manifest from `<widgetsDir>/<name>/dist/widget.json` at request time
 * (cached per file by mtime), so a widget rebuilt alone is served on the next page load.
 */
export class ManifestStore {
  private readonly entries = new Map<string, Cached<WidgetManifestEntry | null>>();
  private loader: Cached<string> | null = null;
  private loaderList: Cached<LoaderFiles> | null = null;

  constructor(
    private readonly widgetsDir: string,
    private readonly loaderDir: string,
    /** Widgets served by their `vite dev` server (name → origin): their build is not read. */
    private readonly devServers: Record<string, string> = {},
  ) {}

  async entry(name: string): Promise<WidgetManifestEntry | null> {
    if (!/^[a-z0-9-]+$/.test(name)) return null;
    const devOrigin = Object.hasOwn(this.devServers, name) ? this.devServers[name] : undefined;
    if (devOrigin) return devManifestEntry(name, devOrigin);
    const file = path.join(this.widgetsDir, name, 'dist', 'widget.json');
    let stat;
    try {
      stat = await fs.stat(file);
    } catch {
      this.entries.delete(name);
      return null;
    }
    const cached = this.entries.get(name);
    if (cached?.mtimeMs === stat.mtimeMs) return cached.value;
    let value: WidgetManifestEntry | null = null;
    try {
      const parsed = WidgetManifestEntrySchema.safeParse(JSON.parse(await fs.readFile(file, 'utf8')));
      value = parsed.success ? parsed.data : null;
    } catch {
      value = null;
    }
    this.entries.set(name, { mtimeMs: stat.mtimeMs, value });
    return value;
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
    const file = path.join(this.loaderDir, 'loader.json');
    try {
      const stat = await fs.stat(file);
      if (this.loaderList?.mtimeMs !== stat.mtimeMs) {
        const parsed = LoaderFilesSchema.safeParse(JSON.parse(await fs.readFile(file, 'utf8')));
        this.loaderList = { mtimeMs: stat.mtimeMs, value: parsed.success ? parsed.data : NO_LOADER_FILES };
      }
      return this.loaderList.value;
    } catch {
      return NO_LOADER_FILES;
    }
  }

  /** Content hash of the loader, for its URL. */
  async loaderVersion(): Promise<string> {
    const file = path.join(this.loaderDir, 'loader.js');
    try {
      const stat = await fs.stat(file);
      if (this.loader?.mtimeMs !== stat.mtimeMs) {
        const hash = crypto.createHash('sha256').update(await fs.readFile(file)).digest('hex').slice(0, 12);
        this.loader = { mtimeMs: stat.mtimeMs, value: hash };
      }
      return this.loader.value;
    } catch {
      return 'missing';
    }
  }
}
