import type { Balances, UserSubscriptionStatus, WelcomeState } from '@app/contracts';
import { BILLING_TEXTS, CHAT_TEXTS } from '@app/contracts/browser';
import { descriptionParts } from '@app/contracts/plan-lines';
import { PRIVACY_TEXTS } from '@app/contracts/privacy';
import { html, raw, type RawHtml } from './html.ts';

/**
 * What a page shows in a widget's place until the widget has drawn itself: the widget's own shape
 * (its classes, its fixed texts, the facts the server already knows), so the space is kept and
 * nothing moves when the widget replaces it. Only the texts that are the same in every state are
 * written here; what the server does not know is a shimmering block of the usual size.
 * `e2e/layout-shift.test.ts` holds the pages to it: nothing moves as their widgets load.
 */

/** What the dashboard's skeletons show, from the page's reads for its widgets (`dashboardFacts` in pages.ts). */
export interface PageFacts {
  balances: Balances;
  subscription: UserSubscriptionStatus;
  /** The welcome notice's state (null: not shown). */
  welcome: WelcomeState | null;
  /** How many news cards the dashboard lists. */
  cards: number;
}

const wordsFormat = new Intl.NumberFormat('ru-RU', { maximumFractionDigits: 0 });
const mediaFormat = new Intl.NumberFormat('ru-RU', { minimumFractionDigits: 1, maximumFractionDigits: 1 });
const plural = (n: number, forms: readonly [string, string, string]) => {
  const a = Math.abs(n) % 100;
  const b = a % 10;
  return a > 10 && a < 20 ? forms[2] : b > 1 && b < 5 ? forms[1] : b === 1 ? forms[0] : forms[2];
};
const WORDS = ['слово', 'слова', 'слов'] as const;

const line = (width?: 'short' | 'half') => html`<div class="skeleton__line${width ? ` sk-line--${width}` : ''}"></div>`;
const block = (kind: string) => html`<div class="sk-block sk-block--${kind}"></div>`;

const WORDS_ICON = raw('<svg class="token-icon token-icon--words" viewBox="0 0 20 20" width="18" height="18" aria-hidden="true"><rect x="1" y="1" width="18" height="18" rx="5" fill="currentColor"></rect><path d="M5.5 7h9M5.5 10h9M5.5 13h5.5" stroke="#fff" stroke-width="1.6" stroke-linecap="round"></path></svg>');
const MEDIA_ICON = raw('<svg class="token-icon token-icon--media" viewBox="0 0 20 20" width="18" height="18" aria-hidden="true"><rect x="1" y="1" width="18" height="18" rx="5" fill="currentColor"></rect><circle cx="7.5" cy="8" r="1.8" fill="#fff"></circle><path d="M4.5 15l4-4 2.5 2.5 2-2 2.5 3.5" stroke="#fff" stroke-width="1.6" fill="none" stroke-linejoin="round"></path></svg>');

/** A form's field: its label and an empty input (the skeleton is inert, nothing can be typed into it). */
const field = (label: string, hint?: string) =>
  html`<div class="field"><span class="field__label">${label}</span><span class="field__input sk-input"></span>${hint ? html`<div class="field__hint">${hint}</div>` : ''}</div>`;
const button = (label: string) => html`<span class="btn btn-primary btn-block"><span class="btn__label">${label}</span></span>`;

/** The registration's consent box (152-ФЗ) with its words: on a phone the longest text of the form. */
const consentField = () =>
  html`<div class="field field--checkbox"><label class="consent"><input type="checkbox" tabindex="-1"><span>${PRIVACY_TEXTS.consent} <a>${PRIVACY_TEXTS.consentLink}</a></span></label></div>`;

/** A list's empty state as the kit's `EmptyState` draws it, its link a button. */
const emptyState = (title: string, text: string, action?: { label: string; kind: 'primary' | 'secondary' }) =>
  html`<div class="empty-state"><p class="empty-state__title">${title}</p><p>${text}</p>${action ? html`<span class="btn btn-${action.kind}">${action.label}</span>` : ''}</div>`;

/** The sign-in and sign-up forms (`widgets/auth`). */
export function authSkeleton(mode: 'login' | 'register'): RawHtml {
  if (mode === 'login') {
    return html`<section class="card auth-card"><h1 class="card__title">Вход</h1><p class="card__subtitle">Войдите, чтобы продолжить работу с нейросетями</p><div class="form">${field('Email')}${field('Пароль')}${button('Войти')}</div><div class="auth-card__footer"><span class="sk-link">Забыли пароль?</span><span>Нет аккаунта? <span class="sk-link">Зарегистрироваться</span></span></div></section>`;
  }
  return html`<section class="card auth-card"><h1 class="card__title">Регистрация</h1><p class="card__subtitle">Создайте аккаунт — код подтверждения придёт на почту</p><div class="form">${field('Email')}${field('Пароль', 'Не короче 8 символов')}${field('Повторите пароль')}${consentField()}${button('Зарегистрироваться')}</div><div class="auth-card__footer"><span>Уже есть аккаунт? <span class="sk-link">Войти</span></span></div></section>`;
}

/** The request of a password reset link (`widgets/password-reset-request`). */
export const resetRequestSkeleton = (): RawHtml =>
  html`<section class="card auth-card"><h1 class="card__title">Восстановление пароля</h1><p class="card__subtitle">Укажите email, с которым вы регистрировались, и мы пришлём ссылку для смены пароля</p><div class="form">${field('Email')}${button('Отправить ссылку')}</div><div class="auth-card__footer"><span>Вспомнили пароль? <span class="sk-link">Войти</span></span></div></section>`;

/** The dashboard's «История заказов» button (`widgets/history-button`). */
export const historyButtonSkeleton = (): RawHtml =>
  html`<span class="btn btn-secondary history-button"><svg class="history-button__icon" viewBox="0 0 20 20" width="18" height="18" aria-hidden="true"><circle cx="10" cy="10" r="7.5" fill="none" stroke="currentColor" stroke-width="1.6"></circle><path d="M10 5.5V10l3 2" fill="none" stroke="currentColor" stroke-width="1.6" stroke-linecap="round"></path></svg>История заказов</span>`;

const gift = (g: WelcomeState['gift']) =>
  html`<span class="welcome__gift"><span class="token-amount">${WORDS_ICON}${wordsFormat.format(g.words)} ${plural(g.words, WORDS)}</span> и <span class="token-amount">${MEDIA_ICON}${mediaFormat.format(g.media)} медиа токена</span></span>`;

/** The welcome notice (`widgets/welcome-notice`) when the server knows it is shown; nothing otherwise. */
export function welcomeSkeleton(welcome: WelcomeState | null): RawHtml | undefined {
  if (!welcome?.visible) return undefined;
  const close = html`<span class="welcome__close"><span aria-hidden="true">×</span></span>`;
  if (welcome.claimed) {
    return html`<section class="card welcome">${close}<h2 class="welcome__title">Спасибо за подписку!</h2><p class="welcome__lead">Подарок начислен на ваш баланс: ${gift(welcome.gift)}. Приятной работы с нейросетями!</p><div class="welcome__actions"><span class="btn btn-secondary">Закрыть</span></div></section>`;
  }
  return html`<section class="card welcome">${close}<p class="welcome__eyebrow">Подарок новым пользователям</p><h2 class="welcome__title">${gift(welcome.gift)} за подписку на наш канал</h2><p class="welcome__lead">Подпишитесь на Telegram-канал с новостями сервиса, и мы бесплатно начислим подарок на ваш баланс.</p>${
    welcome.sandbox ? html`<div class="alert alert-warning">Тестовый режим: подписка проверяется в локальной песочнице, а не в Telegram.</div>` : ''
  }<ol class="welcome__steps"><li>Откройте нашего бота в Telegram: он свяжет ваш аккаунт и пришлёт ссылку на канал.${welcome.linked ? html`<span class="welcome__linked"> Telegram уже привязан.</span>` : ''}</li><li>Подпишитесь на <span class="sk-link">наш канал</span>.</li><li>Вернитесь сюда и нажмите «Я подписался».</li></ol><div class="welcome__actions"><span class="btn btn-secondary">Открыть бота в Telegram</span><span class="btn btn-primary"><span class="btn__label">Я подписался</span></span></div></section>`;
}

const days = (n: number) => `${String(n)} ${plural(n, ['день', 'дня', 'дней'])}`;

/** The subscription block as the dashboard shows it (`SubscriptionSummary`). */
function subscriptionBlock(s: UserSubscriptionStatus): RawHtml {
  const name = s.subscription?.name;
  if (s.status) {
    const note = s.past_due
      ? html`<p class="dashboard-sub__note dashboard-sub__note--warning">${BILLING_TEXTS.pastDue}</p>`
      : html`<p class="dashboard-sub__note">${s.days_left > 0 ? `Автопродление через ${days(s.days_left)}` : 'Автопродление сегодня'}</p>`;
    return html`<div class="dashboard-sub dashboard-sub--active"><p class="dashboard-sub__label">Ваш тариф</p><p class="dashboard-sub__name">${name ?? 'Подписка активна'}</p>${note}<span class="btn btn-secondary">Сменить тариф</span></div>`;
  }
  const inner =
    s.days_left > 0
      ? html`<p class="dashboard-sub__label">Подписка отменена</p><p class="dashboard-sub__name">${name ?? 'Подписка'}</p><p class="dashboard-sub__note">Автопродление отключено. Действует ещё ${days(s.days_left)}.</p>`
      : html`<p class="dashboard-sub__name">Нет активной подписки</p><p class="dashboard-sub__note">Купите подписку, чтобы каждый месяц получать слова и медиа токены.</p>`;
  return html`<div class="dashboard-sub dashboard-sub--none">${inner}<span class="btn btn-primary">Выбрать тариф</span></div>`;
}

/** The balances as the dashboard and the balance history show them (`BalanceSummary`). */
const balancesBlock = (b: Balances) =>
  html`<ul class="balances"><li class="balances__item">${WORDS_ICON}<span class="balances__value">${wordsFormat.format(b.words)}</span> <span class="balances__label">${plural(b.words, WORDS)}</span></li><li class="balances__item">${MEDIA_ICON}<span class="balances__value">${mediaFormat.format(b.media)}</span> <span class="balances__label">медиа токена</span></li></ul>`;

const card = (title: string, body: RawHtml, extra = '') => html`<section class="card ${extra}"><h2 class="card__title">${title}</h2>${body}</section>`;

/** The dashboard (`widgets/dashboard`): the plan and the balances from the server, the news cards as blocks of their size. */
export function dashboardSkeleton(facts: PageFacts | undefined): RawHtml {
  const sub = facts ? subscriptionBlock(facts.subscription) : html`<div class="skeleton">${line()}${line()}${line('short')}</div>`;
  const balances = facts ? balancesBlock(facts.balances) : html`<div class="skeleton">${line()}${line('short')}</div>`;
  const cards = facts?.cards ?? 4;
  const news = cards
    ? html`<ul class="news-grid">${Array.from({ length: cards }, () => html`<li class="news-grid__item"><span class="news-card"><span class="news-card__icon"></span><span class="news-card__text sk-grow">${line('half')}${line()}${line('short')}</span></span></li>`)}</ul>`
    : html`<div class="empty-state"><p class="empty-state__title">Новостей пока нет</p><p>Здесь появятся новости сервиса и новые нейросети.</p></div>`;
  return html`<div class="dashboard"><div class="dashboard__top">${card('Подписка', sub)}${card('Баланс', html`${balances}<div class="dashboard__links"><span class="sk-link">Купить токены</span><span class="sk-link">История баланса</span></div>`)}</div>${card('Новости и возможности', news, 'dashboard-news')}</div>`;
}

/** A plan as the plans page's skeleton draws it, from the page's read of the plans (`Tariff`). */
export interface SkeletonPlan {
  name: string;
  popular: boolean;
  description: readonly string[];
}

/** A description line with its icons, as `PlanDescription` draws it. */
const featureLine = (line: string) =>
  html`<li>${descriptionParts(line).map((part) => (part.type === 'text' ? html`<span>${part.text}</span>` : part.icon === 'words' ? WORDS_ICON : MEDIA_ICON))}</li>`;

/** A plan's card (`PlanCardFrame`): its badge, name and description; the price and the buttons, which depend on the account, loading. */
const planCard = (plan: SkeletonPlan) =>
  html`<li class="plan${plan.popular ? ' plan--popular' : ''}"><article class="plan__inner">${plan.popular ? html`<span class="plan__badge">Популярный</span>` : ''}<h3 class="plan__name">${plan.name}</h3>${block(
    'price',
  )}<ul class="plan__features">${plan.description.map(featureLine)}</ul><div class="plan__actions">${block('button')}</div></article></li>`;

/**
 * The plans page (`widgets/tariffs`): the sandbox's note and the plans — their names and what they
 * give when the page read them (`plans`), cards of their size otherwise.
 */
export function tariffsSkeleton(props: { sandbox: boolean; paymentsOff: boolean }, plans?: readonly SkeletonPlan[]): RawHtml {
  const note = props.sandbox
    ? html`<div class="tariffs__sandbox"><p class="tariffs__sandbox-title">Тестовый режим оплаты</p><p>Деньги не списываются. Оплачивайте тестовыми картами (срок — любой будущий, CVV — любой):</p><ul><li><code>4242 4242 4242 4242</code> — успешная оплата</li><li><code>4012 8888 8888 1881</code> — отказ: недостаточно средств</li><li><code>4111 1111 1111 1111</code> — успешно, но следующие автосписания не пройдут</li></ul></div>`
    : '';
  const placeholder = html`<li class="plan"><div class="plan__inner sk-plan">${line('half')}${block('price')}${line()}${line()}${line('short')}${block('button')}</div></li>`;
  const cards = plans?.length ? plans.map(planCard) : [placeholder, placeholder, placeholder];
  return html`<div class="tariffs">${note}<section class="tariffs__section"><h2>Подписки</h2><ul class="plans">${cards}</ul></section><section class="tariffs__section"><h2>Пакеты токенов</h2><p class="tariffs__lead">Докупаются к действующей подписке. Токены не сгорают.</p>${block('packages')}</section></div>`;
}

/** A list in a card that loads its first page (the orders, the balance's movements). */
const listLines = () => html`<div class="skeleton">${line()}${line()}${line()}${line('short')}</div>`;

/**
 * The order history (`widgets/order-history`): its tabs and the first tab's list; `empty` when the
 * page read that first page and it had no record (the widget's words for it then).
 */
export const ordersSkeleton = (empty?: boolean): RawHtml =>
  html`<section class="card orders"><div class="tabs-root"><div class="tabs"><span class="tabs__tab" aria-selected="true">Подписки</span><span class="tabs__tab">Авто списания</span><span class="tabs__tab">Пакеты</span></div><div class="tabs__panel"><div class="orders__panel">${
    empty ? emptyState('У вас пока нет подписок', 'Оформите подписку, чтобы каждый месяц получать слова и медиа токены.', { label: 'Выбрать тариф', kind: 'primary' }) : block('empty')
  }</div></div></div></section>`;

/** The balance history (`widgets/balance-history`): the balances from the server, the movements loading (or none: `empty`, their first page read). */
export const balanceHistorySkeleton = (balances: Balances | undefined, empty?: boolean): RawHtml =>
  html`<div class="balance-history">${card('Сейчас на балансе', html`${balances ? balancesBlock(balances) : listLines()}<span class="balance-now__buy sk-link">Тарифы и пакеты</span>`, 'balance-now')}${card(
    'Движения по балансу',
    html`<div class="ledger__panel">${
      empty
        ? emptyState('Пока ни одного движения', 'Здесь появятся начисления по тарифу и пакетам, подарки, списания за ответы в чате и генерации и возвраты.', { label: 'Выбрать тариф', kind: 'primary' })
        : block('empty')
    }</div>`,
    'ledger',
  )}</div>`;

/** The catalogue (`widgets/ai-products`) at /ai-products: its head and the first cards. */
export const catalogSkeleton = (): RawHtml =>
  html`<div class="gen-catalog"><header class="gen-catalog__head"><div><h1>Генерации</h1><p class="gen-catalog__lead">Картинки, видео и тексты по готовым сценариям. Цена видна до запуска, токены списываются только за результат.</p></div><span class="btn btn-secondary">История генераций</span></header><div class="gen-filter"><span class="gen-filter__item" aria-current="page">Все</span><span class="gen-filter__item">Изображения</span><span class="gen-filter__item">Видео</span><span class="gen-filter__item">Тексты</span></div><section class="gen-category">${line('half')}${line()}<ul class="gen-grid">${Array.from({ length: 6 }, () => html`<li>${block('gen-card')}</li>`)}</ul></section></div>`;

const HISTORY_TITLES = { image: 'Создать изображение', video: 'Создать видео' } as const;
/** The history's words when a kind has no run yet (the widget's `KIND_TEXTS`). */
const HISTORY_EMPTY = {
  image: { title: 'Здесь появятся ваши изображения', text: 'Выберите продукт в каталоге, опишите идею — и готовая картинка сохранится в истории.' },
  video: { title: 'Здесь появятся ваши видео', text: 'Выберите продукт в каталоге, опишите сцену — ролик сохранится в истории, когда будет готов.' },
} as const;

/** The history of runs (`widgets/ai-history`): its head, tabs and the list loading (or none: `empty`, its first page read). */
export const historySkeleton = (type: 'image' | 'video', empty?: boolean): RawHtml =>
  html`<section class="gen-history"><div class="gen-history__head"><h1>История генераций</h1><span class="btn btn-primary gen-history__create"><span aria-hidden="true">+</span> ${HISTORY_TITLES[type]}</span></div><div class="tabs gen-history__tabs"><span class="tabs__tab"${type === 'image' ? raw(' aria-current="page"') : ''}>Изображения</span><span class="tabs__tab"${type === 'video' ? raw(' aria-current="page"') : ''}>Видео</span><span class="tabs__tab">Тексты</span></div>${
    empty ? html`<div class="card gen-history__empty">${emptyState(HISTORY_EMPTY[type].title, HISTORY_EMPTY[type].text, { label: HISTORY_TITLES[type], kind: 'primary' })}</div>` : block('empty')
  }</section>`;

/** The chat's words for a new chat and its examples (`widgets/chat`: `TEXTS`, `EXAMPLES`). */
const CHAT_EMPTY = {
  chats: 'Чаты',
  title: 'С чем помочь?',
  text: 'Задайте вопрос, попросите написать текст или разобрать картинку — ответит выбранная модель.',
  examples: ['Объясни простыми словами, как работает нейросеть', 'Составь план статьи о здоровом сне', 'Напиши вежливое письмо клиенту о переносе сроков'],
} as const;

/**
 * The chat (`widgets/chat`) opening a new chat (no `?id=`): the list's column loading, the head,
 * the empty chat's words and examples (on a phone what the user sees first) and the composer's frame.
 */
export const chatSkeleton = (): RawHtml =>
  html`<div class="chat-frame"><div class="chat"><nav class="chat-sidebar"><div class="chat-sidebar__head"><h2 class="chat-sidebar__title">${CHAT_EMPTY.chats}</h2></div>${button(`+ ${CHAT_TEXTS.newChat}`)}<span class="field__input sk-input"></span>${listLines()}</nav><section class="chat-main"><header class="chat-main__head"><span class="chat-icon-btn chat-main__toggle"></span><h1 class="chat-main__title">${CHAT_TEXTS.newChat}</h1><span class="chat-icon-btn chat-main__new"></span></header><div class="chat-conversation"><div class="chat-conversation__inner"><div class="chat-empty"><div class="chat-empty__badge">✦</div><h2 class="chat-empty__title">${CHAT_EMPTY.title}</h2><p class="chat-empty__text">${CHAT_EMPTY.text}</p><ul class="chat-empty__examples">${CHAT_EMPTY.examples.map(
    (example) => html`<li><span class="chat-example">${example}</span></li>`,
  )}</ul></div></div></div><div class="chat-composer">${block('composer')}<div class="sk-composer-hint"></div></div></section></div></div>`;
