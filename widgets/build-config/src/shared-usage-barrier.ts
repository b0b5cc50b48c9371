import type { Plugin } from 'vite';

/**
 * Modules whose code @module-federation/vite writes from what the whole graph imports of each
 * shared module, once it believes the graph complete: a shared module's wrapper (`__loadShare__`,
 * for an `import: false` share only the named exports the widget uses), the remote's entry and
 * its share map.
 */
const WRITTEN_FROM_USAGE = /__loadShare__|virtual:mf-REMOTE_ENTRY_ID|virtual:mf-localSharedImportMap/;

/**
 * How long the barrier waits without any module of the graph being parsed before it fails the
 * build, naming what it waits for. A widget's build has no externals (rolldown's module info does
 * not tell them apart); one would never be parsed, and the build would fail here instead of hanging.
 */
const STALL_MS = 120_000;

/**
 * Holds the loading of those modules until every other module the build has reached is parsed.
 *
 * The plugin decides that the graph is complete when no module has been loaded or parsed for
 * 10 ms; on a busy machine a gap that long happens while imports are still being resolved, and a
 * wrapper written then lacks exports a later module imports (the build fails with
 * MISSING_EXPORT: under `stress-ng --cpu 4`, three builds of ai-products in twelve). Its wrappers
 * read the usage when their own load runs, so this barrier, placed before the plugin, makes them
 * read it complete: a module's imports are known when it is parsed, so once every module reached
 * (the widget's entry first) is parsed, nothing can add usage — no clock involved.
 */
/** The barrier plugin's name (the test's fixture builds without it to show the failure it prevents). */
export const SHARED_USAGE_BARRIER = 'widget-shared-usage-barrier';

export function sharedUsageBarrier(entry: string): Plugin {
  // Every module reached (loaded, or imported by a parsed one) that is not parsed yet.
  let unparsed = new Set<string>();
  let parsed = new Set<string>();
  let waiting: { release: () => void; fail: (err: Error) => void }[] = [];
  let stall: NodeJS.Timeout | undefined;

  const reach = (id: string) => {
    if (!WRITTEN_FROM_USAGE.test(id) && !parsed.has(id)) unparsed.add(id);
  };
  const settle = () => {
    if (waiting.length === 0) return;
    clearTimeout(stall);
    if (unparsed.size === 0) {
      for (const w of waiting.splice(0)) w.release();
      return;
    }
    stall = setTimeout(() => {
      const err = new Error(`shared usage barrier: no module parsed for ${String(STALL_MS / 1000)} s; still pending: ${[...unparsed].slice(0, 10).join(', ')}`);
      for (const w of waiting.splice(0)) w.fail(err);
    }, STALL_MS);
  };

  return {
    name: SHARED_USAGE_BARRIER,
    apply: 'build',
    enforce: 'pre',
    buildStart() {
      unparsed = new Set([entry]);
      parsed = new Set();
      waiting = [];
    },
    async load(id) {
      if (!WRITTEN_FROM_USAGE.test(id)) {
        reach(id);
        return null;
      }
      await new Promise<void>((release, fail) => {
        waiting.push({ release, fail });
        settle();
      });
      return null;
    },
    moduleParsed(info) {
      for (const imported of [...info.importedIds, ...info.dynamicallyImportedIds]) reach(imported);
      parsed.add(info.id);
      unparsed.delete(info.id);
      settle();
    },
    buildEnd() {
      clearTimeout(stall);
    },
  };
}
