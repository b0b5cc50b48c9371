import { useRef, type ReactNode } from 'react';
import { CHAT_TEXTS, chatEndpoints, type ChatSearchHit } from '@app/contracts/browser';
import type { TopUp } from '@app/kit/too-few-tokens';
import { Composer } from './Composer.tsx';
import { ConversationView, TooFewWords, type MessageActions } from './Conversation.tsx';
import { DeleteDialog, RenameDialog } from './dialogs.tsx';
import { ListIcon, PlusIcon } from './icons.tsx';
import { Sidebar } from './Sidebar.tsx';
import { MESSAGE_TEXTS, TEXTS } from './texts.ts';
import type { OlderState } from './use-older-messages.ts';
import type { ChatDialog, ChatEntry, ChatListState, ChatSearchState, ComposerState, Conversation } from './types.ts';

export interface ChatViewProps {
  list: ChatListState;
  currentId: number | null;
  conversation: Conversation;
  /** Whether the open chat has older messages to read on scroll up. */
  older: OlderState;
  composer: ComposerState;
  dialog: ChatDialog;
  /** Where the too-few-words panel sends the user: the packages with a current plan (`topUp`), the plans otherwise. */
  plansUrl: string;
  packagesUrl: string;
  topUp: TopUp;
  /** On a phone: the chat list is open over the conversation. */
  sidebarOpen: boolean;
  /** A message for screen readers about the answer being written («Ответ готов»…). */
  liveStatus: string;
  onToggleSidebar: (open: boolean) => void;
  onNewChat: () => void;
  onOpenChat: (id: number) => void;
  onLoadMore: () => void;
  onRetryList: () => void;
  onRetryConversation: () => void;
  /** Reads the page of messages before the oldest shown (the conversation scrolled to its top). */
  onLoadOlder: () => void;
  onDialog: (dialog: ChatDialog) => void;
  onRename: (chat: ChatEntry, title: string) => Promise<unknown>;
  onDelete: (chat: ChatEntry) => Promise<unknown>;
  onText: (text: string) => void;
  onChoice: (key: string) => void;
  onFiles: (files: readonly File[]) => void;
  onRemoveAttachment: (id: string) => void;
  onSend: () => void;
  onStop: () => void;
  onDismissFailure: () => void;
  /** Errors of the dialogs, shown from the start (stories). */
  dialogErrors?: Record<string, string[]>;
  /** Changes when the message field should take the focus (another chat opened, «Новый чат»). */
  focusToken?: number;
  /** Copy, answer again, edit, switch variants (absent: the messages have no buttons). */
  actions?: MessageActions | undefined;
  /** A message opened from the search, brought into view. */
  focusMessageId?: number | null | undefined;
  search?: ChatSearchState | undefined;
  onSearch?: ((text: string) => void) | undefined;
  onOpenHit?: ((hit: ChatSearchHit) => void) | undefined;
  /** Under the composer: the offer of a new chat with a summary when the history grows expensive. */
  composerExtra?: ReactNode;
}

/** The chat screen (seed «Chat screen»): sidebar with the chats, the conversation and the composer, every state from props. */
export function ChatView(props: ChatViewProps) {
  const { list, currentId, conversation, composer, dialog, sidebarOpen, onToggleSidebar } = props;
  const current = list.status === 'ready' ? list.items.find((c) => c.id === currentId) : undefined;
  // A chat beyond the chats read so far (opened by its address) is titled, as the server titles a
  // new chat, by its first message until the list has it; «Чат» only while neither is read.
  const firstAsked = conversation.status === 'ready' ? conversation.data.find((m) => m.role === 'user')?.text.trim() : undefined;
  const fullTitle = current?.text ?? (firstAsked || undefined);
  // The whole title: the header wraps it (only the seed's list cuts titles).
  const heading = currentId === null ? CHAT_TEXTS.newChat : (fullTitle ?? TEXTS.chat);
  const failure = composer.failure;
  // What the send needs on the balance: the estimate's most (the history counted), else the answer's.
  const price = composer.estimate?.max_words ?? (composer.choices.status === 'ready' ? (composer.choices.data.find((c) => c.key === composer.choiceKey)?.model.max_words ?? null) : null);
  const toggleRef = useRef<HTMLButtonElement>(null);
  const closeSidebar = () => {
    onToggleSidebar(false);
    toggleRef.current?.focus();
  };
  return (
    <div className="chat-frame">
      <div className={`chat${sidebarOpen ? ' chat--sidebar-open' : ''}`}>
        <Sidebar
          list={list}
          currentId={currentId}
          open={sidebarOpen}
          onNewChat={props.onNewChat}
          onOpenChat={props.onOpenChat}
          onLoadMore={props.onLoadMore}
          onRetryList={props.onRetryList}
          onDialog={props.onDialog}
          onClose={closeSidebar}
          search={props.search}
          onSearch={props.onSearch}
          onOpenHit={props.onOpenHit}
        />
        {sidebarOpen && <div className="chat-scrim" aria-hidden="true" onClick={closeSidebar} />}
        <section className="chat-main" aria-label={heading}>
          <header className="chat-main__head">
            <button ref={toggleRef} type="button" className="chat-icon-btn chat-main__toggle" aria-label={TEXTS.openChats} aria-expanded={sidebarOpen} aria-controls="chat-sidebar" onClick={() => onToggleSidebar(!sidebarOpen)}>
              <ListIcon />
            </button>
            <h1 className="chat-main__title">{heading}</h1>
            {currentId !== null && (
              <a className="btn btn-ghost btn-sm chat-main__export" href={chatEndpoints.exportMarkdown.path.replace(':id', String(currentId))} download title={MESSAGE_TEXTS.exportHint}>
                {MESSAGE_TEXTS.exportMd}
              </a>
            )}
            <button type="button" className="chat-icon-btn chat-main__new" aria-label={CHAT_TEXTS.newChat} onClick={props.onNewChat}>
              <PlusIcon />
            </button>
          </header>
          <ConversationView
            conversation={conversation}
            older={props.older}
            onLoadOlder={props.onLoadOlder}
            onRetry={props.onRetryConversation}
            onExample={props.onText}
            actions={props.actions}
            focusMessageId={props.focusMessageId}
            footer={failure?.kind === 'tooFewWords' && <TooFewWords plansUrl={props.plansUrl} packagesUrl={props.packagesUrl} topUp={props.topUp} balance={composer.balance} price={price} history={composer.estimate?.history_words ?? null} onDismiss={props.onDismissFailure} />}
          />
          <Composer composer={composer} focusToken={props.focusToken} onText={props.onText} onChoice={props.onChoice} onFiles={props.onFiles} onRemoveAttachment={props.onRemoveAttachment} onSend={props.onSend} onStop={props.onStop} extra={props.composerExtra} />
          <p className="visually-hidden" aria-live="polite" role="status">
            {props.liveStatus}
          </p>
        </section>
        {dialog?.kind === 'rename' && <RenameDialog chat={dialog.chat} errors={props.dialogErrors} onSubmit={(title) => props.onRename(dialog.chat, title)} onClose={() => props.onDialog(null)} />}
        {dialog?.kind === 'delete' && <DeleteDialog chat={dialog.chat} error={props.dialogErrors?.delete?.[0] ?? null} onConfirm={() => props.onDelete(dialog.chat)} onClose={() => props.onDialog(null)} />}
      </div>
    </div>
  );
}
