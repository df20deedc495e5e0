import type { FastifyRequest } from 'fastify';
import { ATTACHMENT_MAX_BYTES, type AttachmentType } from '@mss/contracts/communications';
import { validationError } from '../../errors.ts';
import { readWholePart, sniffImageType, uploadedFileName } from '../../lib/files.ts';

/**
 * An attachment's type by its content, whatever it is called: PDF, PNG, JPEG, an Office Open XML
 * workbook or document (a zip whose parts say which), or UTF-8 text without control characters
 * (text, CSV). Anything else (executables, HTML pretending to be text is fine as text/plain, zips
 * of other things, old binary Office files) is refused.
 */
export function sniffAttachment(content: Buffer): AttachmentType | null {
  if (content.length === 0) return null;
  if (content.subarray(0, 5).toString('latin1') === '%PDF-') return 'application/pdf';
  const image = sniffImageType(content);
  if (image) return image;
  if (content.length > 4 && content.readUInt32LE(0) === 0x04034b50) {
    // File names in a zip are stored as they are: the parts that make a workbook or a document.
    const names = content.toString('latin1');
    if (!names.includes('[Content_Types].xml')) return null;
    if (names.includes('xl/workbook.xml')) return 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
    if (names.includes('word/document.xml')) return 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
    return null;
  }
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(content);
    // Tabs, line breaks and form feeds are text; other control characters are not.
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if ((c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0c && c !== 0x0d) || c === 0x7f) return null;
    }
    return 'text/plain';
  } catch {
    return null;
  }
}

/** The multipart `file` field of an attachment upload, at most ATTACHMENT_MAX_BYTES. */
export function attachmentReader(request: FastifyRequest) {
  return async (): Promise<{ name: string; content: Buffer }> => {
    if (!request.isMultipart()) throw validationError('file', 'validation.required');
    const part = await request.file({ limits: { fileSize: ATTACHMENT_MAX_BYTES, files: 1 } });
    if (!part || part.fieldname !== 'file') throw validationError('file', 'validation.required');
    const content = await readWholePart(part, () => validationError('file', 'communication.attachment_size', { max: ATTACHMENT_MAX_BYTES / 1024 / 1024 }));
    return { name: uploadedFileName(part.filename, 'attachment'), content };
  };
}
