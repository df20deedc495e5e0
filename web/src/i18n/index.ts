import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LOCALE, LOCALES, type Locale } from '@mss/contracts/enums';
import { interfaceLocale } from '../api/locale.ts';
import { enUSCatalogue, toI18next } from './en-US.ts';

/*
 * The interface's languages. en-US is in the first screen's JavaScript; each other language is
 * loaded when it is chosen (the first screen has a budget: docs/performance.md): the shared
 * catalogue's translation (the server's messages and enumerations, `:name` made `{{name}}`), the
 * interface's texts and the statistics screens'. A key a language lacks falls back to en-US.
 */
type Translated = Exclude<Locale, 'en-US'>;
const loaders: Record<Translated, () => Promise<Record<string, string>[]>> = {
  'sv-SE': () =>
    Promise.all([
      import('@mss/contracts/locales/sv-SE').then((m) => toI18next(m.svSE)),
      import('./locales/sv-SE.ts').then((m) => m.uiSvSE),
      import('./locales/statistics.sv-SE.ts').then((m) => m.statisticsSvSE),
      import('./locales/communications.sv-SE.ts').then((m) => m.communicationsSvSE),
    ]),
  'fi-FI': () =>
    Promise.all([
      import('@mss/contracts/locales/fi-FI').then((m) => toI18next(m.fiFI)),
      import('./locales/fi-FI.ts').then((m) => m.uiFiFI),
      import('./locales/statistics.fi-FI.ts').then((m) => m.statisticsFiFI),
      import('./locales/communications.fi-FI.ts').then((m) => m.communicationsFiFI),
    ]),
  'dk-DK': () =>
    Promise.all([
      import('@mss/contracts/locales/dk-DK').then((m) => toI18next(m.dkDK)),
      import('./locales/dk-DK.ts').then((m) => m.uiDkDK),
      import('./locales/statistics.dk-DK.ts').then((m) => m.statisticsDkDK),
      import('./locales/communications.dk-DK.ts').then((m) => m.communicationsDkDK),
    ]),
  'no-NO': () =>
    Promise.all([
      import('@mss/contracts/locales/no-NO').then((m) => toI18next(m.noNO)),
      import('./locales/no-NO.ts').then((m) => m.uiNoNO),
      import('./locales/statistics.no-NO.ts').then((m) => m.statisticsNoNO),
      import('./locales/communications.no-NO.ts').then((m) => m.communicationsNoNO),
    ]),
};

/** `<html lang>` of each language (the product's dk-DK and no-NO are Danish and Norwegian Bokmål). */
const HTML_LANG: Record<Locale, string> = { 'en-US': 'en-US', 'sv-SE': 'sv-SE', 'fi-FI': 'fi-FI', 'dk-DK': 'da-DK', 'no-NO': 'nb-NO' };

export const i18n = i18next.createInstance();

void i18n.use(initReactI18next).init({
  resources: { [DEFAULT_LOCALE]: { translation: enUSCatalogue } },
  lng: interfaceLocale(),
  fallbackLng: DEFAULT_LOCALE,
  supportedLngs: LOCALES,
  load: 'currentOnly',
  // Keys such as "auth.failed" are flat, not nested objects.
  keySeparator: false,
  nsSeparator: false,
  interpolation: { escapeValue: false },
  returnNull: false,
  initAsync: false,
  // Another language's texts arrive after the start (loadLocale).
  partialBundledLanguages: true,
});

const setHtmlLang = (language: string) => {
  if (typeof document !== 'undefined') document.documentElement.lang = HTML_LANG[language as Locale] ?? language;
};
setHtmlLang(i18n.language);
i18n.on('languageChanged', setHtmlLang);

const loading = new Map<Locale, Promise<void>>();

/** Loads a language's texts (once; en-US is always there). A language whose texts fail to load falls back to en-US. */
export function loadLocale(locale: Locale): Promise<void> {
  if (locale === 'en-US') return Promise.resolve();
  const started = loading.get(locale);
  if (started) return started;
  const done = loaders[locale]().then((parts) => {
    for (const part of parts) i18n.addResourceBundle(locale, 'translation', part, true, true);
  });
  done.catch(() => loading.delete(locale));
  loading.set(locale, done);
  return done;
}

/** Switches the interface language (the browser's at the start, the user's after sign-in), once its texts are loaded. */
export function setInterfaceLocale(locale: string | null | undefined): void {
  const next = interfaceLocale(locale);
  void loadLocale(next)
    .catch(() => {})
    .then(() => {
      if (i18n.language !== next) void i18n.changeLanguage(next);
      // The language's texts arrived after the first render in it: render them.
      else i18n.emit('languageChanged', next);
    });
}

/** Before the first render: the start language's texts (the browser's), so that the first screen is in it. */
export const startLocale = (): Promise<void> => loadLocale(i18n.language as Locale).catch(() => {});
