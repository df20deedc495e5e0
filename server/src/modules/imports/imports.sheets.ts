/**
 * The two xlsx files of the import screen, written with the streaming writer:
 *
 * - the template: `Code | Volume | Value | Name | Note`, one row per code the company reports
 *   in the market (inactive codes, disabled 30, are left out: they would be refused). Codes are
 *   written as text so that leading zeros survive. The Note column says which cell must stay
 *   empty for codes with disabled 10 (value) or 20 (volume). The validator recognises the header
 *   row and therefore ignores the Name and Note columns it names.
 * - the error sheet: `Row | Code | Error`, one line per error of an import, in the order of the
 *   validator (file order), with the spreadsheet row number so the user can find the line in
 *   their own file. Errors about the whole file have an empty Row.
 */
import type { CodeDisabledStatus, Locale } from '@mss/contracts/enums';
import { type MessageKey, type MessageParams, translate } from '@mss/contracts/messages';
import { type CsvSeparator, csvDocument, csvText } from '../../lib/csv/writer.ts';
import { type XlsxCellInput, writeXlsx } from '../../lib/xlsx-writer/index.ts';
import type { XlsxRow } from '../../lib/xlsx/types.ts';

export interface TemplateCode {
  code: string;
  name: string;
  disabled_status: CodeDisabledStatus;
}

export interface SheetOptions {
  /** Language of the header and notes (default en-US). */
  locale?: Locale;
}

/** An error as the validator returns it (or as stored with an import). */
export interface ErrorSheetEntry {
  row: number | null;
  code?: string | null;
  message: string;
  /** With `params`, lets the sheet be written in another locale than the stored message. */
  key?: MessageKey;
  params?: MessageParams;
  /** The column's name (null: the template's name of that column) and the cell as read, where the error is in one cell. */
  column?: { letter: 'A' | 'B' | 'C'; name: string | null; cell: string | null } | null;
}

/** A column's name when the file has no header row: the template's, in the reader's language. */
export const columnName = (column: { letter: 'A' | 'B' | 'C'; name: string | null }, locale?: Locale): string =>
  column.name ?? translate(({ A: 'import.sheet.code', B: 'import.sheet.volume', C: 'import.sheet.value' } as const)[column.letter], {}, locale);

/** The template's header and rows: the codes (in the given order) with their names and notes. */
function templateRows(codes: Iterable<TemplateCode>, options: SheetOptions) {
  const t = (key: MessageKey) => translate(key, {}, options.locale);
  const notes: Partial<Record<number, string>> = {
    10: t('import.sheet.note_value_disabled'),
    20: t('import.sheet.note_volume_disabled'),
  };
  function* rows(): Generator<[string, null, null, string, string | null]> {
    for (const code of codes) {
      if (code.disabled_status === 30) continue;
      yield [code.code, null, null, code.name, notes[code.disabled_status] ?? null];
    }
  }
  const header = [t('import.sheet.code'), t('import.sheet.volume'), t('import.sheet.value'), t('import.sheet.name'), t('import.sheet.note')];
  return { header, rows: rows() };
}

/** Writes the import template for these codes (in the given order) to a file path or a stream. */
export async function writeTemplate(codes: Iterable<TemplateCode>, out: string | NodeJS.WritableStream, options: SheetOptions = {}): Promise<void> {
  const { header, rows } = templateRows(codes, options);
  await writeXlsx(out, rows, { sheetName: 'Report', header, columnWidths: [16, 14, 14, 40, 60] });
}

/** The separator a spreadsheet in this language writes: `,` in en-US (decimal point), `;` where the decimal sign is a comma. */
export const csvSeparatorFor = (locale: Locale | undefined): CsvSeparator => (!locale || locale === 'en-US' ? ',' : ';');

/**
 * The template as CSV: the same columns and rows as the xlsx, UTF-8 with a byte-order mark, with
 * the given separator. Names and notes that a spreadsheet would run as a formula get an
 * apostrophe (as in the statistics downloads).
 */
export function templateCsv(codes: Iterable<TemplateCode>, separator: CsvSeparator, options: SheetOptions = {}): string {
  const { header, rows } = templateRows(codes, options);
  function* records() {
    yield header;
    for (const [code, volume, value, name, note] of rows) yield [code, volume, value, csvText(name), csvText(note)];
  }
  return csvDocument(records(), separator);
}

/**
 * A CSV's rows as an xlsx sheet, each at its own row number (blank records stay blank rows), so
 * that a CSV's errors can be marked like an xlsx's: figures as exact number cells, the rest as
 * the text written.
 */
export async function writeRowsAsXlsx(rows: AsyncIterable<XlsxRow>, out: string | NodeJS.WritableStream): Promise<void> {
  async function* cells(): AsyncGenerator<XlsxCellInput[]> {
    let next = 1;
    for await (const { row, cells } of rows) {
      for (; next < row; next++) yield [];
      next = row + 1;
      yield cells.map((cell): XlsxCellInput => {
        if (cell.kind === 'number') return { decimal: cell.text, format: 'figure' };
        if (cell.kind === 'string') return cell.value;
        return null;
      });
    }
  }
  await writeXlsx(out, cells(), { sheetName: 'Report', columnWidths: [16, 14, 14, 40, 60] });
}

/** Writes the error list of an import (`Row | Code | Column | In the cell | Error`) to a file path or a stream. */
export async function writeErrorSheet(errors: Iterable<ErrorSheetEntry>, out: string | NodeJS.WritableStream, options: SheetOptions = {}): Promise<void> {
  function* rows(): Generator<XlsxCellInput[]> {
    for (const error of errors) {
      const message = options.locale && error.key ? translate(error.key, error.params ?? {}, options.locale) : error.message;
      yield [
        error.row,
        error.code ?? null,
        error.column ? `${columnName(error.column, options.locale)} (${error.column.letter})` : null,
        error.column?.cell ?? null,
        message,
      ];
    }
  }
  await writeXlsx(out, rows(), {
    sheetName: 'Errors',
    header: [
      translate('import.sheet.row', {}, options.locale),
      translate('import.sheet.code', {}, options.locale),
      translate('import.sheet.column', {}, options.locale),
      translate('import.sheet.cell', {}, options.locale),
      translate('import.sheet.error', {}, options.locale),
    ],
    columnWidths: [8, 16, 16, 20, 90],
  });
}
