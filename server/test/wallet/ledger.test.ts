import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../src/lib/app-error.ts';
import { isBalanceRefused } from '../../src/db/database.ts';
import { credit, debitUpTo, ledgerSums, placeHold, releaseHold, settleHold, getRawBalances } from '../../src/features/wallet/wallet.queries.ts';
import { createTestApp, newUser, type TestApp } from '../support/index.ts';
import { HOLD_SWEEP_AFTER_MINUTES, closeHoldsOfEndedWork } from '../../src/features/wallet/wallet.jobs.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ workers: false });
});
afterAll(() => t.close());

const grant = (userId: number, kind: 'words' | 'media', amount: number, key: string) =>
  t.db.transaction().execute((tx) => credit(tx, { userId, kind, reason: 'admin_adjustment', idempotencyKey: key }, amount));

async function expectConsistent(userId: number) {
  expect(await getRawBalances(t.db, userId)).toEqual(await ledgerSums(t.db, userId));
}

describe('wallet ledger', () => {
  it('200 concurrent holds on one wallet never overdraw; balance stays the ledger sum', async () => {
    const user = await newUser(t.db);
    await grant(user.id, 'words', 1_000, `seed-${String(user.id)}`);
    const results = await Promise.allSettled(
      Array.from({ length: 200 }, (_, i) => placeHold(t.db, { userId: user.id, kind: 'words', amount: 7, idempotencyKey: `hot-${String(user.id)}-${String(i)}` })),
    );
    const held = results.filter((r) => r.status === 'fulfilled');
    const refused = results.filter((r) => r.status === 'rejected');
    // 1000 / 7 = 142 holds fit; the rest are refused with 402.
    expect(held).toHaveLength(142);
    for (const r of refused) expect((r.reason as AppError).code).toBe('INSUFFICIENT_TOKENS');
    const balances = await getRawBalances(t.db, user.id);
    expect(balances.words).toBe(1_000 - 142 * 7);
    await expectConsistent(user.id);
  });

  it('settle keeps the actual cost and returns the rest; release returns all; both are idempotent', async () => {
    const user = await newUser(t.db);
    await grant(user.id, 'media', 100, `seed-m-${String(user.id)}`);
    const a = await placeHold(t.db, { userId: user.id, kind: 'media', amount: 40, idempotencyKey: `a-${String(user.id)}` });
    const b = await placeHold(t.db, { userId: user.id, kind: 'media', amount: 30, idempotencyKey: `b-${String(user.id)}` });
    expect((await getRawBalances(t.db, user.id)).media).toBe(30);
    await Promise.all([settleHold(t.db, a, 25), settleHold(t.db, a, 25)]);
    // A later settle with another cost changes nothing (run after, not alongside: concurrently either could close it first).
    await settleHold(t.db, a, 40);
    await Promise.all([releaseHold(t.db, b), releaseHold(t.db, b)]);
    expect((await getRawBalances(t.db, user.id)).media).toBe(100 - 25);
    // Spending more than the hold is capped at the hold.
    const c = await placeHold(t.db, { userId: user.id, kind: 'media', amount: 10, idempotencyKey: `c-${String(user.id)}` });
    await settleHold(t.db, c, 50);
    expect((await getRawBalances(t.db, user.id)).media).toBe(65);
    await expectConsistent(user.id);
  });

  it('a hold retried with its key is the same hold and takes tokens once', async () => {
    const user = await newUser(t.db);
    await grant(user.id, 'words', 50, `seed-r-${String(user.id)}`);
    const holds = await Promise.all(Array.from({ length: 10 }, () => placeHold(t.db, { userId: user.id, kind: 'words', amount: 20, idempotencyKey: `retry-${String(user.id)}` })));
    expect(new Set(holds.map((h) => h.id)).size).toBe(1);
    expect((await getRawBalances(t.db, user.id)).words).toBe(30);
    await expectConsistent(user.id);
  });

  it('a hold key cannot be reused for another user, wallet or amount', async () => {
    const user = await newUser(t.db);
    const other = await newUser(t.db);
    await grant(user.id, 'words', 100, `seed-k-${String(user.id)}`);
    await grant(other.id, 'words', 100, `seed-k-${String(other.id)}`);
    const key = `shared-${String(user.id)}`;
    await placeHold(t.db, { userId: user.id, kind: 'words', amount: 10, idempotencyKey: key });
    await expect(placeHold(t.db, { userId: other.id, kind: 'words', amount: 10, idempotencyKey: key })).rejects.toThrow(/already used/);
    await expect(placeHold(t.db, { userId: user.id, kind: 'words', amount: 20, idempotencyKey: key })).rejects.toThrow(/already used/);
    expect((await getRawBalances(t.db, other.id)).words).toBe(100);
    expect((await getRawBalances(t.db, user.id)).words).toBe(90);
  });

  it('credits are applied once per key, even concurrently', async () => {
    const user = await newUser(t.db);
    const applied = await Promise.all(Array.from({ length: 20 }, () => grant(user.id, 'words', 500, `once-${String(user.id)}`)));
    expect(applied.filter(Boolean)).toHaveLength(1);
    expect((await getRawBalances(t.db, user.id)).words).toBe(500);
    await expectConsistent(user.id);
  });

  it('debitUpTo takes at most what remains and never goes below zero', async () => {
    const user = await newUser(t.db);
    await grant(user.id, 'words', 100, `seed-d-${String(user.id)}`);
    const taken = await Promise.all([1, 2, 3].map((i) => t.db.transaction().execute((tx) => debitUpTo(tx, { userId: user.id, kind: 'words', reason: 'refund', idempotencyKey: `d-${String(user.id)}-${String(i)}` }, 60))));
    expect(taken.reduce((s, n) => s + n, 0)).toBe(100);
    expect((await getRawBalances(t.db, user.id)).words).toBe(0);
    await expectConsistent(user.id);
  });

  it('rejects non-positive and fractional amounts', async () => {
    const user = await newUser(t.db);
    await expect(grant(user.id, 'words', 0, 'zero')).rejects.toThrow();
    await expect(grant(user.id, 'words', -5, 'neg')).rejects.toThrow();
    await expect(grant(user.id, 'words', 1.5, 'frac')).rejects.toThrow();
    await expect(placeHold(t.db, { userId: user.id, kind: 'words', amount: 0, idempotencyKey: 'z' })).rejects.toThrow();
    await expectConsistent(user.id);
  });

  it('hold, settle and release take the caller’s transaction: a rollback undoes them with the rest', async () => {
    const user = await newUser(t.db);
    await grant(user.id, 'words', 100, `seed-tx-${String(user.id)}`);
    await expect(
      t.db.transaction().execute(async (tx) => {
        const hold = await placeHold(tx, { userId: user.id, kind: 'words', amount: 60, idempotencyKey: `tx-rolled-${String(user.id)}` });
        expect(await tx.selectFrom('wallet_holds').select('status').where('id', '=', hold.id).executeTakeFirst()).toEqual({ status: 'held' });
        throw new Error('the provider call could not be queued');
      }),
    ).rejects.toThrow(/could not be queued/);
    expect((await getRawBalances(t.db, user.id)).words).toBe(100);
    expect(await t.db.selectFrom('wallet_holds').select('id').where('user_id', '=', user.id).execute()).toHaveLength(0);
    // Committed: the hold and its settle in one transaction each, with other writes beside them.
    const hold = await t.db.transaction().execute(async (tx) => placeHold(tx, { userId: user.id, kind: 'words', amount: 60, idempotencyKey: `tx-kept-${String(user.id)}` }));
    await t.db.transaction().execute((tx) => settleHold(tx, hold, 45));
    expect((await getRawBalances(t.db, user.id)).words).toBe(55);
    // Too few tokens inside a transaction: 402, and the transaction may go on.
    await t.db.transaction().execute(async (tx) => {
      await expect(placeHold(tx, { userId: user.id, kind: 'words', amount: 1000, idempotencyKey: `tx-big-${String(user.id)}` })).rejects.toMatchObject({ code: 'INSUFFICIENT_TOKENS' });
      expect((await getRawBalances(tx, user.id)).words).toBe(55);
    });
    await expectConsistent(user.id);
  });

  it('many concurrent hold+settle pairs on one wallet (batched) keep every result and the ledger exact', async () => {
    const user = await newUser(t.db);
    await grant(user.id, 'words', 10_000, `seed-b-${String(user.id)}`);
    const pairs = await Promise.all(
      Array.from({ length: 300 }, async (_, i) => {
        const hold = await placeHold(t.db, { userId: user.id, kind: 'words', amount: 10, idempotencyKey: `b-${String(user.id)}-${String(i)}` });
        return settleHold(t.db, hold, i % 11);
      }),
    );
    const spent = Array.from({ length: 300 }, (_, i) => Math.min(i % 11, 10)).reduce((a, b) => a + b, 0);
    expect(pairs.reduce((sum, p) => sum + p.returned, 0)).toBe(300 * 10 - spent);
    expect((await getRawBalances(t.db, user.id)).words).toBe(10_000 - spent);
    const open = await t.db.selectFrom('wallet_holds').select('id').where('user_id', '=', user.id).where('status', '=', 'held').execute();
    expect(open).toHaveLength(0);
    await expectConsistent(user.id);
  });

  it('a hold and its settle arriving together for one wallet apply in order, and a user without a wallet gets 402', async () => {
    const user = await newUser(t.db);
    await expect(placeHold(t.db, { userId: user.id, kind: 'media', amount: 1, idempotencyKey: `none-${String(user.id)}` })).rejects.toMatchObject({ code: 'INSUFFICIENT_TOKENS' });
    await grant(user.id, 'media', 30, `seed-o-${String(user.id)}`);
    const [first, second] = await Promise.all([
      placeHold(t.db, { userId: user.id, kind: 'media', amount: 20, idempotencyKey: `o1-${String(user.id)}` }),
      placeHold(t.db, { userId: user.id, kind: 'media', amount: 20, idempotencyKey: `o2-${String(user.id)}` }).catch((err: unknown) => err),
    ]);
    expect(first.amount).toBe(20);
    expect(second).toMatchObject({ code: 'INSUFFICIENT_TOKENS' });
    await releaseHold(t.db, first);
    expect((await getRawBalances(t.db, user.id)).media).toBe(30);
    await expectConsistent(user.id);
  });

  it('a hold inside a transaction locks its wallet only at the commit: another transaction may write the wallet meanwhile', async () => {
    const user = await newUser(t.db);
    await grant(user.id, 'words', 100, `seed-late-${String(user.id)}`);
    let release = () => {};
    const holding = new Promise<void>((resolve) => (release = resolve));
    let placed = () => {};
    const isPlaced = new Promise<void>((resolve) => (placed = resolve));
    const run = t.db.transaction().execute(async (tx) => {
      const hold = await placeHold(tx, { userId: user.id, kind: 'words', amount: 60, idempotencyKey: `late-${String(user.id)}` });
      placed();
      await holding;
      return hold;
    });
    await isPlaced;
    // The row is free while the hold's transaction is still open (NOWAIT fails at once on a locked row).
    await t.db.transaction().execute(async (tx) => {
      await tx.selectFrom('wallets').select('balance').where('user_id', '=', user.id).where('kind', '=', 'words').forUpdate().noWait().execute();
    });
    release();
    const hold = await run;
    expect((await getRawBalances(t.db, user.id)).words).toBe(40);
    await t.db.transaction().execute((tx) => settleHold(tx, hold, 25));
    expect((await getRawBalances(t.db, user.id)).words).toBe(75);
    await expectConsistent(user.id);
  });

  it('two transactions whose holds the balance covers one of: the later commit is refused whole, and the balance never goes below zero', async () => {
    const user = await newUser(t.db);
    await grant(user.id, 'words', 100, `seed-race-${String(user.id)}`);
    let release = () => {};
    const holding = new Promise<void>((resolve) => (release = resolve));
    const bothPlaced: Promise<void>[] = [];
    const start = (n: number) => {
      let placed = () => {};
      bothPlaced.push(new Promise<void>((resolve) => (placed = resolve)));
      return t.db.transaction().execute(async (tx) => {
        await placeHold(tx, { userId: user.id, kind: 'words', amount: 60, idempotencyKey: `race-${String(user.id)}-${String(n)}` });
        placed();
        await holding;
      });
    };
    const first = start(1);
    await bothPlaced[0];
    const second = start(2);
    await bothPlaced[1];
    release();
    const outcomes = await Promise.allSettled([first, second]);
    const refused = outcomes.filter((o) => o.status === 'rejected');
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    expect(refused).toHaveLength(1);
    expect(isBalanceRefused(refused[0]?.status === 'rejected' ? refused[0].reason : undefined)).toBe(true);
    expect((await getRawBalances(t.db, user.id)).words).toBe(40);
    expect(await t.db.selectFrom('wallet_holds').select('id').where('user_id', '=', user.id).execute()).toHaveLength(1);
    await expectConsistent(user.id);
  });

  it('the database itself refuses a negative balance', async () => {
    const user = await newUser(t.db);
    await grant(user.id, 'words', 5, `seed-n-${String(user.id)}`);
    await expect(t.db.updateTable('wallets').set({ balance: -1 }).where('user_id', '=', user.id).execute()).rejects.toThrow(/check/i);
  });
});

describe('holds whose work was lost', () => {
  it('a retry of a closed hold says it is closed, and an old hold no work refers to is given back', async () => {
    const user = await newUser(t.db);
    await grant(user.id, 'words', 100, `seed-s-${String(user.id)}`);
    const done = await placeHold(t.db, { userId: user.id, kind: 'words', amount: 30, idempotencyKey: `s-done-${String(user.id)}` });
    expect(done.status).toBe('held');
    await settleHold(t.db, done, 30);
    const retried = await placeHold(t.db, { userId: user.id, kind: 'words', amount: 30, idempotencyKey: `s-done-${String(user.id)}` });
    expect(retried).toMatchObject({ id: done.id, status: 'settled' });
    const lost = await placeHold(t.db, { userId: user.id, kind: 'words', amount: 50, idempotencyKey: `s-lost-${String(user.id)}` });
    const fresh = await placeHold(t.db, { userId: user.id, kind: 'words', amount: 10, idempotencyKey: `s-fresh-${String(user.id)}` });
    await t.db.updateTable('wallet_holds').set({ created_at: new Date(Date.now() - (HOLD_SWEEP_AFTER_MINUTES + 5) * 60_000) } as never).where('id', '=', lost.id).execute();
    expect(await closeHoldsOfEndedWork(t.ctx)).toBeGreaterThanOrEqual(1);
    const rows = await t.db.selectFrom('wallet_holds').select(['id', 'status']).where('id', 'in', [lost.id, fresh.id]).orderBy('id').execute();
    expect(rows).toEqual([
      { id: lost.id, status: 'released' },
      { id: fresh.id, status: 'held' },
    ]);
    expect((await getRawBalances(t.db, user.id)).words).toBe(100 - 30 - 10);
    await expectConsistent(user.id);
  });
});
