import { and, count, desc, eq, ne, notExists, sql } from 'drizzle-orm';
import type { NewestFirstListQuery, Release, ReleaseInput } from '@mss/contracts/admin';
import type { Db } from '../../db/client.ts';
import { releases, releaseViews } from '../../db/schema.ts';
import { notFound, validationError } from '../../errors.ts';
import { type Paged, planList } from '../../lib/list.ts';
import { type Principal } from '../../auth/principal.ts';

/** How many users read the note: one release_views row per user. */
const views = sql<number>`(select count(*) from ${releaseViews} where ${releaseViews.release_id} = ${releases.id})::int`;

// The id first: planList's second sort key is the first selected column.
const columns = {
  id: releases.id,
  version: releases.version,
  release_date: releases.release_date,
  title: releases.title,
  notes: releases.notes,
  views,
};

// Release notes are product-wide (docs/permissions.md): no organization scope.
export async function findReleases(db: Db, query: NewestFirstListQuery): Promise<Paged<Release>> {
  const direction = query.direction ?? (query.sort === undefined ? 'desc' : 'asc');
  const plan = planList(
    { ...query, direction },
    {
      sortable: { release_date: releases.release_date, version: releases.version, views, id: releases.id },
      searchable: [releases.version, releases.title],
    },
  );
  const [rows, [total]] = await Promise.all([
    db
      .select(columns)
      .from(releases)
      .where(plan.search)
      .orderBy(...plan.orderBy)
      .limit(plan.limit)
      .offset(plan.offset),
    db.select({ n: count() }).from(releases).where(plan.search),
  ]);
  return { data: rows, meta: plan.meta(total!.n) };
}

export async function findRelease(db: Db, id: number): Promise<Release> {
  const [row] = await db.select(columns).from(releases).where(eq(releases.id, id));
  if (!row) throw notFound();
  return row;
}

async function assertVersionFree(db: Db, version: string, exceptId?: number) {
  const [taken] = await db
    .select({ id: releases.id })
    .from(releases)
    .where(and(eq(releases.version, version), exceptId ? ne(releases.id, exceptId) : undefined));
  if (taken) throw validationError('version', 'validation.unique');
}

export async function createRelease(db: Db, input: ReleaseInput): Promise<Release> {
  await assertVersionFree(db, input.version);
  const [row] = await db.insert(releases).values(input).returning({ id: releases.id });
  return findRelease(db, row!.id);
}

export async function updateRelease(db: Db, id: number, input: ReleaseInput): Promise<Release> {
  await findRelease(db, id);
  await assertVersionFree(db, input.version, id);
  await db
    .update(releases)
    .set({ ...input, updated_at: sql`now()` })
    .where(eq(releases.id, id));
  return findRelease(db, id);
}

export async function deleteRelease(db: Db, id: number): Promise<void> {
  await findRelease(db, id);
  // Its views go with it (on delete cascade).
  await db.delete(releases).where(eq(releases.id, id));
}

/** Release notes already out (dated today or earlier) that the user has not read, newest first. */
export async function findUnreadReleases(db: Db, principal: Principal): Promise<Release[]> {
  return db
    .select(columns)
    .from(releases)
    .where(
      and(
        sql`${releases.release_date} <= current_date`,
        notExists(
          db
            .select({ one: sql`1` })
            .from(releaseViews)
            .where(and(eq(releaseViews.release_id, releases.id), eq(releaseViews.user_id, principal.userId))),
        ),
      ),
    )
    .orderBy(desc(releases.release_date), desc(releases.id));
}

/** Notes that the user read the release note; reading it again changes nothing. */
export async function viewRelease(db: Db, principal: Principal, id: number): Promise<void> {
  const [release] = await db.select({ id: releases.id }).from(releases).where(eq(releases.id, id));
  if (!release) throw notFound();
  await db.insert(releaseViews).values({ release_id: id, user_id: principal.userId }).onConflictDoNothing();
}
