import type { AppContext } from '../../context.ts';
import { AppError } from '../../lib/app-error.ts';
import { ProviderError, type ChatRequest, type TokenUsage } from '../../providers/types.ts';
import type { ConnectionRef } from '../../providers/registry.ts';
import type { ProviderProtocol } from '../ai/ai.table.ts';
import type { HoldRef, RawBalances } from '../wallet/wallet.queries.ts';
import { outputTokensEstimate, wordsFor } from './chat-pricing.ts';
import { chatClose, saveProgress, type ChatCloseParams } from './chat.queries.ts';

/** NOTIFY channel of stop requests: the payload is the answer's message id. */
export const STOP_CHANNEL = 'ns_chat_stop';
/** How often a growing answer's text is saved (a reload shows it as far as it went). */
const SAVE_EVERY_MS = 1000;
/** An answer saves at least this often even without new text, so it is not taken for abandoned. */
export const ALIVE_EVERY_MS = 30_000;

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
  /** The input tokens the hold assumed: the charge's input part when the provider reports no usage. */
  inputTokens: number;
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
  private readonly listeners = new Set<(delta: string) => void>();
  outcome!: Promise<AnswerOutcome>;

  constructor(readonly plan: AnswerPlan) {}

  /** Calls `fn` with every piece of text from now on; answers the unsubscribe. */
  onDelta(fn: (delta: string) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  append(delta: string): void {
    this.text += delta;
    for (const fn of this.listeners) fn(delta);
  }
}

/**
 * The answers this process is writing. Stop requests reach the process writing the answer
 * through NOTIFY, whichever process received them; a stopping server stops its answers, keeping
 * each as far as it went.
 */
export class ChatRuns {
  private readonly runs = new Map<number, ChatRun>();

  constructor(private readonly getCtx: () => AppContext) {}

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
    run.outcome = this.write(run).finally(() => this.runs.delete(plan.messageId));
    return run;
  }

  get(messageId: number): ChatRun | undefined {
    return this.runs.get(messageId);
  }

  /** Stops an answer written by this process and waits until it is stored; false when it is not here. */
  async stopHere(messageId: number): Promise<boolean> {
    const run = this.runs.get(messageId);
    if (!run) return false;
    run.controller.abort(new Error('stopped by the user'));
    await run.outcome;
    return true;
  }

  /** Stops an answer wherever it is written. */
  async stop(messageId: number): Promise<void> {
    if (await this.stopHere(messageId)) return;
    const ctx = this.getCtx();
    await ctx.db.selectNoFrom((eb) => eb.fn<unknown>('pg_notify', [eb.val(STOP_CHANNEL), eb.val(String(messageId))]).as('sent')).execute();
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
    let saved = '';
    let savedAt = Date.now();
    let saving: Promise<unknown> = Promise.resolve();
    const timer = setInterval(() => {
      if (run.text === saved && Date.now() - savedAt < ALIVE_EVERY_MS) return;
      const text = run.text;
      saving = saving
        .then(() => saveProgress(ctx.db, plan.messageId, text))
        .then(() => {
          saved = text;
          savedAt = Date.now();
        })
        .catch((err: unknown) => ctx.log.warn({ err, messageId: plan.messageId }, 'could not save a chat answer in progress'));
    }, SAVE_EVERY_MS);
    timer.unref();
    try {
      const provider = ctx.providers.chat(plan.connection);
      for await (const event of provider.streamChat({ ...plan.request, signal: run.controller.signal })) {
        if (event.type === 'delta') run.append(event.text);
        else if (event.type === 'usage') usage = { inputTokens: event.inputTokens, outputTokens: event.outputTokens };
      }
      clearInterval(timer);
      await saving;
      const stopped = run.controller.signal.aborted;
      // Nothing generated before the stop: nothing to pay for.
      const tokens = stopped && run.text === '' ? 0 : usage ? usage.inputTokens + usage.outputTokens : plan.inputTokens + outputTokensEstimate(plan.protocol, run.text);
      const charge = wordsFor(tokens, plan.rate);
      const words = plan.hold ? Math.min(charge, plan.hold.amount) : 0;
      const status = stopped ? 'stopped' : 'done';
      const { balances } = await this.close(run, { text: run.text, status, words, input_tokens: usage?.inputTokens ?? null, output_tokens: usage?.outputTokens ?? null, error: null });
      return { status, text: run.text, words, balances };
    } catch (err) {
      clearInterval(timer);
      await saving;
      const reason = err instanceof Error ? err.message : String(err);
      if (err instanceof ProviderError) ctx.log.warn({ err, messageId: plan.messageId, kind: err.kind }, 'chat provider failed');
      else ctx.log.error({ err, messageId: plan.messageId }, 'chat answer failed');
      await this.close(run, { text: run.text, status: 'failed', words: 0, input_tokens: null, output_tokens: null, error: reason.slice(0, 2000) }).catch((closeErr: unknown) =>
        // The answer stays `generating` with its hold: the abandoned-answer job closes it later.
        ctx.log.error({ err: closeErr, messageId: plan.messageId }, 'could not close a failed chat answer'),
      );
      return { status: 'failed', text: run.text, error: new AppError('AI_REQUEST_FAILED') };
    }
  }

  /**
   * Stores how the answer ended and settles its hold (what was charged stays spent, the rest goes
   * back; all of it for a failure), in one statement. Closed already (the abandoned-answer job was
   * faster): its settle stands.
   */
  private close(run: ChatRun, end: Omit<ChatCloseParams, 'message_id' | 'user_id'>): Promise<{ closed: boolean; balances: RawBalances }> {
    return chatClose(this.getCtx().db, { ...end, message_id: run.plan.messageId, user_id: run.plan.userId });
  }
}
