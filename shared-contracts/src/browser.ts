/**
 * The contracts as the browser gets them (`@app/contracts/browser`): endpoints typed by their
 * contracts, the schemas the browser parses (widget props and forms, in zod/mini), error codes,
 * constants and texts. Every page loads this entry: the generation catalogue's browser parts
 * (`catalog.browser.ts`, `generation.browser.ts`) stay out of it, for the pages that use them
 * to load on their own (`@app/contracts/generation`, a lazy host module). Every module here imports only zod/mini and other browser modules:
 * reply schemas stay on the server, which validates and serializes through them.
 */
import type { accountRoutes } from './accounts.contract.ts';
import type { billingRoutes } from './billing.contract.ts';
import type { chatRoutes } from './chat.contract.ts';
import type { dashboardRoutes } from './dashboard.contract.ts';
import { accountPaths } from './accounts.browser.ts';
import { billingPaths } from './billing.browser.ts';
import { chatPaths } from './chat.browser.ts';
import { dashboardPaths } from './dashboard.browser.ts';
import { clientRoutes } from './route.ts';

export * from './client-errors.ts';
export type { ErrorCode } from './errors.ts';
export * from './route.ts';
export * from './fields.ts';
export * from './accounts.browser.ts';
export * from './billing.browser.ts';
export * from './dashboard.browser.ts';
export * from './chat.browser.ts';
export * from './widgets.contract.ts';
export type { Role, Balances, User, AuthResult, SignInChallenge, SecondFactorSetup } from './accounts.contract.ts';
export type { Tariff, SubscribeCheck, PaymentStart, PaymentStatus, SubscriptionRecord, PackagePurchase, AutoCharge, UserSubscriptionStatus } from './billing.contract.ts';
export type { ChatEstimate, ChatMessage, ChatModel, ChatListItem, ChatSearchHit, ChatSendResult, ChatSummaryResult } from './chat.contract.ts';
export type { DashboardCard, WelcomeState } from './dashboard.contract.ts';
export type { Receipt, WidgetOptions, NotificationKind } from './cloudpayments.protocol.ts';
export type { ErrorText, ErrorEnvelope } from './envelope.ts';

export const accountEndpoints = clientRoutes<typeof accountRoutes>(accountPaths);
export const billingEndpoints = clientRoutes<typeof billingRoutes>(billingPaths);
export const dashboardEndpoints = clientRoutes<typeof dashboardRoutes>(dashboardPaths);
export const chatEndpoints = clientRoutes<typeof chatRoutes>(chatPaths);
