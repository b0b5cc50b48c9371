import type { Logger } from 'pino';
import type { Db } from '../../db/database.ts';
import type { PgListener } from '../../lib/pg-listener.ts';
import { AppError } from '../../lib/app-error.ts';
import { ProviderError, type ChatRequest, type FinishReason, type TokenUsage } from '../../providers/types.ts';
import { firstChars, storable } from '../../lib/text.ts';
import type { ConnectionRef, ProviderRegistry } from '../../providers/registry.ts';
import type { ProviderProtocol } from '../ai/ai.table.ts';
import type { HoldRef, RawBalances } from '../wallet/wallet.queries.ts';
import { outputTokensEstimate, wordsFor } from './chat-pricing.ts';
import { chatClose, notifyStop, saveProgress, type ChatCloseParams } from './chat.queries.ts';
import type { Metrics } from '../../lib/metrics/metrics.ts';

/** NOTIFY channel of stop requests: the payload is the answer's message id. */
export const STOP_CHANNEL = 'ns_chat_stop';
/** How often a growing answer's text is saved (a reload shows it as far as it went). */
const SAVE_EVERY_MS = 1000;
/** An answer saves at least this often even without new text, so it is not taken for abandoned. */
export const ALIVE_EVERY_MS = 10_000;

/** Everything an answer needs once its messages and hold are committed. */
export interface AnswerPlan {
  messageId: number;
  userMessageId: number;
  chatId: number;
  userId: number;
  modelName: string;
  connection: ConnectionRef;
  protocol: ProviderProtocol;
  request: Omit<ChatRequest, 'signal'>;
  /** Words per token of the model. */
  rate: number;
  /** The words held for the answer, or null for a free model. */
  hold: HoldRef | null;
  /** A fair estimate of the input tokens: the charge's input part when the provider reports no count of them (a stop, a broken usage). */
  inputTokens: number;
  /** What the stored text starts with before the model's words (a summary's heading); never charged. */
  heading?: string | undefined;
}

/** How an answer ended. */
export type AnswerOutcome = { status: 'done' | 'stopped'; text: string; words: number; balances: RawBalances } | { status: 'failed'; text: string; error: AppError };

/**
 * One answer being written: its text so far, its listeners (open streams) and how it ended. It
 * runs whether or not anyone listens: a dropped connection does not stop it.
 */
export class ChatRun {
  text = '';
  readonly controller = new AbortController();
  /** When it started and when its first words came (`performance.now()`), for the metrics. */
  readonly startedAt = performance.now();
  firstDeltaAt: number | null = null;
  private readonly listeners = new Set<(delta: string) => void>();
  outcome!: Promise<AnswerOutcome>;

  constructor(readonly plan: AnswerPlan) {
    this.text = plan.heading ?? '';
  }

  /** What the model wrote (the text without the heading). */
  get written(): string {
    return this.text.slice(this.plan.heading?.length ?? 0);
  }

  /** Calls `fn` with every piece of text from now on; answers the unsubscribe. */
  onDelta(fn: (delta: string) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  append(delta: string): void {
    this.firstDeltaAt ??= performance.now();
    this.text += delta;
    for (const fn of this.listeners) {
      // A listener (a stream whose client is gone) never fails the answer.
      try {
        fn(delta);
      } catch {
        this.listeners.delete(fn);
      }
    }
  }
}

/**
 * The answers this process is writing. Stop requests reach the process writing the answer
 * through NOTIFY, whichever process received them; a stopping server stops its answers, keeping
 * each as far as it went.
 */
/** What writing answers takes from the application's context. */
export interface ChatRunsDeps {
  readonly db: Db;
  readonly log: Logger;
  readonly listener: PgListener;
  readonly providers: ProviderRegistry;
  readonly metrics: Metrics;
}

export class ChatRuns {
  private readonly runs = new Map<number, ChatRun>();
  /** Stops that came before their answer started here (a NOTIFY racing the start), kept a minute. */
  private readonly earlyStops = new Map<number, number>();

  constructor(private readonly getCtx: () => ChatRunsDeps) {}

  get size(): number {
    return this.runs.size;
  }

  /** Listens for stop requests of other processes. */
  listen(): void {
    this.getCtx().listener.subscribe(STOP_CHANNEL, { onMessage: (payload) => void this.stopHere(Number(payload)) });
  }

  /** Starts writing the answer of `plan` (its rows and hold are committed). */
  start(plan: AnswerPlan): ChatRun {
    const run = new ChatRun(plan);
    this.runs.set(plan.messageId, run);
    if (this.earlyStops.delete(plan.messageId)) run.controller.abort(new Error('stopped by the user'));
    run.outcome = this.write(run)
      .then((outcome) => {
        this.getCtx().metrics.chatAnswer(run, outcome);
        return outcome;
      })
      .finally(() => this.runs.delete(plan.messageId));
    return run;
  }

  get(messageId: number): ChatRun | undefined {
    return this.runs.get(messageId);
  }

  /** Stops an answer written by this process and waits until it is stored; false when it is not here. */
  async stopHere(messageId: number): Promise<boolean> {
    const run = this.runs.get(messageId);
    if (!run) {
      this.rememberStop(messageId);
      return false;
    }
    run.controller.abort(new Error('stopped by the user'));
    await run.outcome;
    return true;
  }

  private rememberStop(messageId: number): void {
    const now = Date.now();
    for (const [id, at] of this.earlyStops) if (now - at > 60_000) this.earlyStops.delete(id);
    if (Number.isSafeInteger(messageId)) this.earlyStops.set(messageId, now);
  }

  /** Stops an answer wherever it is written. */
  async stop(messageId: number): Promise<void> {
    if (await this.stopHere(messageId)) return;
    await notifyStop(this.getCtx().db, STOP_CHANNEL, messageId);
  }

  /**
   * Waits until the answers this process is writing have ended by themselves, at most `ms`
   * (a server being redeployed lets them finish while the proxy sends new work elsewhere).
   * Answers whether none is left.
   */
  async drain(ms: number): Promise<boolean> {
    const end = Date.now() + ms;
    while (this.runs.size > 0 && Date.now() < end) {
      const pending = [...this.runs.values()].map((r) => r.outcome);
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([Promise.allSettled(pending), new Promise((r) => (timer = setTimeout(r, Math.max(0, end - Date.now()))))]);
      clearTimeout(timer);
    }
    return this.runs.size === 0;
  }

  /** Stops every answer of this process (the server is stopping) and waits for them to be stored. */
  async stopAll(): Promise<void> {
    const runs = [...this.runs.values()];
    for (const run of runs) run.controller.abort(new Error('the server is stopping'));
    await Promise.allSettled(runs.map((r) => r.outcome));
  }

  private async write(run: ChatRun): Promise<AnswerOutcome> {
    const ctx = this.getCtx();
    const { plan } = run;
    let usage: TokenUsage | null = null;
    let finish: FinishReason | null = null;
    let saved = '';
    let savedAt = Date.now();
    let saving: Promise<void> | null = null;
    const timer = setInterval(() => {
      // One save at a time: a slow database skips ticks rather than queueing copies of the text.
      if (saving || (run.text === saved && Date.now() - savedAt < ALIVE_EVERY_MS)) return;
      const text = run.text;
      saving = saveProgress(ctx.db, plan.messageId, storable(text))
        .then(() => {
          saved = text;
          savedAt = Date.now();
        })
        .catch((err: unknown) => ctx.log.warn({ err, messageId: plan.messageId }, 'could not save a chat answer in progress'))
        .finally(() => {
          saving = null;
        });
    }, SAVE_EVERY_MS);
    timer.unref();
    const settled = async () => {
      clearInterval(timer);
      await saving;
    };
    try {
      const provider = ctx.providers.chat(plan.connection);
      for await (const event of provider.streamChat({ ...plan.request, signal: run.controller.signal })) {
        if (event.type === 'delta') run.append(event.text);
        else if (event.type === 'usage') usage = { inputTokens: event.inputTokens, outputTokens: event.outputTokens };
        else finish = event.finishReason;
      }
    } catch (err) {
      await settled();
      if (err instanceof ProviderError) ctx.log.warn({ err, messageId: plan.messageId, kind: err.kind }, 'chat provider failed');
      else ctx.log.error({ err, messageId: plan.messageId }, 'chat answer failed');
      const reason = storable(firstChars(err instanceof Error ? err.message : String(err), 2000));
      await this.closeOrLeave(run, { text: storable(run.text), status: 'failed', words: 0, input_tokens: null, output_tokens: null, error: reason });
      return { status: 'failed', text: run.text, error: new AppError('AI_REQUEST_FAILED') };
    }
    await settled();
    // The provider says whether it ended because of the stop: a stop racing the natural end keeps the whole answer `done`.
    const stopped = finish === 'aborted' || (finish === null && run.controller.signal.aborted);
    // The provider received and read the whole prompt, even when the answer was stopped before
    // its first word: its count of it when it gave one (checked), the estimate otherwise; the
    // same for the text written.
    const tokens = (usage?.inputTokens ?? plan.inputTokens) + (usage?.outputTokens ?? (run.written === '' ? 0 : outputTokensEstimate(plan.protocol, run.written)));
    const words = plan.hold ? Math.min(wordsFor(tokens, plan.rate), plan.hold.amount) : 0;
    const status = stopped ? 'stopped' : 'done';
    const closed = await this.closeOrLeave(run, { text: storable(run.text), status, words, input_tokens: usage?.inputTokens ?? null, output_tokens: usage?.outputTokens ?? null, error: null });
    if (!closed) return { status: 'failed', text: run.text, error: new AppError('AI_REQUEST_FAILED') };
    return { status, text: run.text, words: closed.words, balances: closed.balances };
  }

  /**
   * Closes the answer, trying twice; when the database refuses both, the answer stays
   * `generating` with its hold and the abandoned-answer job closes it (charged for its saved text).
   * Answers the words recorded and the balances, or null.
   */
  private async closeOrLeave(run: ChatRun, end: Omit<ChatCloseParams, 'message_id' | 'user_id'>): Promise<{ words: number; balances: RawBalances } | null> {
    const ctx = this.getCtx();
    for (let attempt = 1; attempt <= 2; attempt++) {
      try {
        const result = await this.close(run, end);
        return { words: result.words ?? end.words, balances: result.balances };
      } catch (err) {
        ctx.log.error({ err, messageId: run.plan.messageId, attempt }, 'could not close a chat answer');
      }
    }
    return null;
  }

  /**
   * Stores how the answer ended and settles its hold (what was charged stays spent, the rest goes
   * back; all of it for a failure), in one statement. Closed already (the abandoned-answer job was
   * faster): its settle stands.
   */
  private close(run: ChatRun, end: Omit<ChatCloseParams, 'message_id' | 'user_id'>): Promise<{ closed: boolean; words: number | null; balances: RawBalances }> {
    return chatClose(this.getCtx().db, { ...end, message_id: run.plan.messageId, user_id: run.plan.userId });
  }
}
