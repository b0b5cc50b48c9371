import fs from 'node:fs';
import { chromium, type Browser, type LaunchOptions } from 'playwright-core';

/** Debian's Chromium; a browser is never downloaded. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Flags verified on this machine (shared/notes/module-federation.md): without the
 * background-networking ones Chromium floods the closed network with refused connections.
 */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * Headless Chromium with a fresh profile: playwright gives every `launch()` its own temporary
 * `--user-data-dir` and removes it on close, and each test gets its own context on top.
 */
export async function launchBrowser(opts: LaunchOptions = {}): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM_PATH)) throw new Error(`Chromium not found at ${CHROMIUM_PATH} (apt-get install chromium)`);
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS, ...opts });
}
