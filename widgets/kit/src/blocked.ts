/*
 * An account blocked while its page is open: the first call that the server refuses with
 * ACCOUNT_BLOCKED covers the page with a notice (once a page, whichever widget asked), so the
 * person learns why nothing works instead of a widget's error here and there.
 */

const NOTICE_ID = 'account-blocked';

/** Covers the page with «Аккаунт заблокирован»: the way to support (the footer's link) and «Выйти». */
export function showAccountBlocked(): void {
  if (typeof document === 'undefined' || document.getElementById(NOTICE_ID)) return;
  const support = document.querySelector<HTMLAnchorElement>('.site-footer a')?.getAttribute('href') ?? null;
  const screen = document.createElement('div');
  screen.id = NOTICE_ID;
  screen.className = 'overlay-screen account-blocked';
  const card = document.createElement('div');
  card.className = 'card error-page';
  card.setAttribute('role', 'alertdialog');
  card.setAttribute('aria-modal', 'true');
  card.setAttribute('aria-labelledby', `${NOTICE_ID}-title`);
  card.setAttribute('aria-describedby', `${NOTICE_ID}-text`);
  const title = document.createElement('h1');
  title.id = `${NOTICE_ID}-title`;
  title.tabIndex = -1;
  title.textContent = 'Аккаунт заблокирован';
  const text = document.createElement('p');
  text.id = `${NOTICE_ID}-text`;
  text.textContent = 'Администратор заблокировал этот аккаунт, пользоваться им сейчас нельзя. Если это ошибка, напишите в поддержку — мы разберёмся.';
  const actions = document.createElement('div');
  actions.className = 'error-page__actions';
  const link = (label: string, href: string, kind: string) => {
    const a = document.createElement('a');
    a.className = `btn ${kind}`;
    a.href = href;
    a.textContent = label;
    return a;
  };
  if (support) actions.append(link('Написать в поддержку', support, 'btn-primary'));
  actions.append(link('Выйти', '/logout', support ? 'btn-secondary' : 'btn-primary'));
  card.append(title, text, actions);
  screen.append(card);
  document.body.append(screen);
  title.focus();
}
