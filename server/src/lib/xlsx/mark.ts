import { posix } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import type { Entry } from 'yauzl';
import { ZipFile } from 'yazl';
import { escapeXmlAttribute, escapeXmlText } from '../xlsx-writer/xml.ts';
import { XlsxError } from './errors.ts';
import { resolveLimits, type XlsxLimits } from './limits.ts';
import { relationshipOfType, relsPartFor, type Relationship } from './parts.ts';
import { baseOf, locateParts, readRels } from './reader.ts';
import { columnIndex, columnLetters } from './refs.ts';
import { SafeZip } from './zip.ts';

/**
 * Marks cells of a workbook's first worksheet: a fill and a comment on each, everything else of
 * the file left as it was (its other sheets, formats, formulas, column widths, existing comments).
 * Used to hand a reporter their own file back with the faulty cells marked.
 *
 * How: every zip entry is copied; the worksheet is rewritten a row at a time (only the rows with a
 * mark change: the cell's style index points to a copy of its style with the fill, and a cell that
 * does not exist is added empty); the styles part gains the fill and the copies; the comments go
 * into the sheet's comments part and legacy drawing (VML, which Excel needs to show them), new
 * ones or the sheet's own with ours added.
 */
export interface CellMark {
  /** 1-based row number, as in the file. */
  readonly row: number;
  /** 0-based column index (A = 0). */
  readonly column: number;
  /** The comment's text. Marks of the same cell are joined, one per line. */
  readonly note: string;
}

export interface MarkOptions {
  /** The comments' author. */
  readonly author: string;
  /** The fill, as ARGB (default Excel's "Bad" pink, FFFFC7CE). */
  readonly fill?: string;
  readonly limits?: Partial<XlsxLimits>;
}

const TRANSITIONAL = {
  relationships: 'http://schemas.openxmlformats.org/officeDocument/2006/relationships',
  main: 'http://schemas.openxmlformats.org/spreadsheetml/2006/main',
};
const STRICT = {
  relationships: 'http://purl.oclc.org/ooxml/officeDocument/relationships',
  main: 'http://purl.oclc.org/ooxml/spreadsheetml/main',
};
const COMMENTS_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.comments+xml';
const VML_TYPE = 'application/vnd.openxmlformats-officedocument.vmlDrawing';
const STYLES_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml';
const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';

function attribute(attributes: string, name: string): string | undefined {
  const match = new RegExp(`(?:^|\\s)${name}\\s*=\\s*("([^"]*)"|'([^']*)')`).exec(attributes);
  return match ? (match[2] ?? match[3]) : undefined;
}

/** The attributes with `name` set to `value` (replaced where present, added otherwise). */
function withAttribute(attributes: string, name: string, value: string): string {
  const pattern = new RegExp(`(^|\\s)${name}\\s*=\\s*("[^"]*"|'[^']*')`);
  if (pattern.test(attributes)) return attributes.replace(pattern, `$1${name}="${value}"`);
  return `${attributes} ${name}="${value}"`;
}

const withoutAttribute = (attributes: string, name: string) => attributes.replace(new RegExp(`\\s${name}\\s*=\\s*("[^"]*"|'[^']*')`), '');

/** Whether bytes start with a UTF-16 byte-order mark (a part the marker does not rewrite). */
const isUtf16 = (bytes: Buffer) => (bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff);

/** Text of a small part (UTF-8; a part in another encoding is not rewritten). */
async function textOf(zip: SafeZip, entry: Entry, maxBytes: number): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of zip.chunks(entry, maxBytes)) chunks.push(chunk);
  return utf8(Buffer.concat(chunks), entry.fileName);
}

function utf8(bytes: Buffer, part: string): string {
  if (isUtf16(bytes)) throw new XlsxError('corrupt', `${part} is not UTF-8; it cannot be marked`);
  const text = bytes.toString('utf8');
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** A part name not yet in the archive: `xl/comments1.xml`, `xl/comments2.xml`… */
function freeName(zip: SafeZip, taken: Set<string>, make: (n: number) => string): string {
  for (let n = 1; ; n++) {
    const name = make(n);
    if (!zip.find(name) && !taken.has(name.toLowerCase())) {
      taken.add(name.toLowerCase());
      return name;
    }
  }
}

/** A relationship id not used in the part's relationships. */
function freeId(rels: Map<string, Relationship>, taken: Set<string>): string {
  for (let n = 1; ; n++) {
    const id = `rIdMarked${n}`;
    if (!rels.has(id) && !taken.has(id)) {
      taken.add(id);
      return id;
    }
  }
}

/** `<Relationship>` elements added before the end of a relationships part (or a new part holding them). */
function addRelationships(relsXml: string | null, added: string): string {
  if (relsXml === null) {
    return `${XML_DECLARATION}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${added}</Relationships>`;
  }
  const end = relsXml.lastIndexOf('</');
  if (end < 0) throw new XlsxError('corrupt', 'a relationships part has no end tag');
  return relsXml.slice(0, end) + added + relsXml.slice(end);
}

const relationship = (id: string, type: string, target: string) =>
  `<Relationship Id="${id}" Type="${escapeXmlAttribute(type)}" Target="${escapeXmlAttribute(target)}"/>`;

/** The cell marks by row, each row's by column, notes of one cell joined. */
function marksByRow(marks: readonly CellMark[]): Map<number, Map<number, string>> {
  const rows = new Map<number, Map<number, string>>();
  for (const mark of marks) {
    if (!Number.isInteger(mark.row) || mark.row < 1 || !Number.isInteger(mark.column) || mark.column < 0) continue;
    let row = rows.get(mark.row);
    if (!row) rows.set(mark.row, (row = new Map()));
    const before = row.get(mark.column);
    row.set(mark.column, before === undefined ? mark.note : `${before}\n${mark.note}`);
  }
  return rows;
}

/**
 * Gives marked cells their marked style; `styleOf` maps a cell's style index to the marked copy.
 * Rows and cells without an `r` attribute follow the one before (as the reader counts them).
 */
class SheetRewriter {
  private rowNumber = 0;

  constructor(
    private readonly marks: Map<number, Map<number, string>>,
    private readonly styleOf: (style: number) => number,
  ) {}

  /** One `<row>` element, whole (start tag to end tag, or an empty tag): its prefix, its start tag's attributes. */
  row(xml: string, prefix: string, rowAttributes: string, selfClosing: boolean, startLength: number): string {
    const declared = Number(attribute(rowAttributes, 'r'));
    this.rowNumber = Number.isInteger(declared) && declared > 0 ? declared : this.rowNumber + 1;
    const marked = this.marks.get(this.rowNumber);
    if (!marked) return xml;
    const inner = selfClosing ? '' : xml.slice(startLength, xml.lastIndexOf('</'));

    type CellPiece = { column: number; xml: string; start: string; attrs: string; rest: string };
    const cells: CellPiece[] = [];
    const between: string[] = []; // what stands before each cell (whitespace, other elements), and after the last
    let last = 0;
    let column = -1;
    let missingReference = false;
    const cellTag = new RegExp(`<${prefix.replace('.', '\\.')}c((?:[^>"']|"[^"]*"|'[^']*')*?)(/?)>`, 'g');
    for (let m = cellTag.exec(inner); m; m = cellTag.exec(inner)) {
      // `<col…` or `<cm…` are other elements: a cell's tag name is exactly c.
      if (m[1] !== '' && !/^\s/.test(m[1]!)) continue;
      const end = m[2] === '/' ? m.index + m[0].length : inner.indexOf(`</${prefix}c>`, m.index) + `</${prefix}c>`.length;
      if (end < m.index + m[0].length) throw new XlsxError('corrupt', `row ${this.rowNumber} has a cell without its end tag`);
      const reference = attribute(m[1]!, 'r');
      const index = reference === undefined ? -1 : columnIndex(reference);
      if (index < 0) missingReference = true;
      column = index >= 0 ? index : column + 1;
      between.push(inner.slice(last, m.index));
      cells.push({ column, xml: inner.slice(m.index, end), start: m[0], attrs: m[1]!, rest: inner.slice(m.index + m[0].length, end) });
      cellTag.lastIndex = end;
      last = end;
    }
    const tail = inner.slice(last);

    const present = new Set(cells.map((c) => c.column));
    const added = [...marked.keys()].filter((c) => !present.has(c)).sort((a, b) => a - b);
    // With a cell added, every cell says where it is (one without would move along).
    const reference = (c: number) => `${columnLetters(c)}${this.rowNumber}`;
    const rewrite = (cell: CellPiece): string => {
      let attrs = cell.attrs;
      if (marked.has(cell.column)) attrs = withAttribute(attrs, 's', String(this.styleOf(Number(attribute(attrs, 's') ?? '0') || 0)));
      if (added.length > 0 && missingReference) attrs = withAttribute(attrs, 'r', reference(cell.column));
      if (attrs === cell.attrs) return cell.xml;
      return `<${prefix}c${attrs}${cell.start.endsWith('/>') ? '/>' : '>'}${cell.rest}`;
    };
    const newCell = (c: number) => `<${prefix}c r="${reference(c)}" s="${this.styleOf(0)}"/>`;

    let out = '';
    let next = 0;
    cells.forEach((cell, i) => {
      while (next < added.length && added[next]! < cell.column) out += newCell(added[next++]!);
      out += between[i]! + rewrite(cell);
    });
    while (next < added.length) out += newCell(added[next++]!);
    out += tail;

    // `spans` only hints at the columns used; a row with an added cell drops it rather than lie.
    const rowAttrs = added.length > 0 ? withoutAttribute(rowAttributes, 'spans') : rowAttributes;
    return `<${prefix}row${rowAttrs}>${out}</${prefix}row>`;
  }
}

/**
 * The worksheet, rewritten as it streams: text up to a whole `<row>` is held, so memory stays at
 * about one chunk plus one row. What follows `</sheetData>` is held whole and handed to `tail`.
 */
async function* rewriteSheet(
  chunks: AsyncIterable<Buffer>,
  part: string,
  rewriter: SheetRewriter,
  tail: (rest: string, root: RootTag) => string,
): AsyncGenerator<Buffer> {
  const decoder = new StringDecoder('utf8');
  let buffer = '';
  let root: RootTag | null = null;
  let afterData = false;
  let first = true;
  // Whichever comes first: a row's start tag, or the end of the sheet data (one scan, from where the last row ended).
  const next =
    /<([A-Za-z_][\w.-]*:)?row(?=[\s/>])((?:[^>"']|"[^"]*"|'[^']*')*?)(\/?)>|<\/(?:[A-Za-z_][\w.-]*:)?sheetData>|<(?:[A-Za-z_][\w.-]*:)?sheetData(?:\s[^>]*)?\/>/g;
  let out = '';

  /** Takes rows from the buffer while they are whole; what is left waits for the next chunk. */
  const drain = (final: boolean) => {
    let at = 0;
    /** Everything before `i` is done: to the output, and out of the buffer. */
    const doneUpTo = (i: number) => {
      out += buffer.slice(at, i);
      buffer = buffer.slice(i);
    };
    for (;;) {
      root ??= rootTag(buffer, part, final);
      if (!root) return;
      next.lastIndex = at;
      const found = next.exec(buffer);
      if (!found) {
        if (final) throw new XlsxError('corrupt', `${part} has no end of its sheet data`);
        return doneUpTo(Math.max(buffer.lastIndexOf('<'), at)); // a tag may be cut at the chunk's end
      }
      if (found[2] === undefined) {
        afterData = true; // the end of the sheet data
        return doneUpTo(found.index + found[0].length);
      }
      let rowEnd = found.index + found[0].length;
      if (found[3] !== '/') {
        const close = `</${found[1] ?? ''}row>`;
        const closeAt = buffer.indexOf(close, rowEnd);
        if (closeAt < 0) {
          if (final) throw new XlsxError('corrupt', `${part} has a row without its end tag`);
          if (buffer.length - found.index > MAX_ROW_CHARS) throw new XlsxError('too_large', `${part} has a row of more than ${MAX_ROW_CHARS} characters`);
          return doneUpTo(found.index);
        }
        rowEnd = closeAt + close.length;
      }
      out += buffer.slice(at, found.index) + rewriter.row(buffer.slice(found.index, rowEnd), found[1] ?? '', found[2], found[3] === '/', found[0].length);
      at = rowEnd;
    }
  };
  const flush = function* (): Generator<Buffer> {
    if (out.length >= OUT_CHARS) {
      yield Buffer.from(out);
      out = '';
    }
  };

  for await (const chunk of chunks) {
    if (first) {
      first = false;
      if (isUtf16(chunk)) throw new XlsxError('corrupt', `${part} is not UTF-8; it cannot be marked`);
    }
    if (afterData) {
      buffer += decoder.write(chunk);
      if (buffer.length > MAX_TAIL_CHARS) throw new XlsxError('too_large', `${part} has more than ${MAX_TAIL_CHARS} characters after its rows`);
      continue;
    }
    buffer += decoder.write(chunk);
    drain(false);
    yield* flush();
  }
  buffer += decoder.end();
  if (!afterData) drain(true);
  if (!afterData || !root) throw new XlsxError('corrupt', `${part} has no sheet data`);
  yield Buffer.from(out + tail(buffer, root));
}

/** A row longer than this is no sales report's (a real one has three cells); such a file is not marked. */
const MAX_ROW_CHARS = 8 * 1024 * 1024;
/** What follows the rows (merged cells, formats, page setup) is held whole to place the drawing. */
const MAX_TAIL_CHARS = 16 * 1024 * 1024;
/** The rewritten sheet leaves in pieces of about this size. */
const OUT_CHARS = 64 * 1024;

interface RootTag {
  /** The worksheet element's prefix ("x:" or ""). */
  readonly prefix: string;
  /** The prefix bound to the relationships namespace on the root, if any. */
  readonly relationshipsPrefix: string | null;
  readonly strict: boolean;
}

function rootTag(buffer: string, part: string, final: boolean): RootTag | null {
  const match = /<([A-Za-z_][\w.-]*:)?worksheet((?:[^>"']|"[^"]*"|'[^']*')*?)\/?>/.exec(buffer);
  if (!match) {
    if (final || buffer.length > 1024 * 1024) throw new XlsxError('corrupt', `${part} is not a worksheet`);
    return null;
  }
  const prefix = match[1] ?? '';
  const attrs = match[2] ?? '';
  const own = attribute(attrs, prefix === '' ? 'xmlns' : `xmlns:${prefix.slice(0, -1)}`) ?? '';
  const strict = own === STRICT.main;
  const namespace = strict ? STRICT.relationships : TRANSITIONAL.relationships;
  let relationshipsPrefix: string | null = null;
  for (const m of attrs.matchAll(/xmlns:([A-Za-z_][\w.-]*)\s*=\s*("([^"]*)"|'([^']*)')/g)) {
    if ((m[3] ?? m[4]) === namespace) relationshipsPrefix = m[1]!;
  }
  return { prefix, relationshipsPrefix, strict };
}

/** Elements that come after `legacyDrawing` in a worksheet (ECMA-376 CT_Worksheet). */
const AFTER_LEGACY_DRAWING = ['legacyDrawingHF', 'drawingHF', 'picture', 'oleObjects', 'controls', 'webPublishItems', 'tableParts', 'extLst'];

function withLegacyDrawing(rest: string, root: RootTag, id: string): string {
  const relNs = root.strict ? STRICT.relationships : TRANSITIONAL.relationships;
  const reference = root.relationshipsPrefix ? `${root.relationshipsPrefix}:id="${id}"` : `xmlns:mr="${relNs}" mr:id="${id}"`;
  const element = `<${root.prefix}legacyDrawing ${reference}/>`;
  let at = rest.lastIndexOf(`</${root.prefix}worksheet`);
  if (at < 0) throw new XlsxError('corrupt', 'the worksheet has no end tag');
  for (const name of AFTER_LEGACY_DRAWING) {
    const found = rest.search(new RegExp(`<${root.prefix}${name}[\\s/>]`));
    if (found >= 0 && found < at) at = found;
  }
  return rest.slice(0, at) + element + rest.slice(at);
}

/** The comments part: ours added to the sheet's own (a cell with a comment gets ours above it), or a new part. */
function commentsXml(existing: string | null, notes: [string, string][], author: string, strict: boolean): string {
  const run = (text: string) => `<r><rPr><b/><sz val="9"/><color rgb="FF9C0006"/></rPr><t xml:space="preserve">${escapeXmlText(text)}</t></r>`;
  if (existing === null) {
    const list = notes.map(([ref, text]) => `<comment ref="${ref}" authorId="0"><text>${run(text)}</text></comment>`).join('');
    return `${XML_DECLARATION}<comments xmlns="${strict ? STRICT.main : TRANSITIONAL.main}"><authors><author>${escapeXmlText(author)}</author></authors><commentList>${list}</commentList></comments>`;
  }
  const prefix = /<([A-Za-z_][\w.-]*:)?comments[\s>]/.exec(existing)?.[1] ?? '';
  let xml = existing;
  const authorsEnd = xml.indexOf(`</${prefix}authors>`);
  const authorCount = (xml.match(new RegExp(`<${prefix}author[\\s>/]`, 'g')) ?? []).length;
  if (authorsEnd < 0) throw new XlsxError('corrupt', 'the comments part has no authors');
  xml = `${xml.slice(0, authorsEnd)}<${prefix}author>${escapeXmlText(author)}</${prefix}author>${xml.slice(authorsEnd)}`;
  const added: string[] = [];
  for (const [ref, text] of notes) {
    const own = new RegExp(`<${prefix}comment\\s[^>]*ref\\s*=\\s*["']${ref}["'][^>]*>\\s*<${prefix}text(?:\\s[^>]*)?>`).exec(xml);
    const ours = run(`${text}\n`).replace(/<(\/?)/g, `<$1${prefix}`);
    if (!own) {
      added.push(
        `<${prefix}comment ref="${ref}" authorId="${authorCount}"><${prefix}text>${run(text).replace(/<(\/?)/g, `<$1${prefix}`)}</${prefix}text></${prefix}comment>`,
      );
      continue;
    }
    // A comment's text is either one <t> or runs: a lone <t> becomes a run after ours.
    const start = own.index + own[0].length;
    const end = xml.indexOf(`</${prefix}text>`, start);
    let body = xml.slice(start, end);
    if (new RegExp(`^\\s*<${prefix}t[\\s>]`).test(body)) {
      const tEnd = body.indexOf(`</${prefix}t>`) + `</${prefix}t>`.length;
      body = `<${prefix}r>${body.slice(0, tEnd)}</${prefix}r>${body.slice(tEnd)}`;
    }
    xml = xml.slice(0, start) + ours + body + xml.slice(end);
  }
  const listEnd = xml.lastIndexOf(`</${prefix}commentList>`);
  if (listEnd < 0) throw new XlsxError('corrupt', 'the comments part has no comment list');
  return xml.slice(0, listEnd) + added.join('') + xml.slice(listEnd);
}

const SHAPE_TYPE =
  '<v:shapetype id="_x0000_t202" coordsize="21600,21600" o:spt="202" path="m,l,21600r21600,l21600,xe"><v:stroke joinstyle="miter"/><v:path gradientshapeok="t" o:connecttype="rect"/></v:shapetype>';

/** Excel's note box for a cell (hidden until pointed at), as Excel writes it. */
function shape(id: number, row: number, column: number): string {
  const anchor = `${column + 1}, 15, ${Math.max(row - 2, 0)}, 2, ${column + 4}, 15, ${row + 3}, 16`;
  return (
    `<v:shape id="_x0000_s${id}" type="#_x0000_t202" style="position:absolute;margin-left:60pt;margin-top:2pt;width:240pt;height:60pt;z-index:${id};visibility:hidden" fillcolor="#ffffe1" o:insetmode="auto">` +
    '<v:fill color2="#ffffe1"/><v:shadow on="t" color="black" obscured="t"/><v:path o:connecttype="none"/><v:textbox style="mso-direction-alt:auto"><div style="text-align:left"></div></v:textbox>' +
    `<x:ClientData ObjectType="Note"><x:MoveWithCells/><x:SizeWithCells/><x:Anchor>${anchor}</x:Anchor><x:AutoFill>False</x:AutoFill><x:Row>${row - 1}</x:Row><x:Column>${column}</x:Column></x:ClientData></v:shape>`
  );
}

/** The legacy drawing: shapes for the new comments added to the sheet's own, or a new drawing. */
function vmlXml(existing: string | null, cells: { row: number; column: number }[]): string {
  if (existing === null) {
    const shapes = cells.map((c, i) => shape(1025 + i, c.row, c.column)).join('');
    return (
      '<xml xmlns:v="urn:schemas-microsoft-com:vml" xmlns:o="urn:schemas-microsoft-com:office:office" xmlns:x="urn:schemas-microsoft-com:office:excel">' +
      `<o:shapelayout v:ext="edit"><o:idmap v:ext="edit" data="1"/></o:shapelayout>${SHAPE_TYPE}${shapes}</xml>`
    );
  }
  const taken = [...existing.matchAll(/_x0000_s(\d+)/g)].map((m) => Number(m[1]));
  const first = Math.max(1024, ...taken) + 1;
  const shapes = (existing.includes('_x0000_t202') ? '' : SHAPE_TYPE) + cells.map((c, i) => shape(first + i, c.row, c.column)).join('');
  const end = existing.lastIndexOf('</xml>');
  if (end < 0) throw new XlsxError('corrupt', 'the legacy drawing has no end tag');
  return existing.slice(0, end) + shapes + existing.slice(end);
}

/**
 * Styles with a marked copy of each style a marked cell uses. `finish(sources)` takes the source
 * indexes in the order `indexOf` handed out their copies.
 */
class MarkedStyles {
  readonly copies = new Map<number, number>();
  private readonly xfs: string[];
  private readonly prefix: string;

  constructor(
    private readonly styles: string | null,
    private readonly fill: string,
  ) {
    this.prefix = styles === null ? '' : (/<([A-Za-z_][\w.-]*:)?styleSheet[\s>]/.exec(styles)?.[1] ?? '');
    this.xfs = styles === null ? [] : this.cellXfs(styles);
  }

  private section(xml: string, name: string): { start: number; innerStart: number; innerEnd: number; end: number } | null {
    const open = new RegExp(`<${this.prefix}${name}((?:[^>"']|"[^"]*"|'[^']*')*?)(/?)>`).exec(xml);
    if (!open) return null;
    if (open[2] === '/')
      return { start: open.index, innerStart: open.index + open[0].length, innerEnd: open.index + open[0].length, end: open.index + open[0].length };
    const close = xml.indexOf(`</${this.prefix}${name}>`, open.index);
    if (close < 0) throw new XlsxError('corrupt', `the styles' ${name} has no end tag`);
    return { start: open.index, innerStart: open.index + open[0].length, innerEnd: close, end: close + `</${this.prefix}${name}>`.length };
  }

  /** The `<xf>` elements of cellXfs, whole. */
  private cellXfs(xml: string): string[] {
    const at = this.section(xml, 'cellXfs');
    if (!at) return [];
    const inner = xml.slice(at.innerStart, at.innerEnd);
    const found: string[] = [];
    const xf = new RegExp(`<${this.prefix}xf((?:[^>"']|"[^"]*"|'[^']*')*?)(/?)>`, 'g');
    for (let m = xf.exec(inner); m; m = xf.exec(inner)) {
      const end = m[2] === '/' ? m.index + m[0].length : inner.indexOf(`</${this.prefix}xf>`, m.index) + `</${this.prefix}xf>`.length;
      found.push(inner.slice(m.index, end));
      xf.lastIndex = end;
    }
    return found;
  }

  /** The index of the marked copy of style `source` (the first copy is placed after the existing styles). */
  indexOf(source: number): number {
    const from = source >= 0 && source < this.xfs.length ? source : 0;
    let copy = this.copies.get(from);
    if (copy === undefined) {
      copy = Math.max(this.xfs.length, 1) + this.copies.size;
      this.copies.set(from, copy);
    }
    return copy;
  }

  /** The styles part with the fill and the copies (a new part when the file had none). */
  xml(): string {
    const p = this.prefix;
    const fill = `<${p}fill><${p}patternFill patternType="solid"><${p}fgColor rgb="${this.fill}"/><${p}bgColor indexed="64"/></${p}patternFill></${p}fill>`;
    if (this.styles === null) {
      const copies = [...this.copies.keys()].map(() => '<xf numFmtId="0" fontId="0" fillId="2" borderId="0" xfId="0" applyFill="1"/>').join('');
      return (
        `${XML_DECLARATION}<styleSheet xmlns="${TRANSITIONAL.main}"><fonts count="1"><font><sz val="11"/><name val="Calibri"/></font></fonts>` +
        `<fills count="3"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill>${fill}</fills>` +
        '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
        '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
        `<cellXfs count="${1 + this.copies.size}"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>${copies}</cellXfs>` +
        '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>'
      );
    }
    let xml = this.styles;
    // The fill: after the fills there are (Excel needs its first two, none and gray125).
    let fillId: number;
    const fills = this.section(xml, 'fills');
    if (fills) {
      const inner = xml.slice(fills.innerStart, fills.innerEnd);
      fillId = (inner.match(new RegExp(`<${p}fill[\\s>/]`, 'g')) ?? []).length;
      const open = xml.slice(fills.start, fills.innerStart).replace(/\/>$/, '>');
      xml = `${xml.slice(0, fills.start)}${withCount(open, fillId + 1)}${inner}${fill}</${p}fills>${xml.slice(fills.end)}`;
    } else {
      fillId = 2;
      const element = `<${p}fills count="3"><${p}fill><${p}patternFill patternType="none"/></${p}fill><${p}fill><${p}patternFill patternType="gray125"/></${p}fill>${fill}</${p}fills>`;
      xml = insertBefore(xml, p, ['borders', 'cellStyleXfs', 'cellXfs', 'cellStyles', 'dxfs', 'tableStyles', 'colors', 'extLst'], element, 'styleSheet');
    }
    const copies = [...this.copies.keys()]
      .map((source) => {
        const original = this.xfs[source] ?? `<${p}xf numFmtId="0"/>`;
        const tag = /^<[^>]*?(\/?)>/.exec(original)!;
        let attrs = tag[0].slice(`<${p}xf`.length, tag[0].length - (tag[1] ? 2 : 1));
        attrs = withAttribute(withAttribute(attrs, 'fillId', String(fillId)), 'applyFill', '1');
        return `<${p}xf${attrs}${tag[1] ? '/>' : '>'}${original.slice(tag[0].length)}`;
      })
      .join('');
    const cellXfs = this.section(xml, 'cellXfs');
    if (cellXfs) {
      const inner = xml.slice(cellXfs.innerStart, cellXfs.innerEnd);
      const open = xml.slice(cellXfs.start, cellXfs.innerStart).replace(/\/>$/, '>');
      // With none at all, index 0 is the default the cells had.
      const base = this.xfs.length === 0 ? `<${p}xf numFmtId="0"/>` : '';
      xml = `${xml.slice(0, cellXfs.start)}${withCount(open, Math.max(this.xfs.length, 1) + this.copies.size)}${inner}${base}${copies}</${p}cellXfs>${xml.slice(cellXfs.end)}`;
    } else {
      const element = `<${p}cellXfs count="${1 + this.copies.size}"><${p}xf numFmtId="0"/>${copies}</${p}cellXfs>`;
      xml = insertBefore(xml, p, ['cellStyles', 'dxfs', 'tableStyles', 'colors', 'extLst'], element, 'styleSheet');
    }
    return xml;
  }
}

const withCount = (openTag: string, count: number) => {
  const attrs = openTag.slice(openTag.indexOf(' ') < 0 ? openTag.length - 1 : openTag.indexOf(' '), -1);
  const name = openTag.slice(0, openTag.length - 1 - attrs.length);
  return `${name}${withAttribute(attrs, 'count', String(count))}>`;
};

/** `element` before the first of `later` present, else before the root's end tag. */
function insertBefore(xml: string, prefix: string, later: string[], element: string, root: string): string {
  let at = xml.lastIndexOf(`</${prefix}${root}>`);
  if (at < 0) throw new XlsxError('corrupt', `the ${root} has no end tag`);
  for (const name of later) {
    const found = xml.search(new RegExp(`<${prefix}${name}[\\s/>]`));
    if (found >= 0 && found < at) at = found;
  }
  return xml.slice(0, at) + element + xml.slice(at);
}

/** `[Content_Types].xml` with the types of the added parts. */
function withContentTypes(xml: string, overrides: [string, string][], vml: boolean): string {
  let added = '';
  if (vml && !/Extension\s*=\s*["']vml["']/i.test(xml)) added += `<Default Extension="vml" ContentType="${VML_TYPE}"/>`;
  for (const [part, type] of overrides) added += `<Override PartName="/${escapeXmlAttribute(part)}" ContentType="${type}"/>`;
  const end = xml.lastIndexOf('</');
  if (end < 0) throw new XlsxError('corrupt', 'the content types part has no end tag');
  return xml.slice(0, end) + added + xml.slice(end);
}

/**
 * The workbook at `path` with `marks` on its first worksheet, as a new xlsx (a Buffer). Throws
 * `XlsxError` for a file that cannot be read or rewritten (the same limits as reading it).
 */
export async function markXlsx(path: string, marks: readonly CellMark[], options: MarkOptions): Promise<Buffer> {
  const limits = resolveLimits(options.limits);
  const zip = await SafeZip.open(path, limits);
  try {
    const parts = await locateParts(zip, limits);
    const byRow = marksByRow(marks);
    const sheetPart = parts.sheet.entry.fileName;
    const typesEntry = zip.find('[Content_Types].xml');
    if (!typesEntry) throw new XlsxError('corrupt', 'the archive has no [Content_Types].xml');

    const styles = new MarkedStyles(parts.stylesEntry ? await textOf(zip, parts.stylesEntry, limits.maxMetadataBytes) : null, options.fill ?? 'FFFFC7CE');
    const notes: { row: number; column: number; ref: string; text: string }[] = [];
    for (const [row, columns] of [...byRow].sort((a, b) => a[0] - b[0])) {
      for (const [column, text] of [...columns].sort((a, b) => a[0] - b[0])) notes.push({ row, column, ref: `${columnLetters(column)}${row}`, text });
    }

    // The sheet's relationships: its own comments and legacy drawing, if any, take ours.
    const sheetRelsPart = relsPartFor(sheetPart);
    const sheetRelsEntry = zip.find(sheetRelsPart);
    const sheetRels = await readRels(zip, sheetPart, limits);
    const ownComments = relationshipOfType(sheetRels, 'comments');
    const ownDrawing = relationshipOfType(sheetRels, 'vmlDrawing');
    const ownCommentsEntry = ownComments ? zip.find(ownComments.target) : undefined;
    const ownDrawingEntry = ownDrawing ? zip.find(ownDrawing.target) : undefined;

    // First pass: the rows are read to learn which styles need a marked copy (and that the sheet can be rewritten).
    const sheetEntry = parts.sheet.entry;
    const rewrittenSheet = (drawingId: string | null) =>
      rewriteSheet(zip.chunks(sheetEntry, limits.maxSheetBytes), sheetPart, new SheetRewriter(byRow, (s) => styles.indexOf(s)), (rest, root) =>
        drawingId === null ? rest : withLegacyDrawing(rest, root, drawingId),
      );
    for await (const chunk of rewrittenSheet(null)) void chunk;

    const replaced = new Map<string, string>();
    const added = new Map<string, string>();
    const takenNames = new Set<string>();
    const takenIds = new Set<string>();
    const overrides: [string, string][] = [];
    const relNs = [...parts.rels.values()].some((r) => r.type.startsWith('http://purl.oclc.org')) ? STRICT.relationships : TRANSITIONAL.relationships;
    const strict = relNs === STRICT.relationships;
    let drawingId: string | null = null;
    if (notes.length > 0) {
      let relationships = '';
      const texts = notes.map((n): [string, string] => [n.ref, n.text]);
      if (ownCommentsEntry) {
        replaced.set(ownCommentsEntry.fileName, commentsXml(await textOf(zip, ownCommentsEntry, limits.maxMetadataBytes), texts, options.author, strict));
      } else {
        const name = freeName(zip, takenNames, (n) => `${baseOf(parts.workbookEntry)}comments${n}.xml`);
        added.set(name, commentsXml(null, texts, options.author, strict));
        overrides.push([name, COMMENTS_TYPE]);
        relationships += relationship(freeId(sheetRels, takenIds), `${relNs}/comments`, posix.relative(posix.dirname(sheetPart), name));
      }
      if (ownDrawingEntry) {
        replaced.set(ownDrawingEntry.fileName, vmlXml(await textOf(zip, ownDrawingEntry, limits.maxMetadataBytes), notes));
      } else {
        const name = freeName(zip, takenNames, (n) => `${baseOf(parts.workbookEntry)}drawings/vmlDrawing${n}.vml`);
        added.set(name, vmlXml(null, notes));
        drawingId = freeId(sheetRels, takenIds);
        relationships += relationship(drawingId, `${relNs}/vmlDrawing`, posix.relative(posix.dirname(sheetPart), name));
      }
      if (relationships !== '') {
        if (sheetRelsEntry) replaced.set(sheetRelsEntry.fileName, addRelationships(await textOf(zip, sheetRelsEntry, limits.maxMetadataBytes), relationships));
        else added.set(sheetRelsPart, addRelationships(null, relationships));
      }
      if (parts.stylesEntry) replaced.set(parts.stylesEntry.fileName, styles.xml());
      else {
        const name = `${baseOf(parts.workbookEntry)}styles.xml`;
        added.set(name, styles.xml());
        overrides.push([name, STYLES_TYPE]);
        const workbookRelsEntry = zip.find(relsPartFor(parts.workbookEntry.fileName));
        if (!workbookRelsEntry) throw new XlsxError('corrupt', 'the workbook has no relationships part');
        const id = freeId(parts.rels, takenIds);
        replaced.set(
          workbookRelsEntry.fileName,
          addRelationships(await textOf(zip, workbookRelsEntry, limits.maxMetadataBytes), relationship(id, `${relNs}/styles`, 'styles.xml')),
        );
      }
      replaced.set(typesEntry.fileName, withContentTypes(await textOf(zip, typesEntry, limits.maxMetadataBytes), overrides, !ownDrawingEntry));
    }

    // Second pass: every entry copied in its order, the rewritten ones in their place, the new ones last.
    const out = new ZipFile();
    // yazl does not pass on a failing input's error: the output stops with it.
    const output = new PassThrough();
    out.outputStream.pipe(output);
    const failed = (stream: Readable) => stream.on('error', (error) => output.destroy(error));
    for (const entry of zip.entriesInOrder()) {
      const name = entry.fileName;
      if (name.endsWith('/')) continue; // folders are implied by the parts' names
      const content = replaced.get(name);
      if (content !== undefined) out.addBuffer(Buffer.from(content), name);
      else if (name === sheetPart) out.addReadStream(failed(Readable.from(rewrittenSheet(drawingId))), name);
      else out.addReadStream(failed(Readable.from(zip.chunks(entry, limits.maxSheetBytes))), name, { compress: entry.compressionMethod !== 0 });
    }
    for (const [name, content] of added) out.addBuffer(Buffer.from(content), name);
    out.end();
    const chunks: Buffer[] = [];
    for await (const chunk of output) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  } finally {
    zip.close();
  }
}
