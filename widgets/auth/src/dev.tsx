import { mount } from './mount.tsx';

mount(document.getElementById('root') as HTMLElement, { mode: new URLSearchParams(location.search).get('mode') ?? 'login' });
