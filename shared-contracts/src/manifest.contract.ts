import * as z from 'zod/mini';

/** One entry of the widget manifest the build writes and the server reads. */
export const WidgetManifestEntrySchema = z.object({
  name: z.string(),
  /** URL of the widget's entry module, with a content hash for cache busting. */
  entry: z.string(),
  /** The widget's Module Federation remote (`loadRemote('<remote>/mount')`). */
  remote: z.string(),
  /** The files every mount of the widget loads besides its entry: the page links them as modulepreload, so they load beside the loader. */
  preload: z.array(z.string()),
  /**
   * The host modules the widget's remote declares shared: the page's loader offers just those
   * of its widgets, and the page preloads the chunks of the lazy ones (forms, dialog…: `lazy` of
   * the loader's `loader.json`). Absent (a build older than the list, a widget served by its dev
   * server): the loader offers every host module.
   */
  hostModules: z.optional(z.array(z.string())),
  version: z.string(),
  builtAt: z.string(),
});
export type WidgetManifestEntry = z.infer<typeof WidgetManifestEntrySchema>;
export const WidgetManifestSchema = z.record(z.string(), WidgetManifestEntrySchema);
export type WidgetManifest = z.infer<typeof WidgetManifestSchema>;
