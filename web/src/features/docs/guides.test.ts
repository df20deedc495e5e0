import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/*
 * The user guide in each language (docs/user-guide.<locale>.md) follows the English one: the same
 * sections at the same levels and the same code blocks, and no paragraph left English. A section
 * added in English and not translated fails here.
 */
const docs = path.resolve(__dirname, '../../../../docs');
const read = (name: string) => fs.readFileSync(path.join(docs, name), 'utf8');
const headings = (text: string) =>
  text
    .split('\n')
    .filter((line) => /^#{1,6} /.test(line))
    .map((line) => line.match(/^#+/)![0]);
const codeBlocks = (text: string) => [...text.matchAll(/^ *```[^\n]*\n([\s\S]*?)^ *```/gm)].map((m) => m[1]);
/** The guide's prose lines (no headings, code, tables or lists of code), to find one left in English. */
const proseLines = (text: string) =>
  text
    .replace(/^ *```[\s\S]*?^ *```/gm, '')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.length > 40 && !line.startsWith('|') && !line.startsWith('`'));

const english = read('user-guide.md');

describe('the user guide in each language', () => {
  for (const locale of ['sv-SE', 'fi-FI', 'dk-DK', 'no-NO']) {
    it(`${locale}: the same sections and code blocks as the English, none of its prose left English`, () => {
      const guide = read(`user-guide.${locale}.md`);
      expect(headings(guide)).toEqual(headings(english));
      expect(codeBlocks(guide)).toEqual(codeBlocks(english));
      const englishLines = new Set(proseLines(english));
      expect(proseLines(guide).filter((line) => englishLines.has(line))).toEqual([]);
    });
  }
});
