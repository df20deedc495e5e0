import { describe, expect, it } from 'vitest';
import { asciiName, contentDisposition, downloadName } from './content-disposition.ts';

/** What a client that reads filename* (RFC 8187) gets back. */
const decoded = (header: string) => decodeURIComponent(/filename\*=UTF-8''([^;\s]+)/.exec(header)![1]!);
const fallback = (header: string) => /filename="([^"]*)"/.exec(header)![1]!;

describe('content disposition of a download', () => {
  it.each([
    ['Škoda Citroën 日本 AB.xlsx', 'Škoda Citroën 日本 AB.xlsx', 'Skoda Citroen __ AB.xlsx'],
    ['Łódź Sp. z o.o. ā ū ė.csv', 'Łódź Sp. z o.o. ā ū ė.csv', 'Lodz Sp. z o.o. a u e.csv'],
    ['"Quoted" name.xlsx', '"Quoted" name.xlsx', '_Quoted_ name.xlsx'],
    ['a/b\\c.xlsx', 'a_b_c.xlsx', 'a_b_c.xlsx'],
    ['bell\u0007tab\tnew\nline\u0000.xlsx', 'bell_tab_new_line_.xlsx', 'bell_tab_new_line_.xlsx'],
    ["100% it's (ok)*.csv", "100% it's (ok)*.csv", "100_ it's (ok)*.csv"],
  ])('when the name is %j, then filename* gives it back and filename is printable ASCII', (name, expected, ascii) => {
    const header = contentDisposition(name);
    expect(header.startsWith('attachment; ')).toBe(true);
    // Only visible ASCII in the header: Node refuses anything else (ERR_INVALID_CHAR).
    expect(header).toMatch(/^[\x20-\x7e]+$/);
    expect(decoded(header)).toBe(expected);
    expect(fallback(header)).toBe(ascii);
  });

  it('when the name is empty or only control characters, then the fallback name is offered', () => {
    expect(downloadName('', 'errors.xlsx')).toBe('errors.xlsx');
    expect(decoded(contentDisposition('   '))).toBe('download');
  });

  it('when the name is very long, then it is cut to 150 characters, not inside a character', () => {
    const name = '日'.repeat(100) + '😀'.repeat(100);
    const cut = downloadName(name);
    expect(Array.from(cut)).toHaveLength(150);
    expect(cut.endsWith('😀')).toBe(true);
    expect(asciiName(cut)).toMatch(/^_+$/);
  });
});
