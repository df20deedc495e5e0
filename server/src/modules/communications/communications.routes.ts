import { z } from 'zod';
import { dataOf, listOf } from '@mss/contracts/common';
import {
  attachmentSchema,
  ATTACHMENT_MAX_BYTES,
  ATTACHMENT_MAX_COUNT,
  communicationInputSchema,
  communicationListQuerySchema,
  communicationSchema,
  deliveryListQuerySchema,
  deliverySchema,
  notificationSettingsSchema,
  preflightInputSchema,
  recipientSchema,
  companyReachSchema,
  renderedMailSchema,
  sendInputSchema,
} from '@mss/contracts/communications';
import { and, eq } from 'drizzle-orm';
import type { App, AppContext } from '../../context.ts';
import { appUrlOf } from '../../config.ts';
import { users, workflowNotifications } from '../../db/schema.ts';
import { principalOf } from '../../auth/principal.ts';
import { requireSignedIn } from '../../auth/session-auth.ts';
import { requireSomewhere } from '../../auth/permissions.ts';
import { sendFile } from '../../lib/files.ts';
import { attachmentReader } from './communications.attachments.ts';
import { findCommunicationRecipients, findCommunicationCompanies, findDeliveries } from './communications.deliveries.ts';
import { addAttachment, attachmentFileId, removeAttachment } from './communications.files.ts';
import { type CommunicationDeps } from './communications.records.ts';
import { createCommunication, deleteCommunication, findCommunication, findCommunications, updateCommunication } from './communications.service.ts';
import { retryFailed, returnToDraft, sendCommunication, sendPreflight } from './communications.status.ts';
import { uuidParams } from '../../lib/uuid.ts';

const tags = ['communications'];
const attachmentParams = uuidParams.extend({ id: z.coerce.number().int().positive() });
const pageQuery = z.object({ page: z.coerce.number().int().min(1).default(1), per_page: z.coerce.number().int().min(1).max(100).default(25) });

/** A route's preValidation hook: who may call it. */
type Guard = ReturnType<typeof requireSomewhere>;

/** Where links in mails point. */
export function communicationsRoutes(app: App, ctx: AppContext) {
  // Every route needs send-communications in some market; each communication is then checked
  // against its own markets (403 "You do not have access to this action.", 404 across organizations).
  const mayCommunicate = requireSomewhere(ctx, 'send-communications');
  const signedIn = requireSignedIn(ctx);
  draftRoutes(app, ctx, mayCommunicate);
  sendingRoutes(app, ctx, mayCommunicate);
  attachmentRoutes(app, ctx, mayCommunicate);
  notificationSettingsRoutes(app, ctx, signedIn);
}

/** The communications and their drafts: listed, made, changed and deleted, with who and which companies they would reach. */
function draftRoutes(app: App, ctx: AppContext, mayCommunicate: Guard) {
  app.get(
    '/communications',
    {
      schema: {
        tags,
        summary: 'Communications of the markets where the caller may send (paged, sorted, searched by subject)',
        querystring: communicationListQuerySchema,
        response: { 200: listOf(communicationSchema) },
      },
      preValidation: mayCommunicate,
    },
    async (request) => findCommunications(ctx.db, principalOf(request), request.query),
  );
  app.post(
    '/communications',
    {
      schema: { tags, summary: 'Create a draft', body: communicationInputSchema, response: { 201: dataOf(communicationSchema) } },
      preValidation: mayCommunicate,
    },
    async (request, reply) => reply.code(201).send({ data: await createCommunication(ctx.db, principalOf(request), request.body) }),
  );
  app.get(
    '/communications/:uuid',
    { schema: { tags, summary: 'One communication', params: uuidParams, response: { 200: dataOf(communicationSchema) } }, preValidation: mayCommunicate },
    async (request) => ({ data: await findCommunication(ctx.db, principalOf(request), request.params.uuid) }),
  );
  app.put(
    '/communications/:uuid',
    {
      schema: { tags, summary: 'Update a draft', params: uuidParams, body: communicationInputSchema, response: { 200: dataOf(communicationSchema) } },
      preValidation: mayCommunicate,
    },
    async (request) => ({ data: await updateCommunication(ctx.db, principalOf(request), request.params.uuid, request.body) }),
  );
  app.delete(
    '/communications/:uuid',
    { schema: { tags, summary: 'Delete a draft', params: uuidParams, response: { 204: z.null() } }, preValidation: mayCommunicate },
    async (request, reply) => {
      await deleteCommunication(ctx.db, principalOf(request), request.params.uuid);
      return reply.code(204).send(null);
    },
  );
  app.get(
    '/communications/:uuid/recipients',
    {
      schema: { tags, summary: 'Who would get it now, with the count', params: uuidParams, querystring: pageQuery, response: { 200: listOf(recipientSchema) } },
      preValidation: mayCommunicate,
    },
    async (request) => findCommunicationRecipients(ctx.db, principalOf(request), request.params.uuid, request.query),
  );
  app.get(
    '/communications/:uuid/companies',
    {
      schema: {
        tags,
        summary: 'The companies it is about, each with who of it would get it now (none: no recipient)',
        params: uuidParams,
        response: { 200: dataOf(z.array(companyReachSchema)) },
      },
      preValidation: mayCommunicate,
    },
    async (request) => ({ data: await findCommunicationCompanies(ctx.db, principalOf(request), request.params.uuid) }),
  );
}

/** Sending: the preflight, the sending itself, back to draft, the retry of failed recipients and the deliveries. */
function sendingRoutes(app: App, ctx: AppContext, mayCommunicate: Guard) {
  const deps = (): CommunicationDeps => ({ db: ctx.db, mailer: ctx.mailer, appUrl: appUrlOf(ctx.config), queue: ctx.queue });
  app.post(
    '/communications/:uuid/preflight',
    {
      schema: {
        tags,
        summary: 'Render the mail for one recipient and send it to the caller (0 → 1 → 2)',
        params: uuidParams,
        body: preflightInputSchema.nullish(),
        response: { 200: z.object({ data: communicationSchema, mail: renderedMailSchema }) },
      },
      preValidation: mayCommunicate,
    },
    async (request) => sendPreflight(deps(), principalOf(request), request.params.uuid, request.body ?? {}),
  );
  app.post(
    '/communications/:uuid/send',
    {
      schema: {
        tags,
        summary: 'Send to every recipient (2 → 10 → 20 or 30), now or at send_at',
        params: uuidParams,
        body: sendInputSchema.nullish(),
        response: { 200: dataOf(communicationSchema) },
      },
      preValidation: mayCommunicate,
    },
    async (request) => ({ data: await sendCommunication(deps(), principalOf(request), request.params.uuid, request.body ?? {}) }),
  );
  app.post(
    '/communications/:uuid/draft',
    {
      schema: { tags, summary: 'Back to draft to change it (needs a new preflight)', params: uuidParams, response: { 200: dataOf(communicationSchema) } },
      preValidation: mayCommunicate,
    },
    async (request) => ({ data: await returnToDraft(ctx.db, principalOf(request), request.params.uuid) }),
  );
  app.post(
    '/communications/:uuid/retry',
    {
      schema: { tags, summary: 'Send again to the failed recipients only', params: uuidParams, response: { 200: dataOf(communicationSchema) } },
      preValidation: mayCommunicate,
    },
    async (request) => ({ data: await retryFailed(deps(), principalOf(request), request.params.uuid) }),
  );
  app.get(
    '/communications/:uuid/deliveries',
    {
      schema: {
        tags,
        summary: 'One row per recipient: status, attempts, SMTP answer',
        params: uuidParams,
        querystring: deliveryListQuerySchema,
        response: { 200: listOf(deliverySchema) },
      },
      preValidation: mayCommunicate,
    },
    async (request) => findDeliveries(ctx.db, principalOf(request), request.params.uuid, request.query),
  );
}

/** A draft's attachments: added, downloaded and removed. */
function attachmentRoutes(app: App, ctx: AppContext, mayCommunicate: Guard) {
  app.post(
    '/communications/:uuid/attachments',
    {
      schema: {
        tags,
        summary: `Attach a file to a draft (multipart field "file"; PDF, PNG, JPEG, xlsx, docx, text or CSV by content; at most ${ATTACHMENT_MAX_COUNT} of ${ATTACHMENT_MAX_BYTES / 1024 / 1024} MB)`,
        params: uuidParams,
        consumes: ['multipart/form-data'],
        response: { 201: dataOf(attachmentSchema) },
      },
      preValidation: mayCommunicate,
    },
    async (request, reply) => reply.code(201).send({ data: await addAttachment(ctx.db, principalOf(request), request.params.uuid, attachmentReader(request)) }),
  );
  app.get(
    '/communications/:uuid/attachments/:id',
    { schema: { tags, summary: 'Download an attachment', params: attachmentParams }, preValidation: mayCommunicate },
    async (request, reply) => {
      const fileId = await attachmentFileId(ctx.db, principalOf(request), request.params.uuid, request.params.id);
      return sendFile(ctx.db, reply, fileId, { download: true });
    },
  );
  app.delete(
    '/communications/:uuid/attachments/:id',
    { schema: { tags, summary: 'Remove an attachment from a draft', params: attachmentParams, response: { 204: z.null() } }, preValidation: mayCommunicate },
    async (request, reply) => {
      await removeAttachment(ctx.db, principalOf(request), request.params.uuid, request.params.id);
      return reply.code(204).send(null);
    },
  );
}

/** The signed-in user's own choice about workflow mails (any role). */
function notificationSettingsRoutes(app: App, ctx: AppContext, signedIn: Guard) {
  app.get(
    '/users/me/notifications',
    { schema: { tags, summary: "The signed-in user's notification settings", response: { 200: dataOf(notificationSettingsSchema) } }, preValidation: signedIn },
    async (request) => {
      const [user] = await ctx.db
        .select({ workflow_mails: users.workflow_mails })
        .from(users)
        .where(eq(users.id, principalOf(request).userId));
      return { data: { workflow_mails: user?.workflow_mails ?? true } };
    },
  );
  app.put(
    '/users/me/notifications',
    {
      schema: {
        tags,
        summary: 'Turn workflow mails (submitted, sent back, approved reports) on or off',
        body: notificationSettingsSchema,
        response: { 200: dataOf(notificationSettingsSchema) },
      },
      preValidation: signedIn,
    },
    async (request) => {
      const userId = principalOf(request).userId;
      // Turned off: what was waiting for this user is dropped, not sent when it is turned on again.
      if (!request.body.workflow_mails)
        await ctx.db.delete(workflowNotifications).where(and(eq(workflowNotifications.user_id, userId), eq(workflowNotifications.status, 'queued')));
      const [user] = await ctx.db
        .update(users)
        .set({ workflow_mails: request.body.workflow_mails })
        .where(eq(users.id, userId))
        .returning({ workflow_mails: users.workflow_mails });
      return { data: { workflow_mails: user!.workflow_mails } };
    },
  );
}
