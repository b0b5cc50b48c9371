import { isDeepStrictEqual } from 'node:util';
import type { AdminDeleteResult } from '@app/contracts';
import type { AppContext } from '../../context.ts';
import type { Tx } from '../../db/database.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Viewer } from '../accounts/viewer.ts';
import { deactivateRow } from './admin-ai.queries.ts';
import { recordAudit } from './audit.queries.ts';

/* What every edit of the admin's AI catalogue shares: list queries, field errors, audited writes. */

/** A list's page, search and sort, as `adminListQuery` parses them. */
export interface ListQuery<S extends string> {
  q: string;
  sort: S;
  dir: 'asc' | 'desc';
  page: number;
}

export const iso = (d: Date) => d.toISOString();

/** Field errors gathered from several checks, thrown together (the editor shows each beside its field). */
export class FieldErrors {
  private readonly errors: Record<string, string[]> = {};

  add(field: string, message: string): void {
    (this.errors[field] ??= []).push(message);
  }

  throwIfAny(): void {
    if (Object.keys(this.errors).length) throw new AppError('VALIDATION', this.errors);
  }
}

/** The keys of a partial change that were given (an update never writes `undefined`). */
export function defined<T extends object>(change: T): Partial<T> {
  return Object.fromEntries(Object.entries(change).filter((e) => e[1] !== undefined)) as Partial<T>;
}

type Verb = 'create' | 'update' | 'delete' | 'deactivate' | 'example';

/** The audit record of something done to one record of `entity` (`ai_product`, `provider`…): `<entity>.<verb>`, before and after. */
export const audit = (tx: Tx, actor: Viewer, entity: string, id: number, verb: Verb, before: unknown, after: unknown) =>
  recordAudit(tx, { actorId: actor.id, action: `${entity}.${verb}`, entity, entityId: id, before, after });

/** Writes a change with its audit record, only when it changes something (saving the same values writes nothing). */
export async function applyChange<S>(tx: Tx, actor: Viewer, entity: string, id: number, before: S, after: S, write: () => Promise<unknown>): Promise<void> {
  if (isDeepStrictEqual(before, after)) return;
  await write();
  await audit(tx, actor, entity, id, 'update', before, after);
}

/** Switches off a product or model that history refers to, instead of deleting it (already off: nothing to do). */
export async function switchOff(tx: Tx, actor: Viewer, table: 'ai_products' | 'ai_models', entity: string, row: { id: number; active: boolean }): Promise<AdminDeleteResult> {
  if (row.active) {
    await deactivateRow(tx, table, row.id);
    await audit(tx, actor, entity, row.id, 'deactivate', { active: true }, { active: false });
  }
  return { outcome: 'deactivated' };
}

/** Removes a blob whose row is gone (a replaced or deleted example); a failure is logged, not the admin's problem. */
export async function removeBlob(ctx: AppContext, key: string | undefined): Promise<void> {
  if (!key) return;
  await ctx.storage.delete(key).catch((err: unknown) => ctx.log.warn({ err, key }, 'could not delete a blob whose file row is gone'));
}
