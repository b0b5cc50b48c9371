import type { Db } from '../../db/database.ts';
import { isSandboxMember } from './welcome.queries.ts';
import { AppError } from '../../lib/app-error.ts';

export interface ChatMember {
  status: 'creator' | 'administrator' | 'member' | 'restricted' | 'left' | 'kicked';
  is_member?: boolean;
}

export interface TelegramUpdate {
  update_id: number;
  message?: { text?: string; from?: { id: number }; chat?: { id: number } };
}

/** The Bot API calls the welcome gift needs. */
export interface TelegramClient {
  /** The member's status in the channel; `left` when Telegram does not know them there. */
  getChatMember(channel: string, userId: number): Promise<ChatMember>;
  getUpdates(offset: number): Promise<TelegramUpdate[]>;
  sendMessage(chatId: number, text: string): Promise<void>;
}

/** Membership that counts (PRODUCT.md): creator, administrator, member, or restricted with is_member. */
export const isChannelMember = (m: ChatMember) => ['creator', 'administrator', 'member'].includes(m.status) || (m.status === 'restricted' && m.is_member === true);

interface BotReply<T> {
  ok: boolean;
  result?: T;
  error_code?: number;
  description?: string;
}

export class HttpTelegramClient implements TelegramClient {
  constructor(
    private readonly apiUrl: string,
    private readonly token: string,
    private readonly timeoutMs = 8000,
  ) {}

  private async callApi<T>(method: string, params: Record<string, string | number | readonly string[]>): Promise<BotReply<T>> {
    try {
      const res = await fetch(`${this.apiUrl}/bot${this.token}/${method}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(params),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      return (await res.json()) as BotReply<T>;
    } catch {
      throw new AppError('TELEGRAM_UNAVAILABLE');
    }
  }

  async getChatMember(channel: string, userId: number): Promise<ChatMember> {
    const reply = await this.callApi<ChatMember>('getChatMember', { chat_id: channel, user_id: userId });
    if (reply.ok && reply.result) return reply.result;
    // "Bad Request: user not found" / "member not found": not in the channel.
    if (reply.error_code === 400 && /not found/i.test(reply.description ?? '')) return { status: 'left' };
    throw new AppError('TELEGRAM_UNAVAILABLE');
  }

  async getUpdates(offset: number): Promise<TelegramUpdate[]> {
    const reply = await this.callApi<TelegramUpdate[]>('getUpdates', { offset, timeout: 0, allowed_updates: ['message'] });
    if (!reply.ok) throw new AppError('TELEGRAM_UNAVAILABLE');
    return reply.result ?? [];
  }

  async sendMessage(chatId: number, text: string): Promise<void> {
    await this.callApi('sendMessage', { chat_id: chatId, text });
  }
}

/** Without a bot token: membership is what the local sandbox bot page recorded. */
export class SandboxTelegramClient implements TelegramClient {
  constructor(private readonly db: Db) {}

  async getChatMember(_channel: string, userId: number): Promise<ChatMember> {
    return { status: (await isSandboxMember(this.db, userId)) ? 'member' : 'left' };
  }

  async getUpdates(): Promise<TelegramUpdate[]> {
    return [];
  }

  async sendMessage(): Promise<void> {
    // The sandbox bot answers on its own page.
  }
}
