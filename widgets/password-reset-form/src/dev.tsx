import { mount } from './mount.tsx';

const query = new URLSearchParams(location.search);
mount(document.getElementById('root') as HTMLElement, { token: query.get('token') ?? 'dev-token', email: query.get('email') ?? 'anna@example.ru' });
