import { describe, expect, it } from 'vitest';
import { catalogues, enUS as shared, type MessageKey, translate } from '../messages.ts';
import { mailMessages } from '../mail-messages.ts';
import { translations } from './index.ts';

/*
 * The four translations of the shared catalogue: every key (the types say so too), the same
 * placeholders as en-US, and nothing left English but the words that are the same in the language
 * (listed here, so that a text added later and not translated fails).
 */
const SAME_AS_ENGLISH: Record<keyof typeof translations, readonly MessageKey[]> = {
  'sv-SE': [
    'history.sheet.period',
    'attribute.body',
    'attribute.period_uuid',
    'attribute.start',
    'attribute.status',
    'attribute.token',
    'attribute.version',
    'enum.preflight_severity.20',
  ],
  'fi-FI': [],
  'dk-DK': ['attribute.start', 'attribute.status', 'attribute.token', 'attribute.version', 'enum.preflight_severity.20', 'enum.role.admin'],
  'no-NO': ['attribute.start', 'attribute.status', 'attribute.token', 'enum.preflight_severity.20', 'enum.role.admin'],
};

/** The en-US texts: the shared catalogue and the mails'. */
const enUS: Record<MessageKey, string> = { ...shared, ...mailMessages };
const placeholders = (text: string) => [...text.matchAll(/:([a-z_]+)/g)].map((m) => m[1]).sort();

describe('translations of the shared catalogue', () => {
  for (const [locale, catalogue] of Object.entries(translations) as [keyof typeof translations, Record<MessageKey, string>][]) {
    it(`${locale}: every key, with en-US's placeholders, and no text left English`, () => {
      expect(Object.keys(catalogue).sort()).toEqual(Object.keys(enUS).sort());
      for (const key of Object.keys(enUS) as MessageKey[]) {
        expect(catalogue[key].trim(), `${locale} ${key}`).not.toBe('');
        expect(placeholders(catalogue[key]), `${locale} ${key}`).toEqual(placeholders(enUS[key]));
        // The language names are each language's own, in every language.
        if (key.startsWith('enum.locale.')) expect(catalogue[key], key).toBe(enUS[key]);
        else if (catalogue[key] === enUS[key]) expect(SAME_AS_ENGLISH[locale], `${locale} ${key} is left English`).toContain(key);
      }
    });
  }

  it('when imported, then the server translates into each language, and a message keeps en-US for en-US', () => {
    expect(catalogues['sv-SE']['auth.unauthenticated']).toBe(translations['sv-SE']['auth.unauthenticated']);
    expect(translate('auth.throttle', { seconds: 42 }, 'sv-SE')).toBe('För många inloggningsförsök. Försök igen om 42 sekunder.');
    expect(translate('auth.throttle', { seconds: 42 }, 'en-US')).toBe('Too many login attempts. Please try again in 42 seconds.');
    // A word the message names (the preflight's figure) in the reader's language too.
    const params = { code: '1001', name: 'Cars', percent: '40', period: '2026-09' };
    expect(translate('preflight.deviation_rise', params, 'en-US', { field: 'volume' })).toBe('Code 1001 (Cars): volume rose by 40 % against 2026-09.');
    expect(translate('preflight.deviation_rise', params, 'sv-SE', { field: 'volume' })).toContain('volym');
  });
});
