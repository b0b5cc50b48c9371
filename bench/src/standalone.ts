/**
 * Runs one measurement when its module is the entry point (`node --import tsx bench/src/<name>.ts`),
 * printing its report as JSON; imported by the full bench, it does nothing.
 */
export function runWhenMain(url: string, measure: () => Promise<unknown>): void {
  if (process.argv[1] !== new URL(url).pathname) return;
  measure().then(
    (report) => {
      console.log(JSON.stringify(report, null, 2));
      process.exit(0);
    },
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
