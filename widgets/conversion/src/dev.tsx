import { mount } from './mount.tsx';

mount(document.getElementById('root') as HTMLElement, { payments: new URLSearchParams(location.search).get('payments') === '1' ? 1 : 0 });
