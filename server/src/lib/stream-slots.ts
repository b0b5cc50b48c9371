import { AppError } from './app-error.ts';

/**
 * The event streams each user has open in this process (streamed chat answers, generation
 * progress), at most `perUser` at once. Counted in memory: each process counts its own, so behind
 * a load balancer a user may hold up to `perUser` on every process.
 */
export class StreamSlots {
  private readonly open = new Map<number, number>();

  constructor(private readonly perUser: number) {}

  /**
   * Takes one of the user's slots, or refuses (429 `STREAMS_LIMIT`) when all are taken. Answers
   * its release, which may be called any number of times (the stream's end, its client leaving).
   */
  take(userId: number): () => void {
    const count = this.open.get(userId) ?? 0;
    if (count >= this.perUser) throw new AppError('STREAMS_LIMIT');
    this.open.set(userId, count + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.open.get(userId) ?? 1) - 1;
      if (left > 0) this.open.set(userId, left);
      else this.open.delete(userId);
    };
  }

  /** Streams open in this process, every user's (read by the metrics on scrape). */
  get total(): number {
    let sum = 0;
    for (const count of this.open.values()) sum += count;
    return sum;
  }

  /** Streams the user has open in this process. */
  openBy(userId: number): number {
    return this.open.get(userId) ?? 0;
  }
}
