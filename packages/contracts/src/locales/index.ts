import type { Locale } from '../enums.ts';
import { catalogues, type MessageKey } from '../messages.ts';
import '../mail-messages.ts';
import { dkDK } from './dk-DK.ts';
import { fiFI } from './fi-FI.ts';
import { noNO } from './no-NO.ts';
import { svSE } from './sv-SE.ts';

/*
 * The four translations of the shared catalogue, put into `catalogues` when this module is
 * imported: by the server at its start (every message, enumeration and e-mail in the reader's
 * language), with the en-US texts of the mails (`mail-messages.ts`). The web does not import it: it loads one language's file when that language is
 * chosen (web/src/i18n/index.ts), so that the first screen carries only en-US.
 */
export const translations: Record<Exclude<Locale, 'en-US'>, Record<MessageKey, string>> = {
  'sv-SE': svSE,
  'fi-FI': fiFI,
  'dk-DK': dkDK,
  'no-NO': noNO,
};

for (const [locale, catalogue] of Object.entries(translations)) Object.assign(catalogues[locale as Locale], catalogue);
