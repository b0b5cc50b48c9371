import { mount } from './mount.tsx';

mount(document.getElementById('root') as HTMLElement, { payment_id: 1, amount: 990, description: 'Нейростудия: подписка «Стандарт»', email: 'anna@example.ru', recurrent: true });
