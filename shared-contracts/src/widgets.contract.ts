import * as z from 'zod/mini';
import './zod-messages.ts';

/*
 * Widget props are parsed in the browser (each widget's `mount` checks its props), so these
 * schemas are written with zod/mini: the browser bundles only what they use.
 */

const withDefault = <T extends z.ZodMiniType>(schema: T, value: z.output<T>) => z._default(schema, value as never);

/** Props each widget's `mount(el, props)` accepts; pages pass them in `data-props`. */
export const widgetProps = {
  auth: z.object({ mode: z.enum(['login', 'register']), redirectTo: withDefault(z.string().check(z.startsWith('/')), '/dashboard') }),
  'email-confirm': z.object({ email: z.string(), supportUrl: z.string() }),
  /** The account's settings: which mail notices come, and the deletion of the account. */
  'account-settings': z.object({ email: z.string(), plansUrl: withDefault(z.string().check(z.startsWith('/')), '/dashboard/user/payment') }),
  'password-reset-request': z.object({ email: withDefault(z.string(), '') }),
  /**
   * The new-password form: of a mailed reset link (`token`, `email`), or the change of a signed-in
   * account's password (`mode: 'change'`; `temporary` when a temporary password must be changed
   * before anything else, `staff` when an account just made staff must set a new one first; then
   * `next` opens).
   */
  'password-reset-form': z.union([
    z.object({ token: z.string(), email: z.string() }),
    z.object({ mode: z.literal('change'), email: z.string(), temporary: z.boolean(), staff: withDefault(z.boolean(), false), next: withDefault(z.string().check(z.startsWith('/')), '/dashboard') }),
  ]),
  /** The enrolment of staff's second factor (setup step `second_factor`); then `next` opens. */
  'second-factor': z.object({ email: z.string(), next: withDefault(z.string().check(z.startsWith('/')), '/admin') }),
  tariffs: z.object({
    frontend: withDefault(z.boolean(), false),
    /** URL of the payment widget script (CloudPayments' own, or the sandbox stand-in). */
    paymentScriptUrl: z.string(),
    sandbox: z.boolean(),
    /** No payment can be made now (the sandbox is switched off and no CloudPayments is configured). */
    paymentsOff: withDefault(z.boolean(), false),
  }),
  'order-history': z.object({}),
  /** The balance history at /dashboard/balance. */
  'balance-history': z.object({}),
  /** The dashboard: where the plans page is (its packages with a current plan). */
  dashboard: z.object({ paymentUrl: withDefault(z.string(), '/dashboard/user/payment') }),
  'history-button': z.object({ href: withDefault(z.string(), '/dashboard/user/orders'), label: withDefault(z.string(), 'История заказов') }),
  conversion: z.object({ payments: z.number().check(z.int()) }),
  'welcome-notice': z.object({}),
  /** The AI chat at /chat: where the too-few-words screen sends the user. */
  chat: z.object({
    plansUrl: withDefault(z.string(), '/dashboard/user/payment'),
    packagesUrl: withDefault(z.string(), '/dashboard/user/payment#packages'),
  }),
  /**
   * The generation catalogue at /ai-products and its screens /ai-products/{variant}/{id} (one
   * widget, routed on the client): where the too-few-tokens screen and the results send the user.
   */
  'ai-products': z.object({
    plansUrl: withDefault(z.string(), '/dashboard/user/payment'),
    packagesUrl: withDefault(z.string(), '/dashboard/user/payment#packages'),
    historyUrl: withDefault(z.string(), '/ai-history'),
    videoHistoryUrl: withDefault(z.string(), '/ai-history-video'),
  }),
  /** The history of runs: `image` at /ai-history (with its «Тексты» tab), `video` at /ai-history-video. */
  'ai-history': z.object({
    type: z.enum(['image', 'video']),
    productsUrl: withDefault(z.string(), '/ai-products'),
  }),
  /** The admin panel at /admin, /admin/... and /dashboard/admin_vue (one widget, routed on the client). */
  admin: z.object({}),
  /** The sandbox's stand-in for the CloudPayments payment form (opened in a frame by /sandbox/cloudpayments.js). */
  'sandbox-checkout': z.object({
    payment_id: z.number().check(z.int()),
    amount: z.number(),
    description: z.string(),
    email: z.string(),
    recurrent: z.boolean(),
  }),
} as const;

/** Messages the sandbox checkout frame posts to the page that opened it. */
export const SandboxCheckoutMessageSchema = z.object({
  type: z.literal('sandbox-cloudpayments'),
  status: z.enum(['success', 'fail', 'close']),
  reason: z.nullable(z.string()),
  transaction_id: z.nullable(z.number().check(z.int())),
});
export type SandboxCheckoutMessage = z.infer<typeof SandboxCheckoutMessageSchema>;

export type WidgetName = keyof typeof widgetProps;
export type WidgetProps<N extends WidgetName> = z.output<(typeof widgetProps)[N]>;
export type WidgetPropsInput<N extends WidgetName> = z.input<(typeof widgetProps)[N]>;
export const WIDGET_NAMES = Object.keys(widgetProps) as WidgetName[];
