import { describe, expect, it } from 'vitest';
import { enUS } from '@mss/contracts/messages';
import { svSE } from '@mss/contracts/locales/sv-SE';
import { i18n, loadLocale } from './index.ts';
import { type UiKey, uiEnUS } from './en-US.ts';
import { statisticsTexts } from './statistics.ts';
import { uiSvSE } from './locales/sv-SE.ts';
import { uiFiFI } from './locales/fi-FI.ts';
import { uiDkDK } from './locales/dk-DK.ts';
import { uiNoNO } from './locales/no-NO.ts';
import { statisticsSvSE } from './locales/statistics.sv-SE.ts';
import { statisticsFiFI } from './locales/statistics.fi-FI.ts';
import { statisticsDkDK } from './locales/statistics.dk-DK.ts';
import { statisticsNoNO } from './locales/statistics.no-NO.ts';
import { communicationTexts } from '../features/communications/texts.ts';
import { importTexts } from '../components/import-texts.ts';
import { listTexts } from '../components/list-texts.ts';
import { organizationTexts } from '../features/organizations/texts.ts';
import { auditTexts } from '../features/audit/texts.ts';
import { historyTexts } from '../features/history/texts.ts';
import { twoFactorTexts } from '../features/profile/two-factor-texts.ts';
import { communicationsSvSE } from './locales/communications.sv-SE.ts';
import { communicationsFiFI } from './locales/communications.fi-FI.ts';
import { communicationsDkDK } from './locales/communications.dk-DK.ts';
import { communicationsNoNO } from './locales/communications.no-NO.ts';

type Key =
  | UiKey
  | keyof typeof statisticsTexts
  | keyof typeof communicationTexts
  | keyof typeof importTexts
  | keyof typeof listTexts
  | keyof typeof organizationTexts
  | keyof typeof auditTexts
  | keyof typeof historyTexts
  | keyof typeof twoFactorTexts;
const english: Record<Key, string> = {
  ...uiEnUS,
  ...statisticsTexts,
  ...communicationTexts,
  ...importTexts,
  ...listTexts,
  ...organizationTexts,
  ...auditTexts,
  ...historyTexts,
  ...twoFactorTexts,
};
const translations = {
  'sv-SE': { ...uiSvSE, ...statisticsSvSE, ...communicationsSvSE },
  'fi-FI': { ...uiFiFI, ...statisticsFiFI, ...communicationsFiFI },
  'dk-DK': { ...uiDkDK, ...statisticsDkDK, ...communicationsDkDK },
  'no-NO': { ...uiNoNO, ...statisticsNoNO, ...communicationsNoNO },
} satisfies Record<string, Record<Key, string>>;

/**
 * Texts that are the same words in the language, and the product's name (one name in every language):
 * listed, so that a text added later and left English fails.
 */
const SAME_AS_ENGLISH: Record<keyof typeof translations, readonly Key[]> = {
  'sv-SE': [
    'app.name',
    'audit.kind.period',
    'nav.group.administration',
    'reporting.status',
    'reporting.period.model',
    'reporting.period.title',
    'reporting.rows.compare.period',
    'reporting.approval.status_filter',
    'history.plan.period',
    'history.col.status',
    'reporting.import.source_api',
    'admin.field.id',
    'admin.release.version',
    'admin.information_modal.body',
    'admin.code_section.start',
    'admin.company.status',
    'admin.user.status',
    'feedback.ok',
    'profile.tokens.system',
    'statistics.view.period',
    'statistics.trend.title',
    'statistics.trend.period',
    'communication.list.status_filter',
    'communication.col.status',
    'communication.deliveries.status',
    'communication.preflight.html',
    'communication.variable.period',
    'communication.filter.period',
  ],
  'fi-FI': ['app.name', 'reporting.import.source_api', 'admin.field.id', 'feedback.ok', 'communication.preflight.html'],
  'dk-DK': [
    'app.name',
    'audit.filter.person',
    'audit.download',
    'audit.via.session',
    'nav.group.administration',
    'login.email',
    'forgot.email',
    'reset.email',
    'reporting.status',
    'reporting.period.total',
    'reporting.rows.compare.period',
    'reporting.approval.status_filter',
    'history.col.status',
    'reporting.import.source_api',
    'reporting.import.upload',
    'admin.field.id',
    'admin.release.version',
    'admin.code_section.start',
    'admin.company.status',
    'admin.user.email',
    'admin.user.status',
    'feedback.ok',
    'profile.tokens.system',
    'profile.mails',
    'statistics.by.total',
    'statistics.total',
    'statistics.download_xlsx',
    'statistics.download_csv',
    'completeness.download_xlsx',
    'completeness.download_csv',
    'communication.list.status_filter',
    'communication.col.status',
    'communication.tab.send',
    'communication.recipients.email',
    'communication.preflight.html',
    'communication.send.button',
    'communication.deliveries.status',
  ],
  'no-NO': [
    'app.name',
    'reporting.status',
    'reporting.rows.compare.period',
    'reporting.approval.status_filter',
    'history.col.status',
    'reporting.import.source_api',
    'admin.field.id',
    'admin.code_section.start',
    'admin.company.status',
    'admin.user.status',
    'feedback.ok',
    'profile.tokens.system',
    'communication.list.status_filter',
    'communication.col.status',
    'communication.tab.send',
    'communication.preflight.html',
    'communication.send.button',
    'communication.deliveries.status',
  ],
};

const placeholders = (text: string) => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();
/** Only placeholders, dashes and spaces: nothing to translate. */
const nothingToTranslate = (text: string) => text.replace(/\{\{\w+\}\}/g, '').replace(/[\s–—()-]/g, '') === '';

describe('catalogues', () => {
  it('when a shared message has placeholders, then the en-US catalogue fills them', () => {
    expect(i18n.getFixedT('en-US')('auth.throttle', { seconds: 42 })).toBe('Too many login attempts. Please try again in 42 seconds.');
    expect(i18n.getFixedT('en-US')('import.duplicate_code', { row: 3, code: '1001' })).toBe('Report has duplicate codes on row 3 for code 1001.');
  });

  for (const [locale, catalogue] of Object.entries(translations) as [keyof typeof translations, Record<Key, string>][])
    it(`${locale}: every text of the interface, with en-US's placeholders, and none left English`, () => {
      expect(Object.keys(catalogue).sort()).toEqual(Object.keys(english).sort());
      for (const key of Object.keys(english) as Key[]) {
        expect(catalogue[key].trim(), `${locale} ${key}`).not.toBe('');
        expect(placeholders(catalogue[key]), `${locale} ${key}`).toEqual(placeholders(english[key]));
        if (catalogue[key] === english[key] && !nothingToTranslate(english[key]))
          expect(SAME_AS_ENGLISH[locale], `${locale} ${key} is left English`).toContain(key);
      }
    });

  it('when a language is chosen, then its texts load: the server’s messages and the interface’s, placeholders filled', async () => {
    expect(i18n.getFixedT('sv-SE')('title.dashboard')).toBe('Dashboard');
    await loadLocale('sv-SE');
    const t = i18n.getFixedT('sv-SE');
    expect(t('title.dashboard')).toBe(uiSvSE['title.dashboard']);
    expect(t('auth.failed')).toBe(svSE['auth.failed']);
    expect(t('auth.throttle', { seconds: 42 })).toBe('För många inloggningsförsök. Försök igen om 42 sekunder.');
    expect(t('statistics.no_markets')).toBe(statisticsSvSE['statistics.no_markets']);
    // Not loaded: en-US, key by key.
    expect(i18n.getFixedT('fi-FI')('auth.failed')).toBe(enUS['auth.failed']);
  });

  it('when a list or table is empty, then each language says it in one wording, whichever key a screen uses', async () => {
    const emptyKeys = Object.keys(uiEnUS).filter((key) => key.endsWith('.empty'));
    expect(emptyKeys.sort()).toEqual(['common.empty']);
    for (const locale of ['en-US', 'sv-SE', 'fi-FI', 'dk-DK', 'no-NO'] as const) {
      await loadLocale(locale);
      const t = i18n.getFixedT(locale);
      const wording = t('common.empty');
      for (const key of emptyKeys) expect(t(key), `${locale} ${key}`).toBe(wording);
    }
    expect(i18n.getFixedT('en-US')('common.empty')).toBe('Nothing to show.');
  });
});
