import type { TFunction } from 'i18next';
import { parseHumanNumber } from '@mss/contracts/human-number';
import type { FileError } from './file-errors.tsx';
import './import-texts.ts';

/** Text that is a number but for a unit or a word around it ("12,5 st", "€ 1 234"): the number alone, as typed. */
function withoutUnit(cell: string): string | null {
  const bare = cell.replace(/[^\d\s\u00A0\u202F,.\-\u2212]/g, '').trim();
  return bare !== cell.trim() && bare !== '' && parseHumanNumber(bare) !== null ? bare : null;
}

/** "1,234" / "12.500": one to three digits, one separator, three digits (refused as ambiguous). */
const AMBIGUOUS = /^(-?\d{1,3})([.,])(\d{3})$/;

/**
 * What to do about an import error, beside the specification's message ("Column B contains invalid
 * characters on row 3." for "12,5 st": "Remove the unit or text, keep only the number: 12,5"),
 * from the error's message key and the cell as read. Null where the message says it already.
 */
export function fileErrorHint(error: FileError & { key?: string | null }, t: TFunction): string | null {
  const cell = error.column?.cell?.trim() ?? '';
  const code = error.code ?? cell;
  switch (error.key) {
    case 'import.column_b_invalid':
    case 'import.column_c_invalid': {
      if (cell === '') return null;
      const ambiguous = AMBIGUOUS.exec(cell);
      if (ambiguous) {
        const [, whole, separator, part] = ambiguous;
        return t('reporting.import.hint.ambiguous', { cell, thousands: `${whole}${part}`, decimal: `${whole}${separator}${part}0` });
      }
      const number = withoutUnit(cell);
      return number ? t('reporting.import.hint.remove_unit', { number }) : t('reporting.import.hint.number');
    }
    case 'import.invalid_code':
      return code ? t('reporting.import.hint.invalid_code', { code }) : null;
    case 'import.code_not_available':
      return code ? t('reporting.import.hint.code_not_available', { code }) : null;
    case 'import.code_inactive':
      return t('reporting.import.hint.code_inactive');
    case 'import.duplicate_code':
      return code ? t('reporting.import.hint.duplicate_code', { code }) : null;
    case 'import.column_count':
      return t('reporting.import.hint.column_count');
    default:
      return null;
  }
}
