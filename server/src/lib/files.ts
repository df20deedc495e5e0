import { createHash } from 'node:crypto';
import type { MultipartFile } from '@fastify/multipart';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { files } from '../db/schema.ts';
import { type AppError, notFound, validationError } from '../errors.ts';

export const LOGOTYPE_MAX_BYTES = 2 * 1024 * 1024;

/** The image type by its first bytes, whatever the file is called. */
export function sniffImageType(content: Buffer): 'image/png' | 'image/jpeg' | null {
  if (content.length >= 8 && content.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (content.length >= 3 && content[0] === 0xff && content[1] === 0xd8 && content[2] === 0xff) return 'image/jpeg';
  return null;
}

/**
 * The whole content of an uploaded file, or `tooLarge` when it went over the part's size limit.
 * `toBuffer()` alone lets some over-limit files through: when the file reaches the limit exactly at
 * the end of a piece of the request body, the parser cuts it there but only marks it truncated when
 * the next piece arrives, after toBuffer has checked the last piece it read; the first `limit`
 * bytes then came back as if they were the whole file (issue 8). The flag, read once the stream has
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

/** Reads the multipart `file` field of a logotype upload: png or jpg by content, at most 2 MiB. */
export async function readLogotype(request: FastifyRequest): Promise<{ name: string; mimeType: string; content: Buffer }> {
  if (!request.isMultipart()) throw validationError('file', 'validation.required');
  const part = await request.file({ limits: { fileSize: LOGOTYPE_MAX_BYTES, files: 1 } });
  if (!part || part.fieldname !== 'file') throw validationError('file', 'validation.required');
  const content = await readWholePart(part, () => validationError('file', 'files.too_large', { max: '2 MiB' }));
  const mimeType = sniffImageType(content);
  if (!mimeType) throw validationError('file', 'files.logotype_type');
  return { name: part.filename.slice(0, 200) || 'logotype', mimeType, content };
}

export async function storeFile(db: Db, file: { name: string; mimeType: string; content: Buffer }): Promise<number> {
  const [row] = await db
    .insert(files)
    .values({
      name: file.name,
      mime_type: file.mimeType,
      size: file.content.length,
      sha256: createHash('sha256').update(file.content).digest('hex'),
      content: file.content,
    })
    .returning({ id: files.id });
  return row!.id;
}

export async function deleteFile(db: Db, id: number | null): Promise<void> {
  if (id !== null) await db.delete(files).where(eq(files.id, id));
}

/** Sends a stored image with its type; `nosniff` (helmet) keeps the browser from guessing. */
export async function sendFile(db: Db, reply: FastifyReply, id: number | null): Promise<FastifyReply> {
  if (id === null) throw notFound();
  const [file] = await db.select().from(files).where(eq(files.id, id));
  if (!file) throw notFound();
  return reply
    .header('Content-Type', file.mime_type)
    .header('Content-Length', String(file.size))
    .header('Cache-Control', 'private, max-age=60')
    .header('ETag', `"${file.sha256}"`)
    .send(file.content);
}

