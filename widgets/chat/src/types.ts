import type { ChatEstimate, ChatMessage, ChatSearchHit } from '@app/contracts/browser';
import type { LoadState } from '@app/kit';
import type { ModelChoice, SendFailure } from './chat-utils.ts';

/** A chat in the sidebar. */
export interface ChatEntry {
  id: number;
  text: string;
}

/** The sidebar's list: the chats read so far, and whether there are more. */
export type ChatListState = { status: 'loading' } | { status: 'error'; message: string } | { status: 'ready'; items: ChatEntry[]; hasMore: boolean; loadingMore: boolean };

/** A message as the chat shows it: from the history, or being sent and written now. */
export interface ShownMessage {
  key: string;
  /** The stored message's id (a message being sent has none yet). */
  id?: number | null;
  /** Ids of the variants of its place, oldest first, when there are several. */
  variants?: number[];
  role: ChatMessage['role'];
  text: string;
  /** The model's name (answers). */
  model: string | null;
  status: ChatMessage['status'];
  words: number;
  images: { url: string; name: string }[];
}

/** An image attached in the composer, with its preview. */
export interface Attachment {
  id: string;
  file: File;
  url: string;
}

/**
 * Where a send stands: `sending` until the server starts the answer, `streaming` while it is
 * written, `stopping` after «Остановить» until the server ends it.
 */
export type SendPhase = 'idle' | 'sending' | 'streaming' | 'stopping';

/** What the conversation area shows. */
export type Conversation = { status: 'new' } | LoadState<ShownMessage[]>;

export type ChatDialog = { kind: 'rename'; chat: ChatEntry } | { kind: 'delete'; chat: ChatEntry } | null;

export interface ComposerState {
  text: string;
  attachments: readonly Attachment[];
  /** A refused image (third one, wrong type, too large). */
  imageError: string | null;
  choices: LoadState<ModelChoice[]>;
  choiceKey: string | null;
  phase: SendPhase;
  failure: SendFailure | null;
  /** Words on the balance, when known. */
  balance: number | null;
  /** What sending the message will cost with the chat's history, when known. */
  estimate?: ChatEstimate | null | undefined;
}

/** The sidebar's search: what is typed, and what was found (null while nothing is searched). */
export interface ChatSearchState {
  text: string;
  results: LoadState<{ hits: ChatSearchHit[]; more: boolean }> | null;
}
