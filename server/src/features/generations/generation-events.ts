import type { Generation } from '@app/contracts';
import type { Executor } from '../../db/database.ts';
import { AppError } from '../../lib/app-error.ts';
import type { PgListener } from '../../lib/pg-listener.ts';
import { GENERATION_CHANNEL, runState } from './generations.queries.ts';
import type { GenerationStatus } from './generations.table.ts';

/** Where a run stands, as its `progress` event carries it. */
export interface RunState {
  status: GenerationStatus;
  progress: number;
}

/** What a run's event stream sends: `progress` on every change, then `done` with the final run. */
export type RunEvent = { event: 'progress'; state: RunState } | { event: 'done'; run: Generation };

const STATUSES: readonly GenerationStatus[] = ['queued', 'running', 'succeeded', 'failed', 'cancelled'];
const rank = (status: GenerationStatus) => (status === 'queued' ? 0 : status === 'running' ? 1 : 2);
const isFinal = (state: RunState) => rank(state.status) === 2;
/** A run only moves on (queued → running, its progress up → final): whether `a` is further than `b`. */
const ahead = (a: RunState, b: RunState) => rank(a.status) > rank(b.status) || (rank(a.status) === rank(b.status) && a.progress > b.progress);

/** A run followed by this process's streams: what is known of it, read once and then told by notifications. */
interface Followed {
  owner: number | null;
  state: RunState | null;
  /** A read finished since it was first followed (or since the notification connection came back). */
  loaded: boolean;
  reading: { epoch: number; done: Promise<boolean> } | null;
  final: Promise<Generation> | null;
  /** Bumped on every change, so a stream that was busy knows it has something new. */
  version: number;
  wakers: Set<() => void>;
}

function parseNotification(payload: string): ({ id: number } & RunState) | null {
  try {
    const value = JSON.parse(payload) as { id?: unknown; status?: unknown; progress?: unknown };
    const status = STATUSES.find((s) => s === value.status);
    if (typeof value.id !== 'number' || typeof value.progress !== 'number' || !status) return null;
    return { id: value.id, status, progress: value.progress };
  } catch {
    return null;
  }
}

/**
 * The hub of this process's generation event streams. Every change of a run's status or progress
 * is NOTIFYed on `ns_generation` by the statement that makes it (`generations.queries.ts`), so it
 * comes on commit to every process, over the one LISTEN connection; the hub hands it to the
 * streams of that run. A run is read once when its first stream opens (streams opening meanwhile
 * share that read, later ones what is known) and once more when it is final (shared too); after
 * the LISTEN connection was lost and came back, every followed run is read again, since
 * notifications may have been missed meanwhile.
 */
export class GenerationEvents {
  private readonly runs = new Map<number, Followed>();
  /** Bumped when the notification connection comes back: reads begun before it may have missed something. */
  private epoch = 0;
  private stopping = false;

  /**
   * @param db where runs' states are read.
   * @param finalRun a final run as its owner reads it (`generationOf`).
   */
  constructor(
    private readonly db: Executor,
    private readonly finalRun: (userId: number, id: number) => Promise<Generation>,
  ) {}

  /** Subscribes to the runs' notifications (once, at start). */
  listen(listener: PgListener): void {
    listener.subscribe(GENERATION_CHANNEL, { onMessage: (payload) => this.heard(payload), onReconnect: () => this.reconnected() });
  }

  /** Streams following runs in this process now. */
  get followed(): number {
    let n = 0;
    for (const run of this.runs.values()) n += run.wakers.size;
    return n;
  }

  /**
   * The events of the user's run `id` until it is final or `signal` aborts. A run that is not
   * the user's is not found (thrown before the first event, so it is an ordinary 404).
   */
  async *follow(userId: number, id: number, signal: AbortSignal): AsyncGenerator<RunEvent> {
    const run = this.enter(id);
    let wake: () => void = () => undefined;
    const waker = () => wake();
    run.wakers.add(waker);
    signal.addEventListener('abort', waker);
    try {
      let sent: RunState | null = null;
      for (;;) {
        const seen = run.version;
        if (!run.loaded) {
          if (!(await this.load(id, run))) throw new AppError('NOT_FOUND', 'Генерация не найдена');
          // Look again: read now (or to be read again, when the connection came back meanwhile).
          continue;
        }
        if (run.owner !== userId || !run.state) throw new AppError('NOT_FOUND', 'Генерация не найдена');
        const state = run.state;
        if (!sent || ahead(state, sent)) {
          yield { event: 'progress', state };
          sent = state;
        }
        if (isFinal(state)) {
          yield { event: 'done', run: await this.finalOf(id, run, userId) };
          return;
        }
        await new Promise<void>((resolve) => {
          if (signal.aborted || this.stopping || run.version !== seen) resolve();
          else wake = resolve;
        });
        wake = () => undefined;
        if (signal.aborted || this.stopping) return;
      }
    } finally {
      signal.removeEventListener('abort', waker);
      run.wakers.delete(waker);
      if (run.wakers.size === 0 && this.runs.get(id) === run) this.runs.delete(id);
    }
  }

  /** Ends every stream that waits for a change (a closing server): their clients fall back to asking. */
  stopAll(): void {
    this.stopping = true;
    for (const run of this.runs.values()) for (const wake of run.wakers) wake();
  }

  private enter(id: number): Followed {
    let run = this.runs.get(id);
    if (!run) {
      run = { owner: null, state: null, loaded: false, reading: null, final: null, version: 0, wakers: new Set() };
      this.runs.set(id, run);
    }
    return run;
  }

  /** Reads the run (one read for every stream waiting on it); answers whether it exists. */
  private load(id: number, run: Followed): Promise<boolean> {
    const epoch = this.epoch;
    if (run.reading?.epoch === epoch) return run.reading.done;
    const reading = {
      epoch,
      done: runState(this.db, id).then(
        (row) => {
          if (run.reading === reading) run.reading = null;
          if (!row) return false;
          run.owner = row.user_id;
          this.merge(run, { status: row.status, progress: row.progress });
          // A read begun before the connection came back may predate a missed notification.
          if (epoch === this.epoch) run.loaded = true;
          return true;
        },
        (err: unknown) => {
          if (run.reading === reading) run.reading = null;
          throw err;
        },
      ),
    };
    run.reading = reading;
    return reading.done;
  }

  /** The final run, read once for all its streams. */
  private finalOf(id: number, run: Followed, userId: number): Promise<Generation> {
    run.final ??= this.finalRun(userId, id).catch((err: unknown) => {
      run.final = null;
      throw err;
    });
    return run.final;
  }

  private merge(run: Followed, state: RunState): void {
    if (run.state && !ahead(state, run.state)) return;
    run.state = state;
    run.version += 1;
    for (const wake of run.wakers) wake();
  }

  private heard(payload: string): void {
    const change = parseNotification(payload);
    const run = change && this.runs.get(change.id);
    if (change && run) this.merge(run, { status: change.status, progress: change.progress });
  }

  private reconnected(): void {
    this.epoch += 1;
    for (const run of this.runs.values()) {
      run.loaded = false;
      run.version += 1;
      for (const wake of run.wakers) wake();
    }
  }
}
