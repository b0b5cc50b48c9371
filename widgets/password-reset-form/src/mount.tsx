import { widgetProps, type WidgetProps } from '@app/contracts/browser';
import { createMount } from '@app/kit';
import { ChangePasswordForm } from './ChangePasswordForm.tsx';
import { ResetPasswordForm } from './ResetPasswordForm.tsx';

/** The form its props ask for: a mailed reset link's (`{token, email}`) or the change of a signed-in account's password (`{mode: 'change', …}`). */
function PasswordForm(props: WidgetProps<'password-reset-form'>) {
  return 'mode' in props ? <ChangePasswordForm email={props.email} temporary={props.temporary} staff={props.staff} next={props.next} /> : <ResetPasswordForm token={props.token} email={props.email} />;
}

/** The new-password form of a mailed reset link (`{token, email}` from the link), or the password change (`/password/change`). */
export const mount = createMount(widgetProps['password-reset-form'], PasswordForm);
