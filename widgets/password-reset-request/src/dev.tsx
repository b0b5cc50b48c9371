import { mount } from './mount.tsx';

mount(document.getElementById('root') as HTMLElement, { email: new URLSearchParams(location.search).get('email') ?? '' });
