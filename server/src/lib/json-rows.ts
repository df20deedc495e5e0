import { readFile, stat } from 'node:fs/promises';
import { normalizeDecimal } from '@mss/contracts/decimal';
import { XlsxError } from './xlsx/errors.ts';
import type { Cell, XlsxRow } from './xlsx/types.ts';

/*
 * A report's rows sent as JSON (`PUT /reports/{uuid}/rows`): `[{ "code": "1001", "volume": 12.5,
 * "value": "1234,5" }, …]`, read as the rows of a sheet without a header (element i is row i + 1),
 * columns A code, B volume, C value, so that the report file's rules and messages apply as they are.
 *
 * - A JSON number is taken as written in the body, digit for digit (the parser's source text, never
 *   a double: 0.1 stays 0.1, 12345678901234567.1234 whole); a string goes through the same reading
 *   as a text cell of a spreadsheet ("1 234,5"); null or a missing key is an empty cell.
 * - A code may be a string or an integer.
 * - An element that is not an object, or a field of another type (true, a list), is a cell that no
 *   rule accepts: "Invalid code on row 3.", "Column B contains invalid characters on row 3.".
 * - A body that is not a JSON array is `corrupt`; an empty array is `empty`.
 */

const FIELDS = ['code', 'volume', 'value'] as const;
const UNREADABLE: Cell = { kind: 'error', value: '#VALUE!' };

/** Whether bytes at the start of a file are a JSON array (after a byte-order mark and white space). */
export function isJsonArray(head: Uint8Array): boolean {
  let i = head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf ? 3 : 0;
  while (i < head.length && (head[i] === 0x20 || head[i] === 0x09 || head[i] === 0x0a || head[i] === 0x0d)) i++;
  return head[i] === 0x5b;
}

function cellOf(value: unknown, source: string | undefined, field: (typeof FIELDS)[number]): Cell {
  if (value === null || value === undefined) return { kind: 'empty' };
  if (typeof value === 'string') return { kind: 'string', value };
  if (typeof value === 'number' && source !== undefined) {
    if (field === 'code') return Number.isSafeInteger(value) ? { kind: 'string', value: source } : UNREADABLE;
    const exact = normalizeDecimal(source.replace(/^-?\d+(\.\d+)?[eE].*$/, (s) => String(Number(s))));
    if (exact !== null) return { kind: 'number', value, text: exact, exact: true, raw: source };
  }
  return UNREADABLE;
}

/** The rows of a JSON array of `{ code, volume, value }` (see above). */
export function parseJsonRows(bytes: Uint8Array): XlsxRow[] {
  const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
  let parsed: unknown;
  try {
    // The source text of each number: the figure as sent.
    parsed = JSON.parse(text, function (this: unknown, key, value, context?: { source?: string }) {
      return typeof value === 'number' && (FIELDS as readonly string[]).includes(key) ? { __number: value, source: context?.source } : value;
    });
  } catch (cause) {
    throw new XlsxError('corrupt', 'The body is not JSON', { cause });
  }
  if (!Array.isArray(parsed)) throw new XlsxError('corrupt', 'The body is not a JSON array');
  if (parsed.length === 0) throw new XlsxError('empty', 'No rows');
  return parsed.map((element, index): XlsxRow => {
    if (element === null || typeof element !== 'object' || Array.isArray(element)) return { row: index + 1, cells: [UNREADABLE, UNREADABLE, UNREADABLE] };
    const record = element as Record<string, unknown>;
    const cells = FIELDS.map((field) => {
      const raw = record[field];
      if (raw !== null && typeof raw === 'object' && '__number' in raw) {
        const { __number, source } = raw as { __number: number; source?: string };
        return cellOf(__number, source, field);
      }
      return cellOf(raw, undefined, field);
    });
    while (cells.length && cells.at(-1)!.kind === 'empty') cells.pop();
    return { row: index + 1, cells };
  });
}

/** Reads a JSON rows file (at most `maxBytes`). */
export async function readJsonRows(path: string, maxBytes: number): Promise<XlsxRow[]> {
  if ((await stat(path)).size > maxBytes) throw new XlsxError('too_large', 'The body is too large');
  return parseJsonRows(await readFile(path));
}
