import type { DashboardCard } from '@app/contracts/browser';
import { iconImage, safeHref } from './news-card-links.ts';

/*
 * A news card of the dashboard: the admin panel's card editor previews the very same card (it
 * imports this file).
 */

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
