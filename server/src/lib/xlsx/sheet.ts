import { isoToExcelSerial } from './dates.ts';
import { XlsxError } from './errors.ts';
import { columnIndex } from './refs.ts';
import { decodeXstring } from './strings.ts';
import type { Cell, XlsxRow } from './types.ts';
import type { XmlSink } from './xml.ts';

/** Excel's last column is XFD. */
const MAX_COLUMNS = 16_384;

const EMPTY: Cell = Object.freeze({ kind: 'empty' });
const FORMULA_WITHOUT_VALUE: Cell = Object.freeze({ kind: 'formula-without-value', formula: true });

/** A decimal number as XML Schema writes it (Number() alone would also take hex, binary and "Infinity"). */
const NUMERIC = /^\s*[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?\s*$/;

/**
 * Fast path for the usual <v> content: only digits, sign, dot and exponent
 * characters (Number() then rejects misplaced ones). No letters other than
 * e/E, so no hex, binary, octal or Infinity.
 */
function isPlainDecimal(raw: string): boolean {
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    // 0-9, '.', '-', '+', 'e', 'E'
    if (!((c >= 48 && c <= 57) || c === 46 || c === 45 || c === 43 || c === 101 || c === 69)) return false;
  }
  return true;
}

export interface SheetContext {
  readonly part: string;
  readonly sharedStrings: readonly string[];
  /** By cell style index (the s attribute): is the cell's number format a date format. */
  readonly dateStyles: readonly boolean[];
  readonly date1904: boolean;
  readonly maxRows: number;
}

/**
 * Turns the events of a worksheet part into rows. Completed rows accumulate
 * in a buffer the reader drains after each chunk, so at most one chunk's
 * worth of rows is held at a time.
 */
export class SheetSink implements XmlSink {
  private readonly ctx: SheetContext;
  private pending: XlsxRow[] = [];
  private rowsEmitted = 0;

  private inSheetData = false;
  private inRow = false;
  private rowNumber = 0;
  private cells: Cell[] = [];
  private lastColumn = -1;

  private inCell = false;
  private column = 0;
  private cellRef = '';
  private type: string | undefined;
  private style = 0;
  private hasFormula = false;
  private inValue = false;
  private value: string | null = null;
  private inInline = false;
  private inInlineText = false;
  private phoneticDepth = 0;
  private inline: string | null = null;

  constructor(ctx: SheetContext) {
    this.ctx = ctx;
  }

  /** Rows completed since the last call. */
  takeRows(): XlsxRow[] {
    const rows = this.pending;
    if (rows.length > 0) this.pending = [];
    return rows;
  }

  open(name: string, attributes: Readonly<Record<string, string>>): void {
    if (!this.inSheetData) {
      if (name === 'sheetData') this.inSheetData = true;
      return;
    }
    switch (name) {
      case 'row': {
        const r = attributes.r;
        this.rowNumber = r === undefined ? this.rowNumber + 1 : this.parseRowNumber(r);
        this.inRow = true;
        this.cells = [];
        this.lastColumn = -1;
        break;
      }
      case 'c': {
        if (!this.inRow) throw this.corrupt('a cell outside of any row');
        const r = attributes.r;
        this.cellRef = r ?? '';
        this.column = r === undefined ? this.lastColumn + 1 : this.parseColumn(r);
        if (this.column >= MAX_COLUMNS) throw this.corrupt(`a cell beyond column XFD in row ${this.rowNumber}`);
        this.type = attributes.t;
        const s = attributes.s;
        this.style = s === undefined ? 0 : Number(s);
        this.hasFormula = false;
        this.value = null;
        this.inline = null;
        this.inCell = true;
        break;
      }
      case 'v':
        if (this.inCell) {
          this.inValue = true;
          this.value = '';
        }
        break;
      case 'f':
        if (this.inCell) this.hasFormula = true;
        break;
      case 'is':
        if (this.inCell) {
          this.inInline = true;
          this.inline = '';
        }
        break;
      case 't':
        if (this.inInline && this.phoneticDepth === 0) this.inInlineText = true;
        break;
      case 'rPh':
        if (this.inInline) this.phoneticDepth++;
        break;
    }
  }

  close(name: string): void {
    if (!this.inSheetData) return;
    switch (name) {
      case 'v':
        this.inValue = false;
        break;
      case 't':
        this.inInlineText = false;
        break;
      case 'rPh':
        if (this.phoneticDepth > 0) this.phoneticDepth--;
        break;
      case 'is':
        this.inInline = false;
        break;
      case 'c': {
        if (!this.inCell) break;
        this.inCell = false;
        const cell = this.makeCell();
        if (cell !== EMPTY) this.cells[this.column] = cell;
        this.lastColumn = this.column;
        break;
      }
      case 'row':
        if (this.inRow) this.finishRow();
        break;
      case 'sheetData':
        this.inSheetData = false;
        break;
    }
  }

  text(text: string): void {
    if (this.inValue) this.value += text;
    else if (this.inInlineText) this.inline += text;
  }

  private finishRow(): void {
    this.inRow = false;
    const cells = this.cells;
    if (cells.length === 0) return; // no non-empty cell: skipped
    if (this.rowsEmitted >= this.ctx.maxRows) {
      throw new XlsxError('too_many_rows', `the sheet has more than ${this.ctx.maxRows} non-empty rows`);
    }
    for (let i = 0; i < cells.length; i++) if (cells[i] === undefined) cells[i] = EMPTY;
    this.rowsEmitted++;
    this.pending.push({ row: this.rowNumber, cells });
  }

  private makeCell(): Cell {
    const type = this.type;
    if (type === 'inlineStr') {
      const text = this.inline ?? this.value;
      if (text === null) return this.hasFormula ? FORMULA_WITHOUT_VALUE : EMPTY;
      return this.withFormula({ kind: 'string', value: decodeXstring(text) });
    }
    const raw = this.value;
    // An empty <v/> is no value, except for a formula whose string result is "".
    if (raw === null || (raw === '' && type !== 'str')) return this.hasFormula ? FORMULA_WITHOUT_VALUE : EMPTY;
    switch (type) {
      case undefined:
      case 'n': {
        const value = this.parseNumber(raw);
        const isDate = this.ctx.dateStyles[this.style] === true;
        return this.withFormula(isDate ? { kind: 'date', value } : { kind: 'number', value, text: raw.trim() });
      }
      case 's': {
        const index = Number(raw);
        const text = Number.isInteger(index) ? this.ctx.sharedStrings[index] : undefined;
        if (text === undefined) throw this.corrupt(`shared string index ${raw.trim()} does not exist${this.at()}`);
        return this.withFormula({ kind: 'string', value: text });
      }
      case 'str':
        return this.withFormula({ kind: 'string', value: decodeXstring(raw) });
      case 'b': {
        const flag = raw.trim();
        if (flag === '1' || flag === 'true') return this.withFormula({ kind: 'boolean', value: true });
        if (flag === '0' || flag === 'false') return this.withFormula({ kind: 'boolean', value: false });
        throw this.corrupt(`boolean cell holds ${JSON.stringify(flag)}${this.at()}`);
      }
      case 'e':
        return this.withFormula({ kind: 'error', value: raw.trim() });
      case 'd': {
        const serial = isoToExcelSerial(raw, this.ctx.date1904);
        return this.withFormula(serial === undefined ? { kind: 'string', value: raw } : { kind: 'date', value: serial });
      }
      default:
        throw this.corrupt(`unknown cell type ${JSON.stringify(type)}${this.at()}`);
    }
  }

  private withFormula(cell: Cell): Cell {
    return this.hasFormula ? { ...cell, formula: true } : cell;
  }

  private parseNumber(raw: string): number {
    const value = isPlainDecimal(raw) || NUMERIC.test(raw) ? Number(raw) : NaN;
    if (!Number.isFinite(value)) throw this.corrupt(`numeric cell holds ${JSON.stringify(raw.slice(0, 40))}${this.at()}`);
    return value;
  }

  private parseRowNumber(r: string): number {
    const n = Number(r);
    if (!Number.isInteger(n) || n < 1) throw this.corrupt(`invalid row number ${JSON.stringify(r.slice(0, 20))}`);
    return n;
  }

  /** Column index (A = 0) from a reference like "B12" or "$B$12". */
  private parseColumn(ref: string): number {
    const column = columnIndex(ref, MAX_COLUMNS);
    if (column < 0) throw this.corrupt(`invalid cell reference ${JSON.stringify(ref.slice(0, 20))}`);
    return column;
  }

  private at(): string {
    return this.cellRef ? ` at ${this.cellRef}` : ` in row ${this.rowNumber}`;
  }

  private corrupt(message: string): XlsxError {
    return new XlsxError('corrupt', `${this.ctx.part}: ${message}`);
  }
}
