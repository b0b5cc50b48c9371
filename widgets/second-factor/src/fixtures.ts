import type { SecondFactorSetup } from '@app/contracts/browser';

/** A small QR-like pattern for stories and tests (the server draws the real one). */
const pattern = (size: number) => {
  let path = '';
  for (let y = 0; y < size; y++) for (let x = 0; x < size; x++) if ((x < 7 && y < 7) || (x > size - 8 && y < 7) || (x < 7 && y > size - 8) ? (x % 6 === 0 || y % 6 === 0 || (x % 6 > 1 && x % 6 < 5 && y % 6 > 1 && y % 6 < 5)) : (x * 7 + y * 13) % 5 < 2) path += `M${String(x)} ${String(y)}h1v1h-1z`;
  return path;
};

export const SETUP: SecondFactorSetup = {
  secret: 'JBSWY3DPEHPK3PXP',
  otpauth_url: 'otpauth://totp/%D0%9D%D0%B5%D0%B9%D1%80%D0%BE%D1%81%D1%82%D1%83%D0%B4%D0%B8%D1%8F:boris%40example.ru?secret=JBSWY3DPEHPK3PXP&period=30&issuer=%D0%9D%D0%B5%D0%B9%D1%80%D0%BE%D1%81%D1%82%D1%83%D0%B4%D0%B8%D1%8F',
  qr: { size: 29, path: pattern(29) },
};
