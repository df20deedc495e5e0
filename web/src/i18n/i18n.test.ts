import { describe, expect, it } from 'vitest';
import { enUS } from '@mss/contracts/messages';
import { i18n } from './index.ts';
import { uiEnUS } from './en-US.ts';

describe('catalogues', () => {
  it('when a shared message has placeholders, then the en-US catalogue fills them', () => {
    expect(i18n.getFixedT('en-US')('auth.throttle', { seconds: 42 })).toBe('Too many login attempts. Please try again in 42 seconds.');
    expect(i18n.getFixedT('en-US')('import.duplicate_code', { row: 3, code: '1001' })).toBe('Report has duplicate codes on row 3 for code 1001.');
  });

  it('when a locale has no translation yet, then it falls back to en-US', () => {
    for (const locale of ['sv-SE', 'fi-FI', 'dk-DK', 'no-NO']) {
      const t = i18n.getFixedT(locale);
      expect(t('auth.failed')).toBe(enUS['auth.failed']);
      expect(t('title.dashboard')).toBe('Dashboard');
    }
  });

  it('when a list or table is empty, then every locale says it in one wording, whichever key a screen uses', () => {
    const emptyKeys = Object.keys(uiEnUS).filter((key) => key.endsWith('.empty'));
    expect(emptyKeys.sort()).toEqual(['common.empty']);
    for (const locale of ['en-US', 'sv-SE', 'fi-FI', 'dk-DK', 'no-NO']) {
      const t = i18n.getFixedT(locale);
      for (const key of emptyKeys) expect(t(key), `${locale} ${key}`).toBe('Nothing to show.');
    }
  });
});
