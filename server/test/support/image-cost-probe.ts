import fs from 'node:fs';
import sharp from 'sharp';
import type { FileKind } from '@app/contracts';
import { ImageBudget } from '../../src/lib/image-budget.ts';
import { cleanImage, imageCost } from '../../src/lib/images.ts';

/*
 * Run alone in a fresh process (image-cost.test.ts): checks one picture as an upload is checked and
 * prints, as JSON, the memory it took (the process's peak over what it held before, from /proc)
 * beside what `imageCost` said it would take.
 */

const [file, kind] = process.argv.slice(2) as [string, FileKind];
const data = fs.readFileSync(file);
const estimate = imageCost(await sharp(data, { limitInputPixels: false }).metadata(), data);
const status = () => fs.readFileSync('/proc/self/status', 'utf8');
const kb = (text: string, key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(text)?.[1]);
// The peak from here on: what was loaded before is not the picture's.
fs.writeFileSync('/proc/self/clear_refs', '5');
const before = kb(status(), 'VmRSS');
const result = await cleanImage(data, kind, new ImageBudget(64 * 1024 ** 3, 1000));
const peak = kb(status(), 'VmHWM');
process.stdout.write(JSON.stringify({ ok: result.ok, used: (peak - before) * 1024, estimate }));
