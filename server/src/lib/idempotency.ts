import { createHash } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { idempotencyKeys } from '../db/schema.ts';
import { AppError, validationError } from '../errors.ts';

/*
 * `Idempotency-Key` (PUT /reports/{uuid}/rows): a client that repeats a request with the same key,
 * because it did not get the answer, gets the first answer again and nothing is done twice.
 * - Keys are the sender's own (per user), 1 to 255 visible ASCII characters, kept a day.
 * - The same key with another request or another body is refused (422), so that a key reused by
 *   mistake does not answer for something else; while the first request is still being answered,
 *   a repeat gets 409 and may try again.
 * - An answer is kept only when the request was answered (2xx); a refused request (4xx, 5xx) leaves
 *   no key behind, and may be sent again with it.
 */
const KEY = /^[\x21-\x7e]{1,255}$/;
const KEPT = sql`interval '24 hours'`;

export interface Answer {
  status: number;
  body: unknown;
}

export async function withIdempotency(
  db: Db,
  input: { userId: number; key: string | undefined; request: string; body: Uint8Array },
  run: () => Promise<Answer>,
): Promise<Answer & { replayed: boolean }> {
  if (input.key === undefined) return { ...(await run()), replayed: false };
  if (!KEY.test(input.key)) throw validationError('Idempotency-Key', 'idempotency.invalid_key');
  const bodyHash = createHash('sha256').update(input.body).digest('hex');
  await db.delete(idempotencyKeys).where(sql`${idempotencyKeys.created_at} < now() - ${KEPT}`);
  const inserted = await db
    .insert(idempotencyKeys)
    .values({ user_id: input.userId, key: input.key, request: input.request, body_hash: bodyHash })
    .onConflictDoNothing()
    .returning({ id: idempotencyKeys.id });
  if (inserted.length === 0) {
    const [kept] = await db
      .select()
      .from(idempotencyKeys)
      .where(and(eq(idempotencyKeys.user_id, input.userId), eq(idempotencyKeys.key, input.key)));
    if (!kept) throw new AppError('conflict', 'idempotency.in_progress');
    if (kept.request !== input.request || kept.body_hash !== bodyHash) throw new AppError('validation', 'idempotency.mismatch');
    if (kept.status === null) throw new AppError('conflict', 'idempotency.in_progress');
    return { status: kept.status, body: kept.answer, replayed: true };
  }
  const id = inserted[0]!.id;
  try {
    const answer = await run();
    await db.update(idempotencyKeys).set({ status: answer.status, answer: answer.body }).where(eq(idempotencyKeys.id, id));
    return { ...answer, replayed: false };
  } catch (error) {
    await db
      .delete(idempotencyKeys)
      .where(eq(idempotencyKeys.id, id))
      .catch(() => {});
    throw error;
  }
}
