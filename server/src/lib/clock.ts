/** What time it is, in milliseconds since the epoch: `Date.now`, or a test's own clock. */
export type Clock = () => number;

export const systemClock: Clock = () => Date.now();
