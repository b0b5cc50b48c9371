import type { DashboardCard } from '@app/contracts/browser';

/*
 * A news card of the dashboard: the admin panel's card editor previews the very same card (it
 * imports this file).
 */

/** A link a card may follow: same-site paths and http(s) addresses only. */
export function safeHref(link: string): string | null {
  const value = link.trim();
  if (/^\/(?![/\\])/.test(value)) return value;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
  } catch {
    return null;
  }
}

/** An icon given as an image address (same-site path, http(s) or a data: image). */
export function iconImage(icon: string): string | null {
  const value = icon.trim();
  if (/^data:image\/(png|jpe?g|gif|webp|svg\+xml);base64,[A-Za-z0-9+/=]+$/i.test(value)) return value;
  if (/\s/.test(value)) return null;
  return safeHref(value);
}

/** A news card as the dashboard shows it (an `<li>` of `.news-grid`). */
export function NewsCard({ card }: { card: DashboardCard }) {
  const href = safeHref(card.link);
  const image = iconImage(card.icon);
  const external = href !== null && !href.startsWith('/');
  const content = (
    <>
      <span className="news-card__icon" aria-hidden="true">
        {image ? <img src={image} alt="" width={40} height={40} loading="lazy" /> : card.icon}
      </span>
      <span className="news-card__text">
        <span className="news-card__name">{card.name}</span>
        <span className="news-card__description">{card.description}</span>
      </span>
    </>
  );
  return (
    <li className="news-grid__item">
      {href ? (
        <a className="news-card news-card--link" href={href} target={external ? '_blank' : undefined} rel={external ? 'noopener noreferrer' : undefined}>
          {content}
        </a>
      ) : (
        <div className="news-card">{content}</div>
      )}
    </li>
  );
}
