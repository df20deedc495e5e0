import type { FastifyRequest } from 'fastify';
import { ATTACHMENT_EXTENSIONS, ATTACHMENT_MAX_BYTES, ATTACHMENT_TYPES, type AttachmentType } from '@mss/contracts/communications';
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

/** The longest name a stored file has (lib/files.ts `uploadedFileName`). */
const NAME_MAX = 200;

/**
 * The type and the name an attachment is stored and mailed under, from the type its content has:
 * text named `.csv` is CSV (any text may be; the content cannot say otherwise), other text is plain
 * text. The name keeps its extension when it is one of the type's (`ATTACHMENT_EXTENSIONS`), and
 * gets the type's own in its place otherwise: `x.html` and `x.svg` whose content is text become
 * `x.txt`, sent as text/plain; `scan.pdf` that is a PNG becomes `scan.png`. Applied again when a
 * mail is built, so files stored before this rule go out under a matching name as well.
 */
export function attachmentIdentity(name: string, contentType: AttachmentType): { name: string; type: AttachmentType } {
  const dot = name.lastIndexOf('.');
  // A dot at the start (".profile") or a "suffix" that is no extension ("2026.11 final") is part of the name.
  const extension = dot > 0 && /^[A-Za-z0-9]{1,10}$/.test(name.slice(dot + 1)) ? name.slice(dot + 1).toLowerCase() : null;
  const type: AttachmentType = contentType === 'text/plain' && extension === 'csv' ? 'text/csv' : contentType;
  const allowed = ATTACHMENT_EXTENSIONS[type];
  if (extension && allowed.includes(extension)) return { name, type };
  const base = (extension ? name.slice(0, dot) : name).trim() || 'attachment';
  const suffix = `.${allowed[0]}`;
  return { name: `${[...base].slice(0, NAME_MAX - suffix.length).join('')}${suffix}`, type };
}

/** Whether a stored MIME type is one an attachment may have (files stored before the allow-list had these too). */
export function isAttachmentType(type: string): type is AttachmentType {
  return Object.hasOwn(ATTACHMENT_TYPES, type);
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
