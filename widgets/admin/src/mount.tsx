import { widgetProps } from '@app/contracts/browser';
import { createMount } from '@app/kit';
import { Admin } from './Admin.tsx';

/** The admin panel at /admin, /admin/... and /dashboard/admin_vue; no props. */
export const mount = createMount(widgetProps.admin, Admin);
