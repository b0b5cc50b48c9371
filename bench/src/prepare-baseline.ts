import { BASELINE_COMMIT, baselineTree, hasBaselineCommit } from './mount-time.ts';

/*
 * Builds the mount-time bench's baseline tree ahead of the bench (a build, not a measurement: it
 * may run beside other work). Without the baseline commit in this clone there is nothing to build.
 */
if (!hasBaselineCommit()) {
  console.log(`the baseline commit ${BASELINE_COMMIT.slice(0, 12)} is not in this clone: nothing to build`);
  process.exit(0);
}
const started = Date.now();
console.log(`baseline built in ${baselineTree()} (${String(Math.round((Date.now() - started) / 1000))} s)`);
