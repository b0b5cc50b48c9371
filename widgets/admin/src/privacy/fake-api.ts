import { LEGAL_PAGES, privacyEndpoints, type LegalKind } from '@app/contracts/privacy';
import { routeCall } from '@app/kit';
import type { privacyAdminApi } from './api.ts';

const legalFixture = (kind: LegalKind, version = 1, body = `${LEGAL_PAGES[kind].title}\n\n1. Общие положения.`) => ({
  current: { kind, title: LEGAL_PAGES[kind].title, version, body, published_at: '2026-11-01T09:00:00.000Z' },
  versions: Array.from({ length: version }, (_, i) => ({ version: version - i, published_at: '2026-11-01T09:00:00.000Z', author: i === version - 1 ? null : 'admin@example.ru' })),
});

/** The personal-data calls answered from fixtures (stories; tests wrap them in mocks). */
export function fakePrivacyAdminApi(): typeof privacyAdminApi {
  return {
    legal: routeCall(privacyEndpoints.adminLegal, (r) => Promise.resolve(legalFixture(r.params.kind))),
    publishLegal: routeCall(privacyEndpoints.adminPublishLegal, (r) => Promise.resolve(legalFixture(r.params.kind, 2, (r.body as { body: string }).body))),
    exportUser: routeCall(privacyEndpoints.adminExportUser, (r) => Promise.resolve({ exported_at: '2026-11-28T10:00:00.000Z', user: { id: r.params.id }, parts: {} })),
  };
}
