import { open as openFile } from 'node:fs/promises';
import { pipeline, type Readable } from 'node:stream';
import { crc32, createInflateRaw } from 'node:zlib';
import yauzl, { type Entry, type ZipFile } from 'yauzl';
import { XlsxError } from './errors.ts';
import { RATIO_CHECK_MIN_BYTES, type XlsxLimits } from './limits.ts';

const ZIP_LOCAL_HEADER = Buffer.from([0x50, 0x4b, 0x03, 0x04]); // "PK\x03\x04"
const OLE_HEADER = Buffer.from([0xd0, 0xcf, 0x11, 0xe0]); // legacy .xls, and password-protected .xlsx
const INFLATE_CHUNK = 64 * 1024;

/**
 * Reads the first bytes of the file and refuses anything that does not start
 * like a zip archive with a local file header (an empty zip has no entries
 * and therefore no workbook either).
 */
export async function assertZipSignature(path: string): Promise<void> {
  const handle = await openFile(path, 'r');
  try {
    const head = Buffer.alloc(4);
    const { bytesRead } = await handle.read(head, 0, 4, 0);
    if (bytesRead === 4 && head.equals(ZIP_LOCAL_HEADER)) return;
    if (bytesRead === 0) throw new XlsxError('not_xlsx', 'the file is empty');
    if (bytesRead === 4 && head.equals(OLE_HEADER)) {
      throw new XlsxError('not_xlsx', 'legacy .xls or password-protected workbook (OLE container), not an .xlsx');
    }
    throw new XlsxError('not_xlsx', 'not an .xlsx file (no zip signature)');
  } finally {
    await handle.close();
  }
}

function corrupt(message: string, cause?: unknown): XlsxError {
  return new XlsxError('corrupt', message, cause === undefined ? undefined : { cause });
}

function asXlsxError(error: unknown, what: string): XlsxError {
  if (error instanceof XlsxError) return error;
  const reason = error instanceof Error ? error.message : String(error);
  return corrupt(`${what}: ${reason}`, error);
}

/**
 * A zip archive opened from a file path with every entry's metadata checked
 * against the limits before anything is inflated. Entries are then streamed
 * one at a time, counting inflated bytes and checking the CRC.
 */
export class SafeZip {
  private readonly zip: ZipFile;
  private readonly entries: Map<string, Entry>;
  private readonly entriesLowerCase: Map<string, Entry>;

  private constructor(zip: ZipFile, entries: Map<string, Entry>) {
    this.zip = zip;
    this.entries = entries;
    this.entriesLowerCase = new Map();
    for (const [name, entry] of entries) {
      const lower = name.toLowerCase();
      if (!this.entriesLowerCase.has(lower)) this.entriesLowerCase.set(lower, entry);
    }
  }

  static async open(path: string, limits: XlsxLimits): Promise<SafeZip> {
    await assertZipSignature(path);
    let zip: ZipFile;
    try {
      zip = await new Promise<ZipFile>((resolve, reject) => {
        yauzl.open(
          path,
          // We count and verify sizes ourselves (yauzl's own check would surface as an untyped error).
          { lazyEntries: true, autoClose: false, decodeStrings: true, validateEntrySizes: false, strictFileNames: false },
          (err, zipfile) => (err ? reject(err) : resolve(zipfile)),
        );
      });
    } catch (error) {
      throw asXlsxError(error, 'unreadable zip archive');
    }
    try {
      if (zip.entryCount > limits.maxEntries) {
        throw new XlsxError('too_large', `the archive has ${zip.entryCount} entries (at most ${limits.maxEntries} allowed)`);
      }
      const entries = new Map<string, Entry>();
      try {
        for await (const entry of zip.eachEntry()) {
          checkEntry(entry, limits);
          if (entries.has(entry.fileName)) throw corrupt(`duplicate zip entry ${entry.fileName}`);
          entries.set(entry.fileName, entry);
        }
      } catch (error) {
        throw asXlsxError(error, 'unreadable zip central directory');
      }
      return new SafeZip(zip, entries);
    } catch (error) {
      zip.close();
      throw error;
    }
  }

  /** Looks an entry up by part name (exact, then case-insensitive as some writers differ in case). */
  find(name: string): Entry | undefined {
    return this.entries.get(name) ?? this.entriesLowerCase.get(name.toLowerCase());
  }

  /**
   * Streams the inflated bytes of one entry. An entry declaring more than
   * `maxBytes` is refused before inflating; while inflating, the bytes are
   * counted and the stream aborted with `too_large` as soon as more come out
   * than declared (a lying header), so at most `maxBytes` are ever produced.
   * A short, damaged or CRC-failing stream is `corrupt`.
   */
  async *chunks(entry: Entry, maxBytes: number): AsyncGenerator<Buffer, void, undefined> {
    const name = entry.fileName;
    const declared = entry.uncompressedSize;
    if (declared > maxBytes) {
      throw new XlsxError('too_large', `${name} declares ${declared} bytes (at most ${maxBytes} allowed)`);
    }
    if (entry.compressionMethod !== 0 && entry.compressionMethod !== 8) {
      throw corrupt(`${name} uses unsupported compression method ${entry.compressionMethod}`);
    }
    let raw: Readable;
    try {
      raw = await this.zip.openReadStreamPromise(entry, { decodeFileData: false });
    } catch (error) {
      throw asXlsxError(error, `cannot read ${name}`);
    }
    let source: Readable = raw;
    if (entry.compressionMethod === 8) {
      const inflate = createInflateRaw({ chunkSize: INFLATE_CHUNK });
      // pipeline destroys both streams when either fails or the consumer stops early.
      pipeline(raw, inflate, () => {});
      source = inflate;
    }
    let total = 0;
    let crc = 0;
    try {
      for await (const chunk of source as AsyncIterable<Buffer>) {
        total += chunk.length;
        if (total > declared) {
          throw new XlsxError('too_large', `${name} inflates beyond its declared size of ${declared} bytes`);
        }
        crc = crc32(chunk, crc);
        yield chunk;
      }
    } catch (error) {
      throw asXlsxError(error, `cannot inflate ${name}`);
    } finally {
      source.destroy();
      raw.destroy();
    }
    if (total !== declared) throw corrupt(`${name} is truncated (${total} of ${declared} bytes)`);
    if (crc !== entry.crc32) throw corrupt(`${name} fails its CRC check`);
  }

  close(): void {
    this.zip.close();
  }
}

function checkEntry(entry: Entry, limits: XlsxLimits): void {
  const name = entry.fileName;
  if (entry.isEncrypted()) throw corrupt(`${name} is encrypted`);
  if (entry.uncompressedSize > limits.maxSheetBytes) {
    throw new XlsxError('too_large', `${name} declares ${entry.uncompressedSize} bytes uncompressed (at most ${limits.maxSheetBytes} allowed)`);
  }
  if (entry.uncompressedSize >= RATIO_CHECK_MIN_BYTES) {
    const ratio = entry.uncompressedSize / Math.max(entry.compressedSize, 1);
    if (ratio > limits.maxCompressionRatio) {
      throw new XlsxError('too_large', `${name} has a compression ratio of ${Math.round(ratio)}:1 (at most ${limits.maxCompressionRatio}:1 allowed)`);
    }
  }
}
