import { describe, expect, it } from 'vitest';
import { parseRange } from '../../src/features/files/byte-range.ts';
import { contentDisposition, downloadName, extensionFor, sanitizeFileName } from '../../src/features/files/file-names.ts';

describe('sanitizeFileName', () => {
  it.each([
    ['Отчёт за май.pdf', 'Отчёт за май.pdf'],
    ['../../etc/passwd', 'passwd'],
    ['C:\\Users\\me\\photo.png', 'photo.png'],
    ['..', 'file'],
    ['.htaccess', 'htaccess'],
    ['', 'file'],
    [undefined, 'file'],
    ['\u0000\u0007', 'file'],
    ['invoice\u202Efdp.exe', 'invoicefdp.exe'],
    ['a\u200Bb\uFEFF.txt', 'ab.txt'],
    ['two\n\tlines  here.txt', 'two lines here.txt'],
    ['what?<is>:"this"|*.txt', 'what__is___this___.txt'],
    ['trailing dots...', 'trailing dots'],
    ['e\u0301.txt', '\u00e9.txt'],
    ['lone\uD800surrogate.txt', 'lonesurrogate.txt'],
  ])('%j → %j', (given, kept) => {
    expect(sanitizeFileName(given)).toBe(kept);
  });

  it('cuts a long name to 255 characters, keeping the extension', () => {
    const name = sanitizeFileName(`${'я'.repeat(400)}.jpeg`);
    expect(Array.from(name)).toHaveLength(255);
    expect(name.endsWith('я.jpeg')).toBe(true);
  });
});

describe('downloadName', () => {
  it.each([
    ['result-3-1', 'image/png', 'result-3-1.png'],
    ['result-3-1', 'video/mp4', 'result-3-1.mp4'],
    ['result-7-2', 'image/webp', 'result-7-2.webp'],
    ['Картинка по описанию 3-1.png', 'image/png', 'Картинка по описанию 3-1.png'],
    ['photo.JPEG', 'image/jpeg', 'photo.JPEG'],
    ['scan', 'image/jpeg', 'scan.jpg'],
    ['notes', 'text/plain; charset=utf-8', 'notes.txt'],
    // A name whose extension is another type's: the type decided from the bytes wins.
    ['cat.jpg', 'image/png', 'cat.jpg.png'],
    ['Mr. Smith', 'image/png', 'Mr. Smith.png'],
    ['data', 'application/octet-stream', 'data'],
  ])('%j of %s → %j', (name, type, served) => {
    expect(downloadName(name, type)).toBe(served);
  });

  it('keeps a name at the longest allowed, the extension included', () => {
    const served = downloadName('я'.repeat(255), 'video/mp4');
    expect(Array.from(served)).toHaveLength(255);
    expect(served.endsWith('я.mp4')).toBe(true);
  });

  it('knows the usual extension of each type it serves', () => {
    expect([extensionFor('image/png'), extensionFor('image/jpeg'), extensionFor('video/mp4'), extensionFor('IMAGE/WEBP'), extensionFor('application/zip')]).toEqual(['png', 'jpg', 'mp4', 'webp', null]);
  });
});

describe('contentDisposition', () => {
  it('gives an ASCII fallback and the exact name in RFC 5987 form', () => {
    expect(contentDisposition('attachment', 'Отчёт (май) 100%.pdf')).toBe(
      `attachment; filename="_____ (___) 100_.pdf"; filename*=UTF-8''%D0%9E%D1%82%D1%87%D1%91%D1%82%20%28%D0%BC%D0%B0%D0%B9%29%20100%25.pdf`,
    );
    expect(contentDisposition('inline', "café's \"menu\".txt")).toBe(`inline; filename="cafe's _menu_.txt"; filename*=UTF-8''caf%C3%A9%27s%20%22menu%22.txt`);
  });
});

describe('parseRange', () => {
  it.each<[string | undefined, number, ReturnType<typeof parseRange>]>([
    [undefined, 10, undefined],
    ['bytes=0-4', 10, { start: 0, end: 4 }],
    ['bytes=5-', 10, { start: 5, end: 9 }],
    ['bytes=-3', 10, { start: 7, end: 9 }],
    ['bytes=-30', 10, { start: 0, end: 9 }],
    ['bytes=8-100', 10, { start: 8, end: 9 }],
    ['bytes=10-', 10, 'unsatisfiable'],
    ['bytes=5-2', 10, 'unsatisfiable'],
    ['bytes=-0', 10, 'unsatisfiable'],
    ['bytes=0-1,4-5', 10, undefined],
    ['items=0-1', 10, undefined],
    ['bytes=abc', 10, undefined],
    ['bytes=-', 10, undefined],
    ['bytes=99999999999999999999-', 10, undefined],
    ['bytes=0-0', 0, undefined],
  ])('%j of %d bytes → %j', (header, size, expected) => {
    expect(parseRange(header, size)).toEqual(expected);
  });
});
