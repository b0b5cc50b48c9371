import { Semaphore, withTimeout, type SemaphoreInterface } from 'async-mutex';

const MB = 1024 * 1024;

/** A picture waited for its share of {@link ImageBudget} longer than the budget lets it. */
export class ImageBudgetBusy extends Error {
  override name = 'ImageBudgetBusy';
}

/**
 * The memory one process may spend decoding and re-encoding pictures at once. Each picture asks
 * for what {@link imageCost} says it takes; pictures that fit run together, the rest wait their
 * turn in order (first come, first served: a large picture is not passed over by small ones
 * forever) and give up after `waitMs` with {@link ImageBudgetBusy}. A picture that needs more than
 * the whole budget never runs: its caller refuses it before asking.
 */
export class ImageBudget {
  readonly bytes: number;
  private readonly semaphore: SemaphoreInterface;

  constructor(bytes: number, waitMs: number) {
    this.bytes = bytes;
    this.semaphore = withTimeout(new Semaphore(Math.floor(bytes / MB)), waitMs, new ImageBudgetBusy('no room to decode the picture in time'));
  }

  /** Runs `fn` holding `cost` bytes of the budget (whole megabytes, at least one). */
  run<T>(cost: number, fn: () => Promise<T>): Promise<T> {
    return this.semaphore.runExclusive(fn, Math.max(1, Math.ceil(cost / MB)));
  }
}
