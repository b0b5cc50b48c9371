import type { ReactNode } from 'react';
import { EmailText } from '@app/kit';
import { routedClick } from '@app/kit/routing';
import { when } from '../texts.ts';

/** A user's email linking to their screen in «Пользователи» (a narrow column breaks it before the @). */
export function UserLink({ user, navigate }: { user: { user_id: number; email: string }; navigate: (href: string) => void }) {
  const href = `/admin/users/${String(user.user_id)}`;
  return (
    <a className="admin-email" href={href} onClick={routedClick(navigate, href)}>
      <EmailText email={user.email} />
    </a>
  );
}

/** A moment on two lines, the day over the time (a narrow column), with `extra` after the time. */
export function Stamp({ iso, extra }: { iso: string; extra?: ReactNode }) {
  const [day, time] = when(iso).split(', ');
  return (
    <span className="admin-stamp">
      <span>{day}</span>
      <span className="admin-stamp__time">
        {time}
        {extra}
      </span>
    </span>
  );
}
