import { type FileHandle, open as openFile } from 'node:fs/promises';
import { pipeline, type Readable } from 'node:stream';
import { crc32, createInflateRaw } from 'node:zlib';
import yauzl, { type Entry, type ZipFile } from 'yauzl';
import { XlsxError } from './errors.ts';
import { RATIO_CHECK_MIN_BYTES, type XlsxLimits } from './limits.ts';

const ZIP_LOCAL_HEADER = Buffer.from([0x50, 0x4b, 0x03, 0x04]); // "PK\x03\x04"
const OLE_HEADER = Buffer.from([0xd0, 0xcf, 0x11, 0xe0]); // legacy .xls, and password-protected .xlsx
const INFLATE_CHUNK = 64 * 1024;
const ENCRYPTED_PACKAGE = Buffer.from('EncryptedPackage', 'utf16le');

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
    if (bytesRead === 0) throw new XlsxError('empty', 'the file is empty');
    if (bytesRead === 4 && head.equals(OLE_HEADER)) {
      if (await holds(handle, ENCRYPTED_PACKAGE)) throw new XlsxError('encrypted', 'password-protected workbook (OLE container with an EncryptedPackage)');
      throw new XlsxError('not_xlsx', 'legacy .xls (OLE container), not an .xlsx');
    }
    throw new XlsxError('not_xlsx', 'not an .xlsx file (no zip signature)');
  } finally {
    await handle.close();
  }
}

/**
 * Whether the file holds these bytes anywhere, read a megabyte at a time (an upload is at most a
 * few tens of megabytes). An OLE container names its streams in its directory in UTF-16LE; a
 * password-protected xlsx is one holding the streams EncryptionInfo and EncryptedPackage (MS-OFFCRYPTO),
 * a legacy .xls one holding Workbook or Book.
 */
async function holds(handle: FileHandle, needle: Buffer): Promise<boolean> {
  const chunk = Buffer.alloc(1024 * 1024);
  let carry = Buffer.alloc(0);
  for (let position = 0; ;) {
    const { bytesRead } = await handle.read(chunk, 0, chunk.length, position);
    if (bytesRead === 0) return false;
    const window = Buffer.concat([carry, chunk.subarray(0, bytesRead)]);
    if (window.includes(needle)) return true;
    carry = window.subarray(Math.max(0, window.length - needle.length + 1));
    position += bytesRead;
  }
}

/** A damaged archive (the reader's other `corrupt` is about what the archive holds). */
function corrupt(message: string, cause?: unknown): XlsxError {
  return new XlsxError('broken_zip', message, cause === undefined ? undefined : { cause });
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

  /** Every entry, in the order of the central directory. */
  entriesInOrder(): Entry[] {
    return [...this.entries.values()];
  }

  /** Looks an entry up by part name (exact, then case-insensitive as some writers differ in case). */
  find(name: string): Entry | undefined {
    return this.entries.get(name) ?? this.entriesLowerCase.get(name.toLowerCase());
  }

  /**
   * Streams the inflated bytes of one entry. An entry declaring more than
   * `maxBytes` is refused before inflating; while inflating, the bytes are
   * counted and the stream aborted (`broken_zip`) as soon as more come out
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
          // A header that lies about the size (a zip bomb, or damage): never more than declared is inflated.
          throw corrupt(`${name} inflates beyond its declared size of ${declared} bytes`);
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
