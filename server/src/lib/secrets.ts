import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import type { Config } from '../config.ts';
import { hmacSha256 } from './crypto.ts';

export interface Secrets {
  /** Signs CSRF tokens and hashes email codes. */
  appSecret: string;
  /** Verifies CloudPayments notifications (the sandbox signs with it too). */
  cloudpaymentsSecret: string;
}

/** APP_SECRET, or one generated once and kept in DATA_DIR so sessions survive restarts. */
export function resolveSecrets(config: Config): Secrets {
  let appSecret = config.appSecret;
  if (!appSecret) {
    const file = path.join(config.dataDir, 'app-secret');
    if (fs.existsSync(file)) {
      appSecret = fs.readFileSync(file, 'utf8').trim();
    } else {
      appSecret = crypto.randomBytes(32).toString('base64url');
      fs.mkdirSync(config.dataDir, { recursive: true });
      fs.writeFileSync(file, appSecret, { mode: 0o600 });
    }
  }
  const cloudpaymentsSecret = config.cloudpayments.sandbox ? hmacSha256(appSecret, 'cloudpayments-sandbox', 'base64url') : config.cloudpayments.apiSecret;
  return { appSecret, cloudpaymentsSecret };
}
