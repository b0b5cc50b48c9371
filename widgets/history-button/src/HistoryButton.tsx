import type { WidgetProps } from '@app/contracts/browser';

/** A link styled as a button (to the order history by default). */
export function HistoryButton({ href, label }: WidgetProps<'history-button'>) {
  return (
    <a className="btn btn-secondary history-button" href={href}>
      <svg className="history-button__icon" viewBox="0 0 20 20" width="18" height="18" aria-hidden="true" focusable="false">
        <circle cx="10" cy="10" r="7.5" fill="none" stroke="currentColor" strokeWidth="1.6" />
        <path d="M10 5.5V10l3 2" fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" />
      </svg>
      {label}
    </a>
  );
}
