import fs from 'node:fs';
import { chromium, type Browser, type LaunchOptions } from 'playwright-core';

/** Debian's Chromium; a browser is never downloaded. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * The features playwright-core 1.65.1 (pinned) turns off in every Chromium it launches. Chromium
 * reads `--disable-features` once — the last one given wins, measured here — and a launch's own
 * arguments come after playwright's, so a list of our own must carry playwright's too
 * (e2e/browser-flags.test.ts fails when an upgrade adds one this list lacks).
 */
const PLAYWRIGHT_DISABLED_FEATURES = [
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'TcpPortRandomizationWin',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
  'msForceBrowserSignIn',
  'msEdgeUpdateLaunchServicesPreferredVersion',
];

/**
 * Chromium 156 (Debian's 156.0.8078.108) builds its address bar's popup as a WebUI page for every
 * new tab, headless too: a renderer loading ~70 `chrome://` modules beside the page under test.
 * On two cores it cost ≈ 120 ms of CPU a tab and, on the emulated phone (the page's renderer slowed
 * 4×), pushed every widget's mount on /login from ≈ 1.9 s to ≈ 2.6 s. No phone has that popup, and
 * no test opens the address bar.
 */
export const OMNIBOX_POPUP_FEATURES = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup', 'WebUIOmniboxFullPopup'];

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
  `--disable-features=${[...PLAYWRIGHT_DISABLED_FEATURES, ...OMNIBOX_POPUP_FEATURES].join(',')}`,
];

/**
 * Headless Chromium with a fresh profile: playwright gives every `launch()` its own temporary
 * `--user-data-dir` and removes it on close, and each test gets its own context on top.
 */
export async function launchBrowser(opts: LaunchOptions = {}): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM_PATH)) throw new Error(`Chromium not found at ${CHROMIUM_PATH} (apt-get install chromium)`);
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS, ...opts });
}
