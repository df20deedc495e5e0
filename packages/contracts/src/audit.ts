import { z } from 'zod';
import { MAX_PER_PAGE } from './constants.ts';
import { isoDateSchema } from './common.ts';

/**
 * The audit trail on the wire (GET /audit): who read or changed what, when, through what and from
 * where. Administrators see their organization's entries, a super-administrator every one.
 */
export const auditEntrySchema = z.object({
  id: z.number().int(),
  at: z.string(),
  organization: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  /** Who: the user (null for the system, or a failed sign-in of an unknown e-mail) and the e-mail as it was. */
  user: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  email: z.string().nullable(),
  /** Through what: a browser session or an integration token, and its id. */
  via: z.enum(['session', 'token']).nullable(),
  session_id: z.number().int().nullable(),
  ip: z.string().nullable(),
  /** What: "report.status_changed", "user.updated", "statistics.downloaded"… */
  action: z.string(),
  record_type: z.string().nullable(),
  record_id: z.string().nullable(),
  /** The change: the fields before and after (an update keeps the ones that changed); secrets never. */
  before: z.unknown(),
  after: z.unknown(),
  details: z.unknown(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

/** Filters: a person (id, or part of the e-mail), a record, an action (exact, or its kind: "report."), a time span (days, inclusive). */
export const auditQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  per_page: z.coerce.number().int().min(1).max(MAX_PER_PAGE).default(50),
  user_id: z.coerce.number().int().positive().optional(),
  person: z.string().trim().max(200).optional(),
  action: z
    .string()
    .trim()
    .max(100)
    .regex(/^[a-z_]+(\.[a-z_]*)?$/, 'validation.in')
    .optional(),
  record_type: z.string().trim().max(50).optional(),
  record_id: z.string().trim().max(100).optional(),
  from: isoDateSchema.optional(),
  to: isoDateSchema.optional(),
  /** A super-administrator's narrowing to one organization. */
  organization_id: z.coerce.number().int().positive().optional(),
});
export type AuditQuery = z.infer<typeof auditQuerySchema>;

/** The most entries one CSV download holds (a narrower filter gets the rest). */
export const AUDIT_DOWNLOAD_MAX = 100_000;
