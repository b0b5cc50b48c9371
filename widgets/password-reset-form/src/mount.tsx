import { widgetProps } from '@app/contracts/browser';
import { createMount } from '@app/kit';
import { ResetPasswordForm } from './ResetPasswordForm.tsx';

/** The new-password form of a mailed reset link; props: `{token, email}` from the link. */
export const mount = createMount(widgetProps['password-reset-form'], ResetPasswordForm);
