import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { userRoles, users } from '../db/schema.ts';
import { hashPassword } from '../auth/passwords.ts';

/**
 * Production bootstrap: makes sure a super-admin with ADMIN_EMAIL exists. An existing user keeps
 * the password it has, so restarting with the variables still set changes nothing.
 */
export async function bootstrapAdmin(db: Db, email: string, password: string): Promise<'created' | 'exists'> {
  const [existing] = await db
    .select({ id: users.id })
    .from(users)
    .where(eq(sql`lower(${users.email})`, email.toLowerCase()));
  if (existing) return 'exists';
  const passwordHash = await hashPassword(password);
  await db.transaction(async (tx) => {
    const [user] = await tx.insert(users).values({ email, first_name: 'Administrator', password_hash: passwordHash }).returning();
    await tx.insert(userRoles).values({ user_id: user!.id, role: 'super-admin' });
  });
  return 'created';
}
