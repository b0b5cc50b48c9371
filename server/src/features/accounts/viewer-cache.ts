import type { Executor } from '../../db/database.ts';
import { sha256 } from '../../lib/crypto.ts';
import type { PgListener } from '../../lib/pg-listener.ts';
import { findLiveSession, revokeSession, touchSession, type LiveSession } from './sessions.queries.ts';
import type { Viewer } from './viewer.ts';

/**
 * NOTIFY channel whose payload is a user id: something the viewer of that user's sessions is made
 * of changed (a session revoked or expired, the user blocked, their role, email, confirmation or
 * temporary password), or `*` when either table was emptied. Sent by triggers on `users` and
 * `sessions` (migration 0033), so no code path that changes them can forget it.
 */
export const VIEWER_CHANNEL = 'ns_viewer';
/** A session's "last seen" is written at most this often. */
const TOUCH_EVERY_MS = 5 * 60_000;

/** Writes a session's "last seen" when the last write is older than {@link TOUCH_EVERY_MS}. */
async function touchWhenDue(db: Executor, session: LiveSession, now: number): Promise<void> {
  if (now - session.lastSeenAt.getTime() <= TOUCH_EVERY_MS) return;
  session.lastSeenAt = new Date(now);
  await touchSession(db, session.viewer.sessionId);
}

/** A staff session unused this long ends: the admin panel moves money. */
export const STAFF_IDLE_MS = 12 * 3_600_000;

/** A staff session that has been idle too long (its "last seen" is at most {@link TOUCH_EVERY_MS} behind). */
const idleStaff = (session: LiveSession, now: number) => session.viewer.role === 'admin' && now - session.lastSeenAt.getTime() > STAFF_IDLE_MS;

interface Entry {
  session: LiveSession;
  /** When it was read from the database (by this process's clock). */
  at: number;
}

/**
 * The viewers behind the tokens this process has seen, so a request does not ask the database
 * who sends it. Kept at most `ttlMs`, and only while this process receives notifications: every
 * change of a user or a session is announced on {@link VIEWER_CHANNEL} (by triggers, on commit)
 * and drops that user's entries in every process; while the notification connection is down
 * nothing is trusted (the database answers), and all is dropped when it goes down or comes back.
 * A process that changes a user itself also drops them at once ({@link forgetUser}), so its own
 * next request never sees the old state. Unknown or dead tokens are not kept.
 */
export class ViewerCache {
  private readonly entries = new Map<string, Entry>();
  private readonly keysOfUser = new Map<number, Set<string>>();
  /** Counts every invalidation: a read that raced one is not kept (it may have read the state before the change). */
  private epoch = 0;
  private listener: PgListener | null = null;

  constructor(private readonly opts: { ttlMs: number; maxEntries: number }) {}

  listen(listener: PgListener): void {
    this.listener = listener;
    listener.subscribe(VIEWER_CHANNEL, {
      // `*`: a table was emptied (TRUNCATE): everything goes.
      onMessage: (payload) => (payload === '*' ? this.clear() : this.forgetUser(Number(payload))),
      onReconnect: () => this.clear(),
      onDisconnect: () => this.clear(),
    });
  }

  /** Entries held now (for tests and metrics). */
  get size(): number {
    return this.entries.size;
  }

  private get usable(): boolean {
    return this.opts.ttlMs > 0 && this.listener?.listening === true;
  }

  /** The viewer behind a token, if its session is live. */
  async find(db: Executor, token: string, via: Viewer['via']): Promise<Viewer | null> {
    // Keyed by the token's hash, as the database keeps it: no live token stays in this process's memory.
    const hash = sha256(token);
    const key = `${via}:${hash.toString('base64')}`;
    const now = Date.now();
    const hit = this.usable ? this.entries.get(key) : undefined;
    if (hit && now - hit.at < this.opts.ttlMs && hit.session.expiresAt.getTime() > now && !idleStaff(hit.session, now)) {
      await touchWhenDue(db, hit.session, now);
      return { ...hit.session.viewer };
    }
    if (hit) this.drop(key);
    const epoch = this.epoch;
    const session = await findLiveSession(db, hash, via);
    if (!session) return null;
    if (idleStaff(session, now)) {
      await revokeSession(db, session.viewer.sessionId);
      return null;
    }
    await touchWhenDue(db, session, now);
    if (this.usable && this.epoch === epoch) this.keep(key, { session, at: now });
    return { ...session.viewer };
  }

  /** Drops the user's entries in this process (after this process changed the user or a session of theirs). */
  forgetUser(userId: number): void {
    this.epoch++;
    const keys = this.keysOfUser.get(userId);
    if (!keys) return;
    for (const key of keys) this.entries.delete(key);
    this.keysOfUser.delete(userId);
  }

  clear(): void {
    this.epoch++;
    this.entries.clear();
    this.keysOfUser.clear();
  }

  private keep(key: string, entry: Entry): void {
    // The oldest entry makes room (a Map keeps insertion order).
    if (this.entries.size >= this.opts.maxEntries && !this.entries.has(key)) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.drop(oldest.value);
    }
    this.entries.set(key, entry);
    const userId = entry.session.viewer.id;
    let keys = this.keysOfUser.get(userId);
    if (!keys) this.keysOfUser.set(userId, (keys = new Set()));
    keys.add(key);
  }

  private drop(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    const keys = this.keysOfUser.get(entry.session.viewer.id);
    keys?.delete(key);
    if (keys?.size === 0) this.keysOfUser.delete(entry.session.viewer.id);
  }
}
