import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { MultipartFile } from '@fastify/multipart';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { and, eq, gt, lt, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { fileChunks, files } from '../db/schema.ts';
import { type AppError, notFound, validationError } from '../errors.ts';
import { contentDisposition } from './content-disposition.ts';
import { hasDisallowedCharacters, truncateText } from './text.ts';

export const LOGOTYPE_MAX_BYTES = 2 * 1024 * 1024;

/**
 * Bytes per stored chunk. Each chunk is one INSERT (or one SELECT when read), so with the embedded
 * database's single connection another request waits for one chunk at most (a few milliseconds),
 * never for a whole file; and the server holds about one chunk of a file at a time.
 */
export const FILE_CHUNK_BYTES = 256 * 1024;

/** An incomplete file older than this was left by a process that ended during the upload. */
const ABANDONED_AFTER = '1 day';

/** The image type by its first bytes, whatever the file is called. */
export function sniffImageType(content: Buffer): 'image/png' | 'image/jpeg' | null {
  if (content.length >= 8 && content.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (content.length >= 3 && content[0] === 0xff && content[1] === 0xd8 && content[2] === 0xff) return 'image/jpeg';
  return null;
}

/**
 * The name of an uploaded file, as it is stored: a file name is user input like any other, so a
 * name holding control characters or half a surrogate pair is refused as the app-wide check
 * refuses such text (422 on `file`); a long one is cut without splitting a character.
 */
export function uploadedFileName(filename: string, fallback: string): string {
  if (hasDisallowedCharacters(filename)) throw validationError('file', 'validation.characters');
  return truncateText(filename, 200) || fallback;
}

/** Room for the multipart framing around a file: boundaries and the part's headers with its name. */
const MULTIPART_FRAMING_BYTES = 64 * 1024;

/**
 * The uploaded file (multipart field "file") of a request, streamed: its name and its content as
 * it arrives, at most `maxMb` megabytes ("The file is too large", naming the limit). A body declared
 * larger than any file taken is refused without reading it; one of unknown length is cut at the
 * limit as it arrives. Call it only once who and when are checked: a refusal before it answers
 * without the body having been read.
 */
export async function uploadedFile(request: FastifyRequest, maxMb: number, fallbackName: string): Promise<{ name: string; content: AsyncIterable<Buffer> }> {
  const maxBytes = Math.floor(maxMb * 1024 * 1024);
  const tooLarge = () => validationError('file', 'files.too_large', { max: `${maxMb} MB` });
  if (!request.isMultipart()) throw validationError('file', 'validation.required');
  if (Number(request.headers['content-length']) > maxBytes + MULTIPART_FRAMING_BYTES) throw tooLarge();
  const part = await request.file({ limits: { fileSize: maxBytes, files: 1 } });
  if (!part || part.fieldname !== 'file') throw validationError('file', 'validation.required');
  return { name: uploadedFileName(part.filename, fallbackName), content: uploadedContent(part, tooLarge) };
}

/**
 * The whole content of an uploaded file, or `tooLarge` when it went over the part's size limit.
 * `toBuffer()` alone lets some over-limit files through: when the file reaches the limit exactly at
 * the end of a piece of the request body, the parser cuts it there but only marks it truncated when
 * the next piece arrives, after toBuffer has checked the last piece it read; the first `limit`
 * bytes then came back as if they were the whole file. The flag, read once the stream has
 * ended, is always set.
 */
export async function readWholePart(part: MultipartFile, tooLarge: () => AppError): Promise<Buffer> {
  const content = await part.toBuffer().catch((error: { code?: string }) => {
    if (error.code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge();
    throw error;
  });
  if (part.file.truncated) throw tooLarge();
  return content;
}

/**
 * The content of an uploaded file as it arrives, without keeping it; throws `tooLarge` when it
 * goes over the part's size limit (request.file({ limits: { fileSize } })). The parser stops
 * passing data on at the limit and marks the stream truncated, sometimes only after the last piece
 * it passed on (see readWholePart), so the flag is checked again at the end. At the limit the
 * stream is destroyed, so that the rest of an oversized body is not waited for.
 */
export async function* uploadedContent(part: MultipartFile, tooLarge: () => AppError): AsyncGenerator<Buffer> {
  const stream = part.file;
  let over = false;
  const onLimit = () => {
    over = true;
    stream.destroy();
  };
  stream.once('limit', onLimit);
  try {
    for await (const piece of stream as AsyncIterable<Buffer>) {
      if (stream.truncated) throw tooLarge();
      yield piece;
    }
  } catch (error) {
    // Destroyed at the limit: the stream ends with a "premature close" that means "too large".
    if (over || stream.truncated) throw tooLarge();
    throw error;
  } finally {
    stream.off('limit', onLimit);
  }
  if (over || stream.truncated) throw tooLarge();
}

/** Reads the multipart `file` field of a logotype upload: png or jpg by content, at most 2 MiB. */
export async function readLogotype(request: FastifyRequest): Promise<{ name: string; mimeType: string; content: Buffer }> {
  if (!request.isMultipart()) throw validationError('file', 'validation.required');
  const part = await request.file({ limits: { fileSize: LOGOTYPE_MAX_BYTES, files: 1 } });
  if (!part || part.fieldname !== 'file') throw validationError('file', 'validation.required');
  const content = await readWholePart(part, () => validationError('file', 'files.too_large', { max: '2 MiB' }));
  const name = uploadedFileName(part.filename, 'logotype');
  const mimeType = sniffImageType(content);
  if (!mimeType) throw validationError('file', 'files.logotype_type');
  return { name, mimeType, content };
}

/** A buffer in pieces of FILE_CHUNK_BYTES (views, not copies). */
function* piecesOf(content: Buffer): Generator<Buffer> {
  for (let at = 0; at < content.length; at += FILE_CHUNK_BYTES) yield content.subarray(at, at + FILE_CHUNK_BYTES);
}

/**
 * Stores a file, from a buffer or as it arrives (an upload), and returns its id. The file row comes
 * with the first chunk; then the content, in chunks of about FILE_CHUNK_BYTES, each its own short
 * INSERT without a transaction around them, so that other requests' queries run between the
 * chunks; size and SHA-256 are computed on the way; the row is marked complete at the end. A file
 * of one chunk (most report files) is its row and its chunk in one statement. If the content fails
 * (too large, the client went away) or the database does, the row and the chunks written so far are
 * deleted.
 */
export async function storeFile(db: Db, file: { name: string; mimeType: string; content: Buffer | AsyncIterable<Buffer> }): Promise<number> {
  let id: number | null = null;
  try {
    const hash = createHash('sha256');
    let size = 0;
    let seq = 0;
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    const take = () => {
      const data = pending.length === 1 ? pending[0]! : Buffer.concat(pending, pendingBytes);
      pending = [];
      pendingBytes = 0;
      return data;
    };
    const flush = async () => {
      const data = take();
      if (id === null) {
        const [row] = await db
          .insert(files)
          .values({ name: file.name, mime_type: file.mimeType, size: 0, sha256: '', complete: false })
          .returning({ id: files.id });
        id = row!.id;
      }
      await db.insert(fileChunks).values({ file_id: id, seq: seq++, data });
    };
    // Reading waits while a chunk is written: the upload's own backpressure, not a buffer.
    for await (const piece of Buffer.isBuffer(file.content) ? piecesOf(file.content) : file.content) {
      hash.update(piece);
      size += piece.length;
      pending.push(piece);
      pendingBytes += piece.length;
      if (pendingBytes >= FILE_CHUNK_BYTES) await flush();
    }
    if (id === null) {
      // The whole file arrived before a chunk was full: complete, with its chunk (if any), at once.
      const data = take();
      const { rows } = await db.execute<{ id: number }>(sql`
        with stored as (
          insert into ${files} (name, mime_type, size, sha256, complete)
          values (${file.name}, ${file.mimeType}, ${size}, ${hash.digest('hex')}, true) returning id
        ), chunk as (
          insert into ${fileChunks} (file_id, seq, data) select id, 0, ${data} from stored where ${size} > 0
        )
        select id from stored`);
      return rows[0]!.id;
    }
    if (pendingBytes > 0) await flush();
    await db
      .update(files)
      .set({ size, sha256: hash.digest('hex'), complete: true })
      .where(eq(files.id, id));
    return id;
  } catch (error) {
    // The reason the upload failed is what the caller needs; if the database cannot delete the
    // remains now either, deleteAbandonedFiles does it later.
    await deleteFile(db, id).catch(() => {});
    throw error;
  }
}

/** Deletes a file with its chunks (the foreign key cascades). */
export async function deleteFile(db: Db, id: number | null): Promise<void> {
  if (id !== null) await db.delete(files).where(eq(files.id, id));
}

/**
 * Deletes files whose upload never completed: the process ended while storing them (a failed upload
 * deletes its own). Only old ones: a recent one may still be arriving in another process.
 */
export async function deleteAbandonedFiles(db: Db): Promise<number> {
  const deleted = await db
    .delete(files)
    .where(and(eq(files.complete, false), lt(files.created_at, sql`now() - ${ABANDONED_AFTER}::interval`)))
    .returning({ id: files.id });
  return deleted.length;
}

/** A stored file's content, chunk by chunk: one short query per chunk, one chunk in memory. */
export async function* fileContent(db: Db, id: number): AsyncGenerator<Buffer> {
  let seq = -1;
  for (;;) {
    const [chunk] = await db
      .select({ seq: fileChunks.seq, data: fileChunks.data })
      .from(fileChunks)
      .where(and(eq(fileChunks.file_id, id), gt(fileChunks.seq, seq)))
      .orderBy(fileChunks.seq)
      .limit(1);
    if (!chunk) return;
    seq = chunk.seq;
    yield chunk.data;
  }
}

/** Sends a stored image with its type; `nosniff` (helmet) keeps the browser from guessing. */
export async function sendFile(db: Db, reply: FastifyReply, id: number | null, options: { download?: boolean } = {}): Promise<FastifyReply> {
  if (id === null) throw notFound();
  const [file] = await db
    .select({ name: files.name, mime_type: files.mime_type, size: files.size, sha256: files.sha256 })
    .from(files)
    .where(and(eq(files.id, id), eq(files.complete, true)));
  if (!file) throw notFound();
  // As a download under its stored name (RFC 6266), not shown in the browser.
  if (options.download) reply.header('Content-Disposition', contentDisposition(file.name));
  return reply
    .header('Content-Type', file.mime_type)
    .header('Content-Length', String(file.size))
    .header('Cache-Control', 'private, max-age=60')
    .header('ETag', `"${file.sha256}"`)
    .send(Readable.from(fileContent(db, id)));
}

/**
 * Runs `work` on a stored file written to a private temporary folder (readers such as the xlsx
 * reader open a path), chunk by chunk: a 20 MB file neither sits whole in memory nor holds the
 * connection for long. The folder is removed afterwards, whatever `work` did.
 */
export async function withFileOnDisk<T>(db: Db, fileId: number, name: string, work: (filePath: string) => Promise<T>): Promise<T> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'mss-file-'));
  try {
    const filePath = path.join(dir, name);
    await pipeline(Readable.from(fileContent(db, fileId)), createWriteStream(filePath));
    return await work(filePath);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}
