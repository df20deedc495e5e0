import { describe, expect, it } from 'vitest';
import { findDisallowedText, hasDisallowedCharacters, truncateText } from './text.ts';

describe('text that no input may hold', () => {
  it('when a text holds a NUL, another C0 control character or half a surrogate pair, then it is refused', () => {
    for (const text of ['a\u0000', '\u0001', 'a\u001fb', 'a\u000bb', '\ud800', 'a\ud800b', '\udc00', 'a\udc00\ud800b']) {
      expect(hasDisallowedCharacters(text), JSON.stringify(text)).toBe(true);
    }
  });

  it('when a text holds tabs, line breaks, emoji (whole surrogate pairs) or letters of any script, then it is text', () => {
    for (const text of ['', 'a\tb', 'line\r\nline\n', 'Grüße 😀 ÅÄÖ', '\ud83d\ude00', 'Ελλάδα', '東京']) {
      expect(hasDisallowedCharacters(text), JSON.stringify(text)).toBe(false);
    }
  });

  it('when strings are nested in objects and lists, then their paths are named as the error handler names fields', () => {
    expect(findDisallowedText({ name: 'ok', settings: { x: 'a\u0000' }, items: [{ name: 'ok' }, { name: '\ud800' }] }, 'body')).toEqual([
      'settings.x',
      'items.1.name',
    ]);
    expect(findDisallowedText('a\u0000', 'body')).toEqual(['body']);
    expect(findDisallowedText({ 'bad\u0000key': 'a\u0000' }, 'body')).toEqual(['body']);
    expect(findDisallowedText(undefined, 'body')).toEqual([]);
  });

  it('when a text is cut, then a surrogate pair is never split in half', () => {
    expect(truncateText('ab😀', 3)).toBe('ab');
    expect(truncateText('ab😀', 4)).toBe('ab😀');
    expect(truncateText('abc', 200)).toBe('abc');
  });
});
