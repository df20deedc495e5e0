// A communication's attachments: added, removed, read, and as the mail carries them; the organization's mail footer.
import { and, asc, eq, sql } from 'drizzle-orm';
import { ATTACHMENT_MAX_COUNT } from '@mss/contracts/communications';
import { allows, COMMUNICATION_LIFECYCLE } from '@mss/contracts/lifecycles';
import type { Db, Executor } from '../../db/client.ts';
import { communicationAttachments, communications, files, organizations } from '../../db/schema.ts';
import { notFound, validationError } from '../../errors.ts';
import { deleteFile, fileContent, storeFile } from '../../lib/files.ts';
import type { Principal } from '../../auth/principal.ts';
import type { MailAttachment } from '../../mail/mailer.ts';
import { attachmentIdentity, isAttachmentType, sniffAttachment } from './communications.attachments.ts';
import { audit, loadFor, refuse, type Row } from './communications.records.ts';

// ---------------------------------------------------------------------------------------------
// Attachments
// ---------------------------------------------------------------------------------------------

export async function addAttachment(
  db: Db,
  principal: Principal,
  uuid: string,
  readFile: () => Promise<{ name: string; content: Buffer }>,
): Promise<{ id: number; name: string; mime_type: string; size: number }> {
  const row = await loadFor(db, principal, uuid);
  if (!allows(COMMUNICATION_LIFECYCLE, row.status, 'edit')) throw refuse('communication.update_requires_draft');
  const [{ count }] = (await db
    .select({ count: sql<number>`count(*)::int` })
    .from(communicationAttachments)
    .where(eq(communicationAttachments.communication_id, row.id))) as [{ count: number }];
  if (count >= ATTACHMENT_MAX_COUNT) throw validationError('file', 'communication.attachment_count', { max: ATTACHMENT_MAX_COUNT });
  const upload = await readFile();
  const sniffed = sniffAttachment(upload.content);
  if (!sniffed) throw validationError('file', 'communication.attachment_type', { file_name: upload.name });
  // Stored under a name whose extension says the type it is sent as (x.html that is text: x.txt).
  const { name, type } = attachmentIdentity(upload.name, sniffed);
  const file = { name, content: upload.content };
  const fileId = await storeFile(db, { name, mimeType: type, content: file.content });
  try {
    return await db.transaction(async (tx) => {
      // Counted again under the communication's row lock: two uploads at once cannot pass the limit.
      const [locked] = await tx.select({ status: communications.status }).from(communications).where(eq(communications.id, row.id)).for('update');
      if (!locked || !allows(COMMUNICATION_LIFECYCLE, locked.status, 'edit')) throw refuse('communication.update_requires_draft');
      const [{ n }] = (await tx
        .select({ n: sql<number>`count(*)::int` })
        .from(communicationAttachments)
        .where(eq(communicationAttachments.communication_id, row.id))) as [{ n: number }];
      if (n >= ATTACHMENT_MAX_COUNT) throw validationError('file', 'communication.attachment_count', { max: ATTACHMENT_MAX_COUNT });
      const [attachment] = await tx
        .insert(communicationAttachments)
        .values({ communication_id: row.id, file_id: fileId })
        .returning({ id: communicationAttachments.id });
      await audit(tx, row, principal, 'attachment_added', { name: file.name, uploaded_as: upload.name, size: file.content.length, type });
      return { id: attachment!.id, name: file.name, mime_type: type, size: file.content.length };
    });
  } catch (error) {
    await deleteFile(db, fileId).catch(() => {});
    throw error;
  }
}

async function findAttachment(db: Db, row: Row, id: number) {
  const [attachment] = await db
    .select({ id: communicationAttachments.id, file_id: communicationAttachments.file_id, name: files.name })
    .from(communicationAttachments)
    .innerJoin(files, eq(files.id, communicationAttachments.file_id))
    .where(and(eq(communicationAttachments.id, id), eq(communicationAttachments.communication_id, row.id)));
  if (!attachment) throw notFound();
  return attachment;
}

export async function removeAttachment(db: Db, principal: Principal, uuid: string, id: number): Promise<void> {
  const row = await loadFor(db, principal, uuid);
  if (!allows(COMMUNICATION_LIFECYCLE, row.status, 'edit')) throw refuse('communication.update_requires_draft');
  const attachment = await findAttachment(db, row, id);
  await db.transaction(async (tx) => {
    await tx.delete(communicationAttachments).where(eq(communicationAttachments.id, attachment.id));
    await audit(tx, row, principal, 'attachment_removed', { name: attachment.name });
  });
  await deleteFile(db, attachment.file_id);
}

export async function attachmentFileId(db: Db, principal: Principal, uuid: string, id: number): Promise<number> {
  const row = await loadFor(db, principal, uuid);
  return (await findAttachment(db, row, id)).file_id;
}

/** The attachments of a communication as the mail carries them. */
export async function mailAttachmentsOf(db: Db, communicationId: number): Promise<MailAttachment[]> {
  const attached = await db
    .select({ file_id: communicationAttachments.file_id, name: files.name, mime_type: files.mime_type })
    .from(communicationAttachments)
    .innerJoin(files, eq(files.id, communicationAttachments.file_id))
    .where(eq(communicationAttachments.communication_id, communicationId))
    .orderBy(asc(communicationAttachments.id));
  const out: MailAttachment[] = [];
  for (const a of attached) {
    const chunks: Buffer[] = [];
    for await (const chunk of fileContent(db, a.file_id)) chunks.push(chunk);
    // Files stored before names followed their type are mailed under a matching name too.
    const { name, type } = isAttachmentType(a.mime_type) ? attachmentIdentity(a.name, a.mime_type) : { name: a.name, type: a.mime_type };
    out.push({ filename: name, content: Buffer.concat(chunks), contentType: type });
  }
  return out;
}

export async function mailFooterOf(db: Executor, organizationId: number): Promise<string | null> {
  const [org] = await db.select({ mail_description: organizations.mail_description }).from(organizations).where(eq(organizations.id, organizationId));
  return org?.mail_description ?? null;
}
