import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LOCALE, LOCALES, type Locale } from '@mss/contracts/enums';
import { interfaceLocale } from '../api/locale.ts';
import { enUSCatalogue } from './en-US.ts';
import { catalogue as svSE } from './sv-SE.ts';
import { catalogue as fiFI } from './fi-FI.ts';
import { catalogue as dkDK } from './dk-DK.ts';
import { catalogue as noNO } from './no-NO.ts';

const catalogues: Record<Locale, Record<string, string>> = {
  'en-US': enUSCatalogue,
  'sv-SE': svSE,
  'fi-FI': fiFI,
  'dk-DK': dkDK,
  'no-NO': noNO,
};

export const i18n = i18next.createInstance();

void i18n.use(initReactI18next).init({
  resources: Object.fromEntries(LOCALES.map((locale) => [locale, { translation: catalogues[locale] }])),
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
});

/** Switches the interface language (to the user's locale after sign-in). */
export function setInterfaceLocale(locale: string | null | undefined): void {
  const next = interfaceLocale(locale);
  if (i18n.language !== next) void i18n.changeLanguage(next);
}
