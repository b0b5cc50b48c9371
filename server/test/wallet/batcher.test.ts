import { describe, expect, it } from 'vitest';
import { WalletBatcher, type WalletOp } from '../../src/features/wallet/wallet.queries.ts';

const hold = (key: string): WalletOp => ({ op: 'hold', user_id: 1, kind: 'words', amount: 10, key, ref_type: null, ref_id: null });
const settle = (holdId: number): WalletOp => ({ op: 'settle', hold_id: holdId, spent: 7 });

/** A stand-in for `wallet_apply`: answers after a round of I/O, records every call, may fail some. */
function fakeApply(fail?: (call: number) => Error | undefined) {
  const calls: WalletOp[][] = [];
  let inFlight = 0;
  let mostInFlight = 0;
  const apply = async (ops: readonly WalletOp[]) => {
    calls.push([...ops]);
    const call = calls.length;
    inFlight += 1;
    mostInFlight = Math.max(mostInFlight, inFlight);
    await new Promise((resolve) => setTimeout(resolve, 1));
    inFlight -= 1;
    const err = fail?.(call);
    if (err) throw err;
    return ops.map((op) => (op.op === 'hold' ? { hold_id: Number(op.key.split('-').pop()), key: op.key } : { settled: op.hold_id }));
  };
  return { apply, calls, mostInFlight: () => mostInFlight };
}

describe('wallet batcher', () => {
  it('sends what its callers send on at once in the same call: 20 callers of hold then settle make calls of 20, not of 1 and 19', async () => {
    const fake = fakeApply();
    const batcher = new WalletBatcher(fake.apply);
    const results: unknown[] = [];
    await Promise.all(
      Array.from({ length: 20 }, async (_, worker) => {
        for (let round = 0; round < 10; round++) {
          const id = worker * 100 + round;
          const held = (await batcher.run('1:words', hold(`w-${String(id)}`))) as { hold_id: number };
          results.push(await batcher.run('1:words', settle(held.hold_id)));
        }
      }),
    );
    expect(fake.calls.map((c) => c.length)).toEqual(Array.from({ length: 20 }, () => 20));
    expect(fake.mostInFlight()).toBe(1);
    // Every caller got the answer to its own operation.
    expect(results).toHaveLength(200);
    expect(new Set(results.map((r) => (r as { settled: number }).settled)).size).toBe(200);
  });

  it('keeps the order of one wallet’s operations, splits calls at its largest batch, and runs two wallets side by side', async () => {
    const fake = fakeApply();
    const batcher = new WalletBatcher(fake.apply, 4);
    const keys = Array.from({ length: 10 }, (_, i) => `a-${String(i)}`);
    const ops = keys.map(hold);
    const other = hold('b-99');
    const answers = await Promise.all([...ops.map((op) => batcher.run('1:words', op)), batcher.run('2:words', other)]);
    expect(answers.slice(0, 10)).toEqual(keys.map((key, i) => ({ hold_id: i, key })));
    expect(fake.calls.map((c) => c.length)).toEqual([4, 1, 4, 2]);
    expect(fake.calls.filter((c) => c.length !== 1).flat()).toEqual(ops);
    // The second wallet's call went out beside the first's, not after it.
    expect(fake.mostInFlight()).toBe(2);
  });

  it('sends a call a deadlock aborted once more; any other failure reaches every caller of that call, and the next call goes on', async () => {
    const deadlock = Object.assign(new Error('deadlock detected'), { code: '40P01' });
    const broken = Object.assign(new Error('connection lost'), { code: '57P01' });
    const fake = fakeApply((call) => (call === 1 ? deadlock : call === 3 ? broken : undefined));
    const batcher = new WalletBatcher(fake.apply);

    await expect(Promise.all([batcher.run('1:words', hold('d-1')), batcher.run('1:words', hold('d-2'))])).resolves.toEqual([
      { hold_id: 1, key: 'd-1' },
      { hold_id: 2, key: 'd-2' },
    ]);
    expect(fake.calls).toEqual([[hold('d-1'), hold('d-2')], [hold('d-1'), hold('d-2')]]);

    const failed = await Promise.allSettled([batcher.run('1:words', hold('f-3')), batcher.run('1:words', hold('f-4'))]);
    expect(failed.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(failed.map((r) => (r.status === 'rejected' ? (r.reason as Error).message : ''))).toEqual(['connection lost', 'connection lost']);
    expect(fake.calls).toHaveLength(3);

    await expect(batcher.run('1:words', hold('n-5'))).resolves.toEqual({ hold_id: 5, key: 'n-5' });
    expect(fake.calls).toHaveLength(4);
  });
});
