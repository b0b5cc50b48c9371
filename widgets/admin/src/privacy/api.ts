import { privacyEndpoints } from '@app/contracts/privacy';
import { routeCall } from '@app/kit';

/** The personal-data calls of the panel: the policy and the offer (in «Настройки»), one user's data export. */
export const privacyAdminApi = {
  /** GET /api/admin/legal/:kind: the version in force and the earlier ones. */
  legal: routeCall(privacyEndpoints.adminLegal),
  /** POST /api/admin/legal/:kind {body}: publishes the next version. */
  publishLegal: routeCall(privacyEndpoints.adminPublishLegal),
  /** GET /api/admin/users/:id/export: everything stored about one user (audit-logged). */
  exportUser: routeCall(privacyEndpoints.adminExportUser),
};
