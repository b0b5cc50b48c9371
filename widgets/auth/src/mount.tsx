import { widgetProps } from '@app/contracts/browser';
import { createMount } from '@app/kit';
import { AuthForm } from './AuthForm.tsx';

/** Sign-in and registration forms; props: `{mode: 'login' | 'register', redirectTo}`. */
export const mount = createMount(widgetProps.auth, AuthForm);
