/*
 * CSV the way a Russian Excel opens it: UTF-8 with a byte order mark (else Cyrillic reads as
 * mojibake), fields separated by «;» and decimals with a comma (the list and decimal separators
 * of Russian regional settings), CRLF line ends, RFC 4180 quoting.
 */

/** Written first: tells Excel the file is UTF-8. */
export const CSV_BOM = '\uFEFF';
export const CSV_SEPARATOR = ';';

/** Characters that make a spreadsheet read a cell as a formula (`=`, `+`, `-`, `@`) or that some treat alike (tab, CR). */
const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[";\r\n]|^\s|\s$/;

/**
 * A cell of text that came from people (an email, a reason, a plan's name): a value a
 * spreadsheet would run as a formula gets a leading `'`, and it is quoted when it holds the
 * separator, a quote, a line break or edge spaces.
 */
export function csvText(value: string | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** A whole number the service itself made (an id, words): as is. */
export const csvInteger = (n: number | null | undefined): string => (n === null || n === undefined ? '' : String(Math.trunc(n)));

/** A fixed-point amount stored in hundredths or tenths: `-12345` kopecks → `-123,45`. */
export function csvFixed(units: number, decimals: 1 | 2): string {
  const scale = decimals === 1 ? 10 : 100;
  const sign = units < 0 ? '-' : '';
  const abs = Math.abs(Math.trunc(units));
  return `${sign}${String(Math.floor(abs / scale))},${String(abs % scale).padStart(decimals, '0')}`;
}

/** One line of cells already made by the helpers above. */
export const csvLine = (cells: readonly string[]): string => `${cells.join(CSV_SEPARATOR)}\r\n`;
