/**
 * Caps applied to every upload. All of them can be lowered (or raised) per
 * call through `XlsxReadOptions.limits`; the defaults suit a sales report of
 * up to about a million rows.
 */
export interface XlsxLimits {
  /** Entries in the zip central directory (checked before anything is inflated). A real xlsx has a few dozen. */
  maxEntries: number;
  /**
   * Inflated bytes of the worksheet XML. Also the cap on the declared
   * uncompressed size of any entry of the archive, read or not.
   */
  maxSheetBytes: number;
  /** Inflated bytes of xl/sharedStrings.xml (the strings are kept in memory for lookups). */
  maxSharedStringsBytes: number;
  /** Number of shared strings (<si> elements). */
  maxSharedStrings: number;
  /** Inflated bytes of each small part: _rels/.rels, xl/workbook.xml, its rels, xl/styles.xml. */
  maxMetadataBytes: number;
  /** Declared uncompressed / compressed size of any entry larger than 1 MiB. Zeros deflate about 1000:1; XML sheets 5-50:1. */
  maxCompressionRatio: number;
  /** Non-empty rows yielded from the worksheet. */
  maxRows: number;
  /**
   * Bytes of XML the parser may take in without producing an event (one text
   * node, one tag with its attributes, one comment). Bounds what the XML
   * parser buffers internally; Excel itself caps a cell at 32,767 characters.
   */
  maxXmlTokenBytes: number;
}

const MiB = 1024 * 1024;

export const DEFAULT_XLSX_LIMITS: Readonly<XlsxLimits> = Object.freeze({
  maxEntries: 1_000,
  maxSheetBytes: 200 * MiB,
  maxSharedStringsBytes: 64 * MiB,
  maxSharedStrings: 1_000_000,
  maxMetadataBytes: 10 * MiB,
  maxCompressionRatio: 200,
  maxRows: 1_000_000,
  maxXmlTokenBytes: 1 * MiB,
});

/** Entries below this declared size are not subject to the ratio check (tiny parts can compress very well and are harmless). */
export const RATIO_CHECK_MIN_BYTES = 1 * MiB;

export function resolveLimits(overrides: Partial<XlsxLimits> | undefined): XlsxLimits {
  const limits: XlsxLimits = { ...DEFAULT_XLSX_LIMITS };
  if (overrides) {
    for (const key of Object.keys(DEFAULT_XLSX_LIMITS) as (keyof XlsxLimits)[]) {
      const value = overrides[key];
      if (value === undefined) continue;
      if (!Number.isFinite(value) || value <= 0) throw new RangeError(`xlsx limit ${key} must be a positive number`);
      limits[key] = value;
    }
  }
  return limits;
}
