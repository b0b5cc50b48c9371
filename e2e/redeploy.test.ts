import { describe, expect, it } from 'vitest';
import { newUser, walletState, type TestUser } from '@app/server/testing';
import { credit } from '../server/src/features/wallet/wallet.queries.ts';
import { openPage, setupClusterE2E } from './support/index.ts';

/*
 * A redeploy as production does it: each web process is stopped (SIGTERM) and started again in
 * turn, while users keep working through nginx. A stopping process takes no new connections
 * (nginx sends them to the other), lets its answers finish, then exits: no request fails.
 */

const e2e = setupClusterE2E({ env: { DEMO_WORD_DELAY_MS: '15', DEMO_STEP_DELAY_MS: '60' } });

async function richUser(): Promise<TestUser> {
  const user = await newUser(e2e.cluster.db);
  await e2e.cluster.db.transaction().execute(async (tx) => {
    await credit(tx, { userId: user.id, kind: 'words', reason: 'admin_adjustment', idempotencyKey: `redeploy-w-${String(user.id)}` }, 1_000_000);
    await credit(tx, { userId: user.id, kind: 'media', reason: 'admin_adjustment', idempotencyKey: `redeploy-m-${String(user.id)}` }, 10_000);
  });
  return user;
}

interface Outcome {
  kind: string;
  status: number | string;
}

describe('a redeploy under traffic', () => {
  it('restarting one web process at a time: every request answered, answers and runs finish, balances equal their ledgers', async () => {
    const users = await Promise.all(Array.from({ length: 8 }, () => richUser()));
    const [chatModel, product] = await Promise.all([
      e2e.cluster.db.selectFrom('ai_models').select('id').where('name', '=', 'Демо-ассистент').executeTakeFirstOrThrow(),
      e2e.cluster.db.selectFrom('ai_products').select('id').where('name', '=', 'Картинка по описанию').executeTakeFirstOrThrow(),
    ]);

    // A person watching a run and an answer in the browser while it happens.
    const watcher = await richUser();
    const page = await e2e.signedInPage(watcher);
    await openPage(page, e2e.url(`/ai-products/img/${String(product.id)}`));

    const outcomes: Outcome[] = [];
    let running = true;
    const call = async (kind: string, user: TestUser, path: string, init: { method?: string; body?: FormData } = {}) => {
      try {
        const res = await fetch(`${e2e.cluster.url}${path}`, { ...init, headers: { authorization: `Bearer ${user.token}` } });
        await res.arrayBuffer();
        outcomes.push({ kind, status: res.status });
      } catch (err) {
        outcomes.push({ kind, status: `network: ${(err as Error).message}` });
      }
    };
    const traffic = users.map(async (user, i) => {
      for (let round = 0; running; round++) {
        await call('user', user, '/api/new/user');
        await call('tariff', user, '/api/new/tariff?frontend=1');
        const message = new FormData();
        message.set('ai_models_id', String(chatModel.id));
        message.set('message', `Вопрос ${String(round)} от ${String(i)}`);
        await call('chat', user, '/api/new/chat', { method: 'POST', body: message });
        if (round % 3 === 0) {
          const run = new FormData();
          run.set('product_id', String(product.id));
          run.set('prompt', `Сад ${String(round)}`);
          await call('generation', user, '/api/new/generations', { method: 'POST', body: run });
        }
        await call('history', user, '/api/new/generations?type=image&page=1');
      }
    });

    // The run starts before the redeploy and is followed through it.
    await page.getByRole('textbox', { name: 'Описание' }).fill('Маяк в тумане');
    await page.getByRole('button', { name: /^Создать/ }).click();
    await page.getByRole('progressbar', { name: 'Ход генерации' }).waitFor();

    await e2e.cluster.restart('web1');
    await e2e.cluster.restart('web2');
    running = false;
    await Promise.all(traffic);

    const failed = outcomes.filter((o) => typeof o.status !== 'number' || o.status >= 500);
    expect(failed, `${JSON.stringify(failed.slice(0, 10))}\nnginx: ${e2e.cluster.nginxErrors().split('\n').filter((l) => !/connect\(\) failed|temporarily disabled/.test(l)).slice(-15).join('\n')}\nweb1: ${e2e.cluster.tail('web1')}\nweb2: ${e2e.cluster.tail('web2')}`).toEqual([]);
    // Every kind of request was answered while processes were going down and up.
    for (const kind of ['user', 'tariff', 'chat', 'generation', 'history']) expect(outcomes.filter((o) => o.kind === kind && o.status === 200).length, kind).toBeGreaterThan(0);

    await expect.poll(() => page.locator('.gen-run .gen-run__status').textContent(), { timeout: 60_000 }).toBe('Готово');
    await expect
      .poll(async () => {
        const busy = await e2e.cluster.db.selectFrom('generations').select('id').where('status', 'in', ['queued', 'running']).execute();
        const writing = await e2e.cluster.db.selectFrom('chat_messages').select('id').where('status', '=', 'generating').execute();
        return busy.length + writing.length;
      }, { timeout: 120_000 })
      .toBe(0);
    for (const user of [...users, watcher]) {
      const state = await walletState(e2e.cluster.db, user.id);
      expect(state.balance).toEqual(state.sums);
    }
    const open = await e2e.cluster.db.selectFrom('wallet_holds').select('id').where('status', '=', 'held').execute();
    expect(open).toEqual([]);
  });
});
