import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeApi, renderChat, resetBetweenTests } from './chat-test-kit.tsx';

resetBetweenTests();

describe('Chat: the answers’ Markdown renderer (a chunk of its own)', () => {
  it('a chat opened by its address shows its history only once the renderer is there: no answer shows its raw Markdown first', async () => {
    const raw: string[] = [];
    const observer = new MutationObserver(() => {
      const text = document.body.textContent;
      if (text.includes('**Вступление**') || text.includes('| Возраст |')) raw.push(text);
    });
    observer.observe(document.body, { subtree: true, childList: true, characterData: true });
    const { api } = fakeApi();
    window.history.replaceState(null, '', '/chat?id=41');
    renderChat(api);
    expect(await screen.findByText('Вступление', { selector: 'strong' })).toBeInTheDocument();
    expect(screen.getByRole('table')).toBeInTheDocument();
    observer.disconnect();
    expect(raw).toEqual([]);
  });
});
