import fs from 'node:fs';
import path from 'node:path';
import type { FrameLocator, Page } from 'playwright-core';

/*
 * What the journeys around paying share: the sandbox's payment form, a plan's card, and the
 * screenshots to look at (with `E2E_SCREENSHOTS_DIR`).
 */

/** An expiry two years ahead (`MM/YY`): any future one will do. */
export function futureExpiry(): string {
  const now = new Date();
  return `${String(now.getMonth() + 1).padStart(2, '0')}/${String((now.getFullYear() + 2) % 100).padStart(2, '0')}`;
}

/** The sandbox checkout frame over the page. */
export const checkoutFrame = (page: Page): FrameLocator => page.frameLocator('iframe[title="Тестовая оплата"]');

/** Fills the sandbox checkout with `card` (a future expiry, any CVV) and pays `amount` (as its button says it). */
export async function payInCheckout(page: Page, card: string, amount: string): Promise<FrameLocator> {
  const frame = checkoutFrame(page);
  await frame.getByRole('heading', { name: 'Оплата картой' }).waitFor();
  await frame.getByLabel('Номер карты').fill(card);
  await frame.getByLabel('Срок действия').fill(futureExpiry());
  await frame.getByLabel('CVV', { exact: true }).fill('123');
  await frame.getByRole('button', { name: `Оплатить ${amount}` }).click();
  return frame;
}

/** A plan card of the tariffs widget, found by its name. */
export const planCard = (page: Page, name: string) => page.getByRole('article', { name, exact: true });

/** With `E2E_SCREENSHOTS_DIR` set, a full-page screenshot at the desktop width and at a phone's (390 px); otherwise nothing. */
export async function shots(page: Page, name: string): Promise<void> {
  const dir = process.env.E2E_SCREENSHOTS_DIR;
  if (!dir) return;
  fs.mkdirSync(dir, { recursive: true });
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
    await page.evaluate('window.scrollTo(0, 0)');
    await page.waitForTimeout(200);
    await page.screenshot({ path: path.join(dir, `${name}-${String(width)}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}
