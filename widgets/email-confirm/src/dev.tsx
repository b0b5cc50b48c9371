import { mount } from './mount.tsx';

mount(document.getElementById('root') as HTMLElement, { email: 'anna@example.ru', supportUrl: 'mailto:support@neurostudio.local' });
