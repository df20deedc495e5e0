import { z } from 'zod';

// Approving: the approver's list of a period's reports is the reports' summary (reports.ts);
// what is approval's own is acting on several reports at once.

/** Approve (or send back) several reports; each is judged on its own. */
export const bulkStatusInputSchema = z.strictObject({
  uuids: z.array(z.string().uuid()).min(1).max(500),
  status: z.number().int(),
  comment: z.string().trim().max(2000).nullish(),
});
/** Which reports changed, and why each of the others was refused (in the request's language). */
export const bulkStatusResultSchema = z.object({
  changed: z.array(z.string()),
  refused: z.array(z.object({ uuid: z.string(), message: z.string() })),
});
export type BulkStatusInput = z.infer<typeof bulkStatusInputSchema>;
export type BulkStatusResult = z.infer<typeof bulkStatusResultSchema>;
