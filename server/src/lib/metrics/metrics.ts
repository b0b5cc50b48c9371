import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { databaseGauges, type DatabaseGaugeSources } from './database-gauges.ts';
import { serveMetrics, type MetricsServer } from './metrics-server.ts';
import { providerErrorKind } from './provider-calls.ts';

/** Seconds: from a fast API read to a slow page; SSE streams and long runs land in +Inf. */
const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Seconds of provider calls and first tokens: a short chat answer to a long image or clip. */
const PROVIDER_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];
/** Seconds of a run from its start to its end, a picture in seconds to a clip in minutes. */
const RUN_BUCKETS = [1, 2.5, 5, 10, 20, 30, 60, 120, 300, 600, 1800];
/** Seconds of a background job. */
const JOB_BUCKETS = [0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 300];

/** How a CloudPayments notification was answered. */
export type NotificationOutcome = 'accepted' | 'duplicate' | 'refused' | 'invalid_signature' | 'unreadable';

/** What the metrics read of a chat answer that ended (`ChatRun` and its outcome). */
export interface EndedAnswer {
  plan: { modelName: string };
  /** `performance.now()` at its start and at its first words (null: none came). */
  startedAt: number;
  firstDeltaAt: number | null;
}

/**
 * The service's figures in Prometheus' terms, one registry per application context (so tests
 * that build many apps in one process never mix them): HTTP requests, chat answers, provider
 * calls, generation runs, payments, refunds and CloudPayments' notifications, mail, jobs, and the
 * gauges read from the database and the pool on scrape (`database-gauges.ts`). Labels are only
 * what has few values — route patterns, models, products' variants, providers, wallets, kinds and
 * outcomes — never a user, an id or a URL. Recording is a counter or histogram update in memory.
 */
export class Metrics {
  readonly registry = new Registry();
  /** HTTP requests this process is answering now (hooks in `http-metrics.ts`). */
  inFlight = 0;
  private readonly streamSources = new Set<() => number>();
  private server: MetricsServer | null = null;

  readonly httpDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP requests by route pattern (never the raw URL), method and status: time to the end of the reply; a client gone before the reply is status 499.',
    labelNames: ['route', 'method', 'status'] as const,
    buckets: HTTP_BUCKETS,
    registers: [this.registry],
  });

  private readonly chatAnswers = this.counter('neurostudio_chat_answers_total', 'Chat answers ended, by model and outcome (done, stopped, failed).', ['model', 'outcome']);
  private readonly chatWords = this.counter('neurostudio_chat_words_total', 'Words charged for chat answers, by model.', ['model']);
  private readonly chatFirstToken = this.histogram('neurostudio_chat_first_token_seconds', "Seconds from a chat answer's start to its first words, by model.", ['model'], PROVIDER_BUCKETS);
  private readonly providerDuration = this.histogram('neurostudio_provider_request_duration_seconds', 'Calls to AI providers by provider connection and operation, failed ones included: seconds to their end (a chat stream: to its last word).', ['provider', 'operation'], PROVIDER_BUCKETS);
  private readonly providerErrors = this.counter(
    'neurostudio_provider_errors_total',
    'Failed calls to AI providers by connection, operation and kind: rate_limited (429), server_error (5xx), unreachable, unavailable (another refusal to serve, e.g. 402), timeout, refused (the provider or the network rules refused the request), auth, invalid_response, misconfigured, other.',
    ['provider', 'operation', 'kind'],
  );
  private readonly runs = this.counter('neurostudio_generation_runs_total', "Generation runs ended, by the product's variant and outcome (succeeded, failed, cancelled).", ['variant', 'outcome']);
  private readonly runDuration = this.histogram('neurostudio_generation_run_duration_seconds', "Seconds from a run's start (queued) to its end, by the product's variant and outcome.", ['variant', 'outcome'], RUN_BUCKETS);
  private readonly payments = this.counter('neurostudio_payments_total', 'Payments by kind (checkout: a plan or package bought in the payment form; renewal: a plan charged again) and outcome (paid, declined), as CloudPayments notified them.', ['kind', 'outcome']);
  private readonly paymentRoubles = this.counter('neurostudio_payments_roubles_total', 'Roubles of the payments counted by neurostudio_payments_total.', ['kind', 'outcome']);
  private readonly refunds = this.counter(
    'neurostudio_refunds_total',
    'Refunds by kind and outcome: refund and cancel notifications of CloudPayments applied (outcome applied); refunds the service asked CloudPayments for, by an admin (admin) or for a second trial (second_trial), sent or failed for good.',
    ['kind', 'outcome'],
  );
  private readonly refundRoubles = this.counter('neurostudio_refunds_roubles_total', 'Roubles of the refunds counted by neurostudio_refunds_total.', ['kind', 'outcome']);
  private readonly notifications = this.counter(
    'neurostudio_payment_notifications_total',
    "CloudPayments' notifications (the sandbox's too) by kind and outcome: accepted, duplicate (handled before), refused (a code other than 0), invalid_signature, unreadable.",
    ['kind', 'outcome'],
  );
  private readonly mail = this.counter('neurostudio_mail_messages_total', 'Mail messages by outcome: sent, failed (an attempt; the job retries).', ['outcome']);
  private readonly jobs = this.counter('neurostudio_jobs_total', 'Background jobs run by this process, by queue and outcome: completed, retry (failed, to be tried again), failed (for good).', ['queue', 'outcome']);
  private readonly jobDuration = this.histogram('neurostudio_job_duration_seconds', 'Seconds of background jobs by queue.', ['queue'], JOB_BUCKETS);

  constructor(sources: DatabaseGaugeSources) {
    const inFlight: Gauge = new Gauge({
      name: 'http_requests_in_flight',
      help: 'HTTP requests this process is answering now (open event streams included).',
      registers: [this.registry],
      collect: () => inFlight.set(this.inFlight),
    });
    const streams: Gauge = new Gauge({
      name: 'http_sse_streams_open',
      help: 'Server-Sent Event streams open in this process (chat answers, generation progress).',
      registers: [this.registry],
      collect: () => streams.set([...this.streamSources].reduce((sum, count) => sum + count(), 0)),
    });
    databaseGauges(this.registry, sources);
    // Series that alerts compare exist from the start, at zero, so a first event is an increase.
    for (const outcome of ['paid', 'declined']) for (const kind of ['checkout', 'renewal']) this.payments.labels(kind, outcome).inc(0);
    for (const outcome of ['sent', 'failed']) this.mail.labels(outcome).inc(0);
  }

  private counter<L extends string>(name: string, help: string, labelNames: readonly L[]): Counter<L> {
    return new Counter({ name, help, labelNames, registers: [this.registry] });
  }

  private histogram<L extends string>(name: string, help: string, labelNames: readonly L[], buckets: number[]): Histogram<L> {
    return new Histogram({ name, help, labelNames, buckets, registers: [this.registry] });
  }

  /** Counts the open event streams `count` answers on every scrape, until the returned function is called. */
  watchStreams(count: () => number): () => void {
    this.streamSources.add(count);
    return () => this.streamSources.delete(count);
  }

  /** An answer ended: counted by model and outcome, with the words charged and the seconds to its first words. */
  chatAnswer(answer: EndedAnswer, outcome: { status: 'done' | 'stopped' | 'failed'; words?: number }): void {
    const model = answer.plan.modelName;
    this.chatAnswers.labels(model, outcome.status).inc();
    if (outcome.words) this.chatWords.labels(model).inc(outcome.words);
    if (answer.firstDeltaAt !== null) this.chatFirstToken.labels(model).observe((answer.firstDeltaAt - answer.startedAt) / 1000);
  }

  /** A provider call ended after `seconds`, failed with `err` (an abort by the caller is no failure). */
  providerCall(provider: string, operation: string, seconds: number, err?: unknown): void {
    this.providerDuration.labels(provider, operation).observe(seconds);
    const kind = err === undefined ? null : providerErrorKind(err);
    if (kind) this.providerErrors.labels(provider, operation, kind).inc();
  }

  /** A run ended (this call ended it, after its transaction committed). */
  runEnded(run: { variant: string; created_at: Date }, outcome: 'succeeded' | 'failed' | 'cancelled'): void {
    this.runs.labels(run.variant, outcome).inc();
    this.runDuration.labels(run.variant, outcome).observe(Math.max(0, (Date.now() - run.created_at.getTime()) / 1000));
  }

  /**
   * A CloudPayments notification was answered. An accepted Pay or Fail is a payment paid or
   * declined, an accepted Refund or Cancel a refund applied, counted with its amount in roubles
   * (other currencies are counted, their amounts not).
   */
  paymentNotification(kind: string, outcome: NotificationOutcome, fields?: Record<string, unknown>): void {
    this.notifications.labels(kind, outcome).inc();
    if (outcome !== 'accepted' || !fields) return;
    const roubles = Number(fields.Amount);
    const inRoubles = Number.isFinite(roubles) && roubles > 0 && (fields.Currency === undefined || fields.Currency === 'RUB');
    if (kind === 'pay' || kind === 'fail') {
      // A renewal is charged by CloudPayments' subscription, without an invoice of ours.
      const labels = [fields.InvoiceId ? 'checkout' : 'renewal', kind === 'pay' ? 'paid' : 'declined'] as const;
      this.payments.labels(...labels).inc();
      if (inRoubles) this.paymentRoubles.labels(...labels).inc(roubles);
    } else if (kind === 'refund' || kind === 'cancel') {
      this.refunds.labels(kind, 'applied').inc();
      if (inRoubles) this.refundRoubles.labels(kind, 'applied').inc(roubles);
    }
  }

  /** A refund the service asked CloudPayments for was sent, or failed for good. */
  refundRequest(kind: 'admin' | 'second_trial', outcome: 'sent' | 'failed', kopecks: number): void {
    this.refunds.labels(kind, outcome).inc();
    this.refundRoubles.labels(kind, outcome).inc(kopecks / 100);
  }

  /** Counts a message as sent or failed as `sending` settles (and passes its result on). */
  async countMail(sending: Promise<void>): Promise<void> {
    try {
      await sending;
      this.mail.labels('sent').inc();
    } catch (err) {
      this.mail.labels('failed').inc();
      throw err;
    }
  }

  jobEnded(queue: string, outcome: 'completed' | 'retry' | 'failed', seconds: number): void {
    this.jobs.labels(queue, outcome).inc();
    this.jobDuration.labels(queue).observe(seconds);
  }

  /** Serves `/metrics` on its own listener (METRICS_PORT); answers its port. */
  async listen(host: string, port: number, log: { warn(obj: object, msg: string): void }): Promise<number> {
    this.server ??= await serveMetrics(this.registry, { host, port, log });
    return this.server.port;
  }

  /** The port `/metrics` is served on (null until `listen`). */
  get port(): number | null {
    return this.server?.port ?? null;
  }

  async close(): Promise<void> {
    await this.server?.close();
    this.server = null;
  }
}
