import { z } from 'zod';
import { CommunicationStatus, ReportStatus, ROLES } from './enums.ts';

// Communications to reporters (docs/architecture.md §6): wire schemas of /communications.

/**
 * Variables a subject or body may hold, written `{{name}}`, rendered per recipient. A variable
 * that needs a period (deadline, report status, report link) renders empty when the
 * communication names no period.
 */
export const COMMUNICATION_VARIABLES = ['recipient_name', 'company', 'market', 'period', 'deadline', 'report_status', 'report_link'] as const;
export type CommunicationVariable = (typeof COMMUNICATION_VARIABLES)[number];

/** `{{ name }}` in a subject or body. */
export const VARIABLE_PATTERN = /\{\{\s*([^{}\s]*)\s*\}\}/g;

/** The variables used in a text that are not known; empty when every one is known. */
export function unknownVariables(text: string): string[] {
  const unknown = new Set<string>();
  for (const match of text.matchAll(VARIABLE_PATTERN)) {
    const name = match[1] ?? '';
    if (!(COMMUNICATION_VARIABLES as readonly string[]).includes(name)) unknown.add(name);
  }
  return [...unknown];
}

export const COMMUNICATION_STATUSES = Object.values(CommunicationStatus);
export const REPORT_STATUSES = Object.values(ReportStatus);

/** Limits of a communication's attachments (judged by content, not by name). */
export const ATTACHMENT_MAX_COUNT = 5;
export const ATTACHMENT_MAX_BYTES = 5 * 1024 * 1024;
/** The allow-list: the types an attachment may have, by its content (docs/user-guide.md names it). */
export const ATTACHMENT_TYPES = {
  'application/pdf': 'PDF',
  'image/png': 'PNG',
  'image/jpeg': 'JPEG',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'Excel workbook (xlsx)',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'Word document (docx)',
  'text/plain': 'Text',
  'text/csv': 'CSV',
} as const;
export type AttachmentType = keyof typeof ATTACHMENT_TYPES;

/**
 * The extensions an attachment of each type is stored and mailed under. A file keeps its own
 * extension when it is one of its type's; otherwise it gets the first one (`notes.html` whose
 * content is text becomes `notes.txt`), so a mail never carries a name that says another type
 * than the one it is sent as.
 */
export const ATTACHMENT_EXTENSIONS: Record<AttachmentType, readonly [string, ...string[]]> = {
  'application/pdf': ['pdf'],
  'image/png': ['png'],
  'image/jpeg': ['jpg', 'jpeg'],
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': ['xlsx'],
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': ['docx'],
  'text/plain': ['txt'],
  'text/csv': ['csv'],
};

export const SUBJECT_MAX_LENGTH = 200;
export const BODY_MAX_LENGTH = 100_000;
export const FOOT_NOTES_MAX_LENGTH = 5_000;

/**
 * Who gets the mail: users of the markets with one of the roles (every role when empty), of the
 * companies (every company when empty), and, with a period, only the users of companies whose
 * report for that period has one of the statuses (every status when empty). Disabled users and
 * companies are left out; evaluated again when the mail goes out.
 */
export const recipientFilterSchema = z.object({
  market_ids: z.array(z.number().int().positive()).min(1).max(100),
  roles: z.array(z.enum(ROLES)).max(ROLES.length).default([]),
  company_ids: z.array(z.number().int().positive()).max(1000).default([]),
  period_uuid: z.string().max(100).nullish(),
  report_statuses: z
    .array(
      z
        .number()
        .int()
        .refine((s) => (REPORT_STATUSES as number[]).includes(s), 'report_status'),
    )
    .max(REPORT_STATUSES.length)
    .default([]),
});
export type RecipientFilter = z.infer<typeof recipientFilterSchema>;

/** Write bodies are strict (docs/decisions.md "Write bodies are strict"): a key they do not name, at any depth, is refused (422 naming it). */
export const communicationInputSchema = z.strictObject({
  subject: z.string().trim().min(1).max(SUBJECT_MAX_LENGTH),
  /** HTML from the editor; sanitised by the server with a strict allow-list. */
  body: z.string().max(BODY_MAX_LENGTH),
  foot_notes: z.string().max(FOOT_NOTES_MAX_LENGTH).nullish(),
  /**
   * Every list required (an empty one means "every one"): a PUT that left `roles` out would
   * otherwise widen the audience to every role.
   */
  recipients: z.strictObject({
    market_ids: recipientFilterSchema.shape.market_ids,
    roles: recipientFilterSchema.shape.roles.removeDefault(),
    company_ids: recipientFilterSchema.shape.company_ids.removeDefault(),
    period_uuid: z.string().max(100).nullable(),
    report_statuses: recipientFilterSchema.shape.report_statuses.removeDefault(),
  }),
});
export type CommunicationInput = z.infer<typeof communicationInputSchema>;

export const attachmentSchema = z.object({ id: z.number().int(), name: z.string(), mime_type: z.string(), size: z.number().int() });
export type Attachment = z.infer<typeof attachmentSchema>;

/** Deliveries of a send by status, counted by the database (`sent`: delivered; `queued`: queued or being sent). */
export const deliveryCountsSchema = z.object({
  total: z.number().int(),
  queued: z.number().int(),
  sent: z.number().int(),
  failed: z.number().int(),
});
export type DeliveryCounts = z.infer<typeof deliveryCountsSchema>;

/**
 * A communication that went out but not to everyone: Sent (20) with some deliveries failed. Its
 * status reads "Sent — 2 of 5 failed" (`communication.status_partly_failed`), in the API's
 * `status_text` and on every screen that shows the status.
 */
export function partlyFailed(status: number, deliveries: DeliveryCounts): boolean {
  return status === CommunicationStatus.Sent && deliveries.failed > 0;
}

export const communicationSchema = z.object({
  uuid: z.string(),
  status: z.number().int(),
  /** The status in words, in the caller's language: "Sent — 2 of 5 failed" when not every delivery went out. */
  status_text: z.string(),
  subject: z.string(),
  body: z.string(),
  foot_notes: z.string().nullable(),
  recipients: recipientFilterSchema.extend({ period_uuid: z.string().nullable() }),
  /** Title of the filter's period, when it names one. */
  period_title: z.string().nullable(),
  author: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  /** An automatic reminder, before or after the period's deadline (no author); null when a person wrote it. */
  reminder: z.enum(['before', 'after']).nullable(),
  attachments: z.array(attachmentSchema),
  /** Deliveries of the send (all zero before it). */
  deliveries: deliveryCountsSchema,
  preflight_sent_at: z.string().nullable(),
  preflight_to: z.string().nullable(),
  send_at: z.string().nullable(),
  sent_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Communication = z.infer<typeof communicationSchema>;

export const communicationListQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  per_page: z.coerce.number().int().min(1).max(100).default(25),
  sort: z.string().max(50).optional(),
  direction: z.enum(['asc', 'desc']).default('desc'),
  search: z.string().max(200).optional(),
  status: z.coerce
    .number()
    .int()
    .refine((s) => (COMMUNICATION_STATUSES as number[]).includes(s), 'status')
    .optional(),
});

export const recipientSchema = z.object({
  user_id: z.number().int(),
  name: z.string(),
  email: z.string(),
  company: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  market: z.object({ id: z.number().int(), name: z.string() }),
  /** The company's report status in the filter's period, when it names one. */
  report_status: z.number().int().nullable(),
});
export type Recipient = z.infer<typeof recipientSchema>;

/**
 * A company the communication is about (it reports in one of its markets, is one of its companies
 * when it names some, and has a report in its period, of one of its statuses, when it names one),
 * with the people of the company who would get the mail: none is "no recipient".
 */
export const companyReachSchema = z.object({
  company: z.object({ id: z.number().int(), name: z.string() }),
  recipients: z.array(z.object({ name: z.string(), email: z.string() })),
});
export type CompanyReach = z.infer<typeof companyReachSchema>;

export const DELIVERY_STATUSES = ['queued', 'sending', 'sent', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/**
 * What one SMTP conversation came to: `sent` (accepted), `deferred` (a temporary failure, tried
 * again later), `failed` (refused, or the last try), `interrupted` (its process stopped before the
 * answer was recorded; the delivery was tried again), `sending` (under way).
 */
export const DELIVERY_ATTEMPT_OUTCOMES = ['sending', 'sent', 'deferred', 'failed', 'interrupted'] as const;
export type DeliveryAttemptOutcome = (typeof DELIVERY_ATTEMPT_OUTCOMES)[number];

export const deliveryAttemptSchema = z.object({
  /** 1, 2, … over the delivery's whole life: a retry goes on counting. */
  number: z.number().int(),
  outcome: z.enum(DELIVERY_ATTEMPT_OUTCOMES),
  /** The SMTP server's answer, or the error when there was none. */
  smtp_response: z.string().nullable(),
  started_at: z.string(),
  finished_at: z.string().nullable(),
});
export type DeliveryAttempt = z.infer<typeof deliveryAttemptSchema>;

export const deliverySchema = z.object({
  id: z.number().int(),
  user_id: z.number().int().nullable(),
  name: z.string(),
  email: z.string(),
  status: z.enum(DELIVERY_STATUSES),
  /** Every attempt so far, retries included (never reset). */
  attempts: z.number().int(),
  /** The SMTP server's answer (or the error) of the last attempt. */
  smtp_response: z.string().nullable(),
  /** Each attempt with its answer, the first first. */
  attempt_history: z.array(deliveryAttemptSchema),
  sent_at: z.string().nullable(),
  updated_at: z.string(),
});
export type Delivery = z.infer<typeof deliverySchema>;

export const deliveryListQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  per_page: z.coerce.number().int().min(1).max(100).default(25),
  status: z.enum(DELIVERY_STATUSES).optional(),
  search: z.string().max(200).optional(),
});

export const preflightInputSchema = z.strictObject({
  /** The recipient whose mail is rendered (the first recipient when absent). */
  recipient_user_id: z.number().int().positive().nullish(),
});

/** The mail as the chosen recipient gets it; the author received this copy. */
export const renderedMailSchema = z.object({
  to: z.string(),
  recipient_name: z.string(),
  subject: z.string(),
  html: z.string(),
  text: z.string(),
});
export type RenderedMail = z.infer<typeof renderedMailSchema>;

export const sendInputSchema = z.strictObject({
  /** ISO date-time in the future; absent: now. */
  send_at: z.string().datetime({ offset: true }).nullish(),
});

/** A user's own notification choices (profile). */
export const notificationSettingsSchema = z.strictObject({ workflow_mails: z.boolean() });
export type NotificationSettings = z.infer<typeof notificationSettingsSchema>;
