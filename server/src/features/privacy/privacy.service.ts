import { LEGAL_PAGES, type AdminLegal, type LegalDocument, type LegalKind, type UserExport } from '@app/contracts';
import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/database.ts';
import { AppError } from '../../lib/app-error.ts';
import { recordAudit } from '../admin/audit.queries.ts';
import { currentLegal, insertLegalVersion, legalVersions, userData } from './privacy.queries.ts';

export async function legalDocument(db: Executor, kind: LegalKind): Promise<LegalDocument> {
  const doc = await currentLegal(db, kind);
  return { kind, title: LEGAL_PAGES[kind].title, version: doc.version, body: doc.body, published_at: doc.created_at.toISOString() };
}

export async function adminLegal(db: Executor, kind: LegalKind): Promise<AdminLegal> {
  const [current, versions] = await Promise.all([legalDocument(db, kind), legalVersions(db, kind)]);
  return { current, versions: versions.map((v) => ({ version: v.version, published_at: v.created_at.toISOString(), author: v.author })) };
}

/** Publishes a new version of the policy or the offer; its page shows it at once. Audit-logged. */
export async function publishLegal(ctx: AppContext, actorId: number, kind: LegalKind, body: string): Promise<AdminLegal> {
  await ctx.db.transaction().execute(async (tx) => {
    const before = await currentLegal(tx, kind);
    const version = await insertLegalVersion(tx, kind, body, actorId);
    await recordAudit(tx, { actorId, action: 'legal.publish', entity: 'legal', entityId: kind, before: { version: before.version }, after: { version } });
  });
  return adminLegal(ctx.db, kind);
}

/** Dates as ISO strings, everything else as stored. */
const plain = (rows: unknown): Record<string, unknown>[] => JSON.parse(JSON.stringify(rows)) as Record<string, unknown>[];

/** One user's data as JSON for a request under 152-ФЗ; the export itself is written to the audit log. */
export async function exportUser(ctx: AppContext, actorId: number, userId: number): Promise<UserExport> {
  const data = await userData(ctx.db, userId);
  if (!data) throw new AppError('NOT_FOUND');
  const parts = Object.fromEntries(Object.entries(data.parts).map(([name, rows]) => [name, plain(rows)]));
  await ctx.db.transaction().execute((tx) =>
    recordAudit(tx, { actorId, action: 'user.export', entity: 'user', entityId: userId, before: null, after: Object.fromEntries(Object.entries(parts).map(([name, rows]) => [name, rows.length])) }),
  );
  return { exported_at: new Date().toISOString(), user: plain(data.user) as unknown as Record<string, unknown>, parts };
}
