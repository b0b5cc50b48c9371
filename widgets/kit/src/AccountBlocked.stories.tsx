import type { Meta, StoryObj } from '@storybook/react-vite';
import { useEffect } from 'react';
import { showAccountBlocked } from './blocked.ts';

/** A page whose account was blocked while it was open: the first refused call covers it with the notice. */
function BlockedPage() {
  useEffect(() => {
    showAccountBlocked();
    return () => document.getElementById('account-blocked')?.remove();
  }, []);
  return (
    <>
      <p>Страница, открытая до блокировки.</p>
      <footer className="site-footer">
        <span>© Нейростудия</span>
        <a href="mailto:support@neurostudio.local">Поддержка</a>
      </footer>
    </>
  );
}

const meta = { title: 'Kit/Account blocked', component: BlockedPage } satisfies Meta<typeof BlockedPage>;
export default meta;
type Story = StoryObj<typeof meta>;

export const AccountBlocked: Story = {};
