import { mount } from './mount.tsx';

mount(document.getElementById('root') as HTMLElement, {});
