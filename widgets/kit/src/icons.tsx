/** The words (text tokens) icon. */
export function WordsIcon({ title = 'слова' }: { title?: string }) {
  return (
    <svg className="token-icon token-icon--words" viewBox="0 0 20 20" width="18" height="18" role="img" aria-label={title}>
      <rect x="1" y="1" width="18" height="18" rx="5" fill="currentColor" />
      <path d="M5.5 7h9M5.5 10h9M5.5 13h5.5" stroke="#fff" strokeWidth="1.6" strokeLinecap="round" />
    </svg>
  );
}

/** The media tokens icon. */
export function MediaIcon({ title = 'медиа токены' }: { title?: string }) {
  return (
    <svg className="token-icon token-icon--media" viewBox="0 0 20 20" width="18" height="18" role="img" aria-label={title}>
      <rect x="1" y="1" width="18" height="18" rx="5" fill="currentColor" />
      <circle cx="7.5" cy="8" r="1.8" fill="#fff" />
      <path d="M4.5 15l4-4 2.5 2.5 2-2 2.5 3.5" stroke="#fff" strokeWidth="1.6" fill="none" strokeLinejoin="round" />
    </svg>
  );
}
