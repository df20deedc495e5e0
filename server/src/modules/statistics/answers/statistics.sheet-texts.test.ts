import { describe, expect, it } from 'vitest';
import { LOCALES } from '@mss/contracts/enums';
import { type SheetTextKey, sheetText } from './statistics.sheet-texts.ts';
import { sheetTextsDkDK, sheetTextsFiFI, sheetTextsNoNO, sheetTextsSvSE } from './statistics.sheet-texts.locales.ts';

const translations = { 'sv-SE': sheetTextsSvSE, 'fi-FI': sheetTextsFiFI, 'dk-DK': sheetTextsDkDK, 'no-NO': sheetTextsNoNO };
const keys = Object.keys(sheetTextsSvSE) as SheetTextKey[];
const english = Object.fromEntries(keys.map((key) => [key, sheetText('en-US', key, {})])) as Record<SheetTextKey, string>;

/** The same word in the language: listed, so that a text added later and left English fails. */
const SAME_AS_ENGLISH: Record<keyof typeof translations, readonly SheetTextKey[]> = {
  'sv-SE': ['period', 'estimated_period'],
  'fi-FI': [],
  'dk-DK': ['total'],
  'no-NO': [],
};
const placeholders = (text: string) => [...text.matchAll(/:(\w+)/g)].map((m) => m[1]).sort();

describe('the statistics downloads’ texts', () => {
  for (const [locale, catalogue] of Object.entries(translations) as [keyof typeof translations, Record<SheetTextKey, string>][])
    it(`${locale}: every text, with en-US's placeholders, none left English`, () => {
      expect(LOCALES).toContain(locale);
      expect(Object.keys(catalogue).sort()).toEqual(Object.keys(english).sort());
      for (const key of keys) {
        expect(catalogue[key].trim(), `${locale} ${key}`).not.toBe('');
        expect(placeholders(catalogue[key]), `${locale} ${key}`).toEqual(placeholders(english[key]));
        if (catalogue[key] === english[key]) expect(SAME_AS_ENGLISH[locale], `${locale} ${key} is left English`).toContain(key);
      }
    });

  it('when a download is made for a Swedish reader, then its header block is Swedish', () => {
    expect(sheetText('sv-SE', 'coverage_value', { approved: 4, expected: 5 })).toBe(
      sheetTextsSvSE.coverage_value.replace(':approved', '4').replace(':expected', '5'),
    );
    expect(sheetText('sv-SE', 'market')).not.toBe(sheetText('en-US', 'market'));
  });
});
