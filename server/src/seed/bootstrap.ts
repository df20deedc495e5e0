import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { userRoles, users } from '../db/schema.ts';
import { hashPassword } from '../auth/passwords.ts';

/** The transaction-level advisory lock of the start-up writes (the first administrator, the demo data). */
export const STARTUP_LOCK = 7_311_846_202;

/**
 * Production bootstrap: makes sure a super-admin with ADMIN_EMAIL exists. An existing user keeps
 * the password it has, so restarting with the variables still set changes nothing.
 */
export async function bootstrapAdmin(db: Db, email: string, password: string): Promise<'created' | 'exists'> {
  const passwordHash = await hashPassword(password);
  return db.transaction(async (tx) => {
    // Several processes starting at once on one database: one creates the administrator.
    await tx.execute(sql`select pg_advisory_xact_lock(${STARTUP_LOCK})`);
    const [existing] = await tx
      .select({ id: users.id })
      .from(users)
      .where(eq(sql`lower(${users.email})`, email.toLowerCase()));
    if (existing) return 'exists';
    const [user] = await tx.insert(users).values({ email, first_name: 'Administrator', password_hash: passwordHash }).returning();
    await tx.insert(userRoles).values({ user_id: user!.id, role: 'super-admin' });
    return 'created';
  });
}
