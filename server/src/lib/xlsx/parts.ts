import { posix } from 'node:path';
import { isBuiltinDateFormatId, isDateFormatCode } from './dates.ts';
import { XlsxError } from './errors.ts';
import { decodeXstring } from './strings.ts';
import { attributeByLocalName, type XmlSink } from './xml.ts';

/* Sinks for the small parts read before the worksheet. Elements are matched by local name. */

export interface Relationship {
  readonly type: string;
  /** Zip entry name the target resolves to. */
  readonly target: string;
}

/** `xl/workbook.xml` → `xl/_rels/workbook.xml.rels`; `''` (package root) → `_rels/.rels`. */
export function relsPartFor(part: string): string {
  const dir = posix.dirname(part);
  const base = part === '' ? '' : posix.basename(part);
  return `${dir === '.' || part === '' ? '' : `${dir}/`}_rels/${base}.rels`;
}

/** Resolves a relationship target (relative to the source part's folder, or absolute from the package root) to a zip entry name. */
export function resolveTarget(sourcePart: string, target: string): string {
  let t = target.replace(/\\/g, '/');
  try {
    t = decodeURI(t);
  } catch {
    // keep it as written
  }
  if (t.startsWith('/')) return posix.normalize(t.slice(1));
  const dir = sourcePart === '' ? '.' : posix.dirname(sourcePart);
  return posix.normalize(posix.join(dir, t));
}

export class RelsSink implements XmlSink {
  readonly relationships = new Map<string, Relationship>();
  private readonly sourcePart: string;

  constructor(sourcePart: string) {
    this.sourcePart = sourcePart;
  }

  open(name: string, attributes: Readonly<Record<string, string>>): void {
    if (name !== 'Relationship') return;
    const { Id: id, Type: type, Target: target, TargetMode: mode } = attributes;
    if (!id || !type || !target || mode === 'External') return;
    this.relationships.set(id, { type, target: resolveTarget(this.sourcePart, target) });
  }

  close(): void {}
  text(): void {}
}

/** Relationship types are matched by their last segment, so both transitional and strict (ISO 29500) namespaces work. */
export function relationshipOfType(rels: Map<string, Relationship>, suffix: string): Relationship | undefined {
  for (const rel of rels.values()) if (rel.type.endsWith(`/${suffix}`)) return rel;
  return undefined;
}

export interface SheetRef {
  readonly name: string;
  readonly relId: string;
  readonly state: string;
}

export class WorkbookSink implements XmlSink {
  readonly sheets: SheetRef[] = [];
  date1904 = false;
  private inSheets = false;

  open(name: string, attributes: Readonly<Record<string, string>>): void {
    if (name === 'workbookPr') {
      const value = attributes.date1904;
      this.date1904 = value === '1' || value === 'true';
    } else if (name === 'sheets') {
      this.inSheets = true;
    } else if (name === 'sheet' && this.inSheets) {
      const relId = attributeByLocalName(attributes, 'id');
      if (!relId) throw new XlsxError('corrupt', 'a sheet in the workbook has no relationship id');
      this.sheets.push({ name: attributes.name ?? '', relId, state: attributes.state ?? 'visible' });
    }
  }

  close(name: string): void {
    if (name === 'sheets') this.inSheets = false;
  }

  text(): void {}
}

/** Collects numFmts and the cellXfs number format ids; `dateStyles()` then tells, by cell style index, which cells are dates. */
export class StylesSink implements XmlSink {
  private readonly customFormats = new Map<number, string>();
  private readonly xfFormatIds: number[] = [];
  private inNumFmts = false;
  private inCellXfs = false;

  open(name: string, attributes: Readonly<Record<string, string>>): void {
    switch (name) {
      case 'numFmts':
        this.inNumFmts = true;
        break;
      case 'numFmt':
        // numFmt also appears inside dxfs (conditional formats): only the numFmts list counts.
        if (this.inNumFmts) {
          const id = Number(attributes.numFmtId);
          if (Number.isInteger(id)) this.customFormats.set(id, attributes.formatCode ?? '');
        }
        break;
      case 'cellXfs':
        this.inCellXfs = true;
        break;
      case 'xf':
        // xf also appears in cellStyleXfs: only cellXfs is indexed by a cell's s attribute.
        if (this.inCellXfs) {
          const id = Number(attributes.numFmtId ?? '0');
          this.xfFormatIds.push(Number.isInteger(id) ? id : 0);
        }
        break;
    }
  }

  close(name: string): void {
    if (name === 'numFmts') this.inNumFmts = false;
    else if (name === 'cellXfs') this.inCellXfs = false;
  }

  text(): void {}

  dateStyles(): boolean[] {
    return this.xfFormatIds.map((id) => {
      const custom = this.customFormats.get(id);
      return custom !== undefined ? isDateFormatCode(custom) : isBuiltinDateFormatId(id);
    });
  }
}

/**
 * Shared strings table: each <si> is either <t> or rich-text runs <r><t>,
 * concatenated; phonetic hints (<rPh><t>) are not part of the value.
 */
export class SharedStringsSink implements XmlSink {
  readonly strings: string[] = [];
  private readonly maxStrings: number;
  private inItem = false;
  private inText = false;
  private phoneticDepth = 0;
  private current = '';

  constructor(maxStrings: number) {
    this.maxStrings = maxStrings;
  }

  open(name: string): void {
    switch (name) {
      case 'si':
        this.inItem = true;
        this.current = '';
        break;
      case 't':
        if (this.inItem && this.phoneticDepth === 0) this.inText = true;
        break;
      case 'rPh':
        this.phoneticDepth++;
        break;
    }
  }

  close(name: string): void {
    switch (name) {
      case 'si':
        if (this.strings.length >= this.maxStrings) {
          throw new XlsxError('too_large', `more than ${this.maxStrings} shared strings`);
        }
        this.strings.push(decodeXstring(this.current));
        this.inItem = false;
        this.current = '';
        break;
      case 't':
        this.inText = false;
        break;
      case 'rPh':
        if (this.phoneticDepth > 0) this.phoneticDepth--;
        break;
    }
  }

  text(text: string): void {
    if (this.inText) this.current += text;
  }
}
