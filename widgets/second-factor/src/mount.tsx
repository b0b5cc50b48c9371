import { widgetProps } from '@app/contracts/browser';
import { createMount } from '@app/kit';
import { SecondFactorEnrolment } from './SecondFactorEnrolment.tsx';

/** The enrolment of staff's second factor (`/admin/second-factor`): the app's QR code, the first code, the recovery codes. */
export const mount = createMount(widgetProps['second-factor'], SecondFactorEnrolment);
