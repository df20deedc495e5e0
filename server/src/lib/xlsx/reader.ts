import type { Entry } from 'yauzl';
import { XlsxError } from './errors.ts';
import { resolveLimits, type XlsxLimits } from './limits.ts';
import { RelsSink, SharedStringsSink, StylesSink, WorkbookSink, relationshipOfType, relsPartFor, type Relationship } from './parts.ts';
import { RowIterator } from './rows.ts';
import { SheetSink } from './sheet.ts';
import type { XlsxRow } from './types.ts';
import { XmlFeeder, parsePart, type XmlSink } from './xml.ts';
import { SafeZip } from './zip.ts';

export interface XlsxReadOptions {
  /** Overrides of `DEFAULT_XLSX_LIMITS`. */
  limits?: Partial<XlsxLimits>;
}

export interface XlsxWorkbook {
  /** The worksheet being read: the first worksheet in the workbook's tab order (chart sheets skipped, hidden sheets not). */
  readonly sheet: { readonly name: string; readonly part: string; readonly state: string };
  /** Whether date serials count from 1904-01-01 (pass to `excelSerialToDate`). */
  readonly date1904: boolean;
  /**
   * Streams the worksheet's non-empty rows in document order. Can be called
   * once; the archive is closed when the iteration ends, fails or is left
   * early (break/return).
   */
  rows(): AsyncIterableIterator<XlsxRow, undefined>;
  /** Releases the file. Idempotent; only needed when `rows()` is never iterated to its end. */
  close(): void;
}

const DEFAULT_WORKBOOK_PART = 'xl/workbook.xml';

/**
 * Opens an .xlsx from a file path and reads everything but the worksheet
 * itself: zip central directory (checked against the limits), workbook,
 * relationships, styles and shared strings. Throws `XlsxError` for bad input.
 */
export async function openXlsx(path: string, options: XlsxReadOptions = {}): Promise<XlsxWorkbook> {
  const limits = resolveLimits(options.limits);
  const zip = await SafeZip.open(path, limits);
  try {
    return await loadWorkbook(zip, limits);
  } catch (error) {
    zip.close();
    throw error;
  }
}

/**
 * Convenience: the rows of the first worksheet of the file. The file is opened
 * on the first `next()` (so `XlsxError`s like not_xlsx come from the first
 * iteration step) and closed when the iteration ends, fails or is left early.
 *
 * ```ts
 * for await (const { row, cells } of readXlsxRows(tmpPath)) { ... }
 * ```
 */
export function readXlsxRows(path: string, options: XlsxReadOptions = {}): AsyncIterableIterator<XlsxRow, undefined> {
  // Opens on the first next(), then hands every call straight to the workbook's row iterator.
  let opening: Promise<AsyncIterableIterator<XlsxRow, undefined>> | undefined;
  let rows: AsyncIterableIterator<XlsxRow, undefined> | undefined;
  let returned = false;
  const open = () =>
    (opening ??= openXlsx(path, options).then((workbook) => {
      rows = workbook.rows();
      return rows;
    }));
  return {
    [Symbol.asyncIterator]() {
      return this;
    },
    next() {
      if (rows) return rows.next();
      if (returned) return Promise.resolve({ value: undefined, done: true });
      return open().then((opened) => opened.next());
    },
    async return() {
      returned = true;
      if (opening) {
        const opened = await opening.catch(() => undefined);
        await opened?.return?.();
      }
      return { value: undefined, done: true };
    },
  };
}

async function readPart(zip: SafeZip, entry: Entry, maxBytes: number, sink: XmlSink, limits: XlsxLimits) {
  await parsePart(zip.chunks(entry, maxBytes), entry.fileName, sink, limits.maxXmlTokenBytes);
}

export async function readRels(zip: SafeZip, sourcePart: string, limits: XlsxLimits): Promise<Map<string, Relationship>> {
  const entry = zip.find(relsPartFor(sourcePart));
  if (!entry) return new Map();
  const sink = new RelsSink(sourcePart);
  await readPart(zip, entry, limits.maxMetadataBytes, sink, limits);
  return sink.relationships;
}

/** Where the parts of a workbook are: the first worksheet, the workbook part and its relationships, the styles. */
export interface WorkbookParts {
  readonly workbookEntry: Entry;
  /** The workbook's relationships by id. */
  readonly rels: Map<string, Relationship>;
  readonly date1904: boolean;
  /** The first worksheet in tab order (chart sheets skipped, hidden sheets not). */
  readonly sheet: { readonly name: string; readonly state: string; readonly entry: Entry };
  readonly stylesEntry: Entry | undefined;
}

/** Finds the first worksheet and the styles (the reader reads them, the marker rewrites them). */
export async function locateParts(zip: SafeZip, limits: XlsxLimits): Promise<WorkbookParts> {
  // The package relationships name the workbook part; fall back to the usual name.
  const rootRels = await readRels(zip, '', limits);
  const workbookPart = relationshipOfType(rootRels, 'officeDocument')?.target ?? DEFAULT_WORKBOOK_PART;
  const workbookEntry = zip.find(workbookPart) ?? zip.find(DEFAULT_WORKBOOK_PART);
  if (!workbookEntry) throw new XlsxError('not_xlsx', 'the zip archive holds no spreadsheet workbook');

  const workbook = new WorkbookSink();
  await readPart(zip, workbookEntry, limits.maxMetadataBytes, workbook, limits);
  const rels = await readRels(zip, workbookEntry.fileName, limits);

  let sheet: { name: string; state: string; entry: Entry } | undefined;
  for (const ref of workbook.sheets) {
    const rel = rels.get(ref.relId);
    if (!rel) throw new XlsxError('corrupt', `sheet ${JSON.stringify(ref.name)} has no relationship ${ref.relId}`);
    if (!rel.type.endsWith('/worksheet')) continue; // chart sheet, dialog sheet, macro sheet
    const entry = zip.find(rel.target);
    if (!entry) throw new XlsxError('corrupt', `sheet ${JSON.stringify(ref.name)} points to missing part ${rel.target}`);
    sheet = { name: ref.name, state: ref.state, entry };
    break;
  }
  if (!sheet) throw new XlsxError('no_sheet', 'the workbook has no worksheet');

  const stylesEntry = zip.find(relationshipOfType(rels, 'styles')?.target ?? `${baseOf(workbookEntry)}styles.xml`);
  return { workbookEntry, rels, date1904: workbook.date1904, sheet, stylesEntry };
}

/** The workbook part's folder, with its slash ("xl/"). */
export const baseOf = (workbookEntry: Entry) => workbookEntry.fileName.replace(/[^/]*$/, '');

async function loadWorkbook(zip: SafeZip, limits: XlsxLimits): Promise<XlsxWorkbook> {
  const { workbookEntry, rels, date1904, sheet, stylesEntry } = await locateParts(zip, limits);
  const base = baseOf(workbookEntry);
  let dateStyles: boolean[] = [];
  if (stylesEntry) {
    const styles = new StylesSink();
    await readPart(zip, stylesEntry, limits.maxMetadataBytes, styles, limits);
    dateStyles = styles.dateStyles();
  }

  const stringsEntry = zip.find(relationshipOfType(rels, 'sharedStrings')?.target ?? `${base}sharedStrings.xml`);
  let sharedStrings: string[] = [];
  if (stringsEntry) {
    const strings = new SharedStringsSink(limits.maxSharedStrings);
    await readPart(zip, stringsEntry, limits.maxSharedStringsBytes, strings, limits);
    sharedStrings = strings.strings;
  }

  const sheetEntry = sheet.entry;
  let started = false;
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    zip.close();
  };

  const rows = (): AsyncIterableIterator<XlsxRow, undefined> => {
    if (started) throw new Error('rows() of an xlsx workbook can only be iterated once');
    if (closed) throw new Error('the xlsx workbook is closed');
    started = true;
    const sink = new SheetSink({
      part: sheetEntry.fileName,
      sharedStrings,
      dateStyles,
      date1904,
      maxRows: limits.maxRows,
    });
    const feeder = new XmlFeeder(sheetEntry.fileName, sink, limits.maxXmlTokenBytes);
    return new RowIterator(zip.chunks(sheetEntry, limits.maxSheetBytes), feeder, sink, close);
  };

  return {
    sheet: { name: sheet.name, part: sheetEntry.fileName, state: sheet.state },
    date1904,
    rows,
    close,
  };
}
