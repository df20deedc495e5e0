import { sql } from 'drizzle-orm';
import type { Locale } from '@mss/contracts/enums';
import { enumLabel, formatDateIn } from '@mss/contracts/messages';
import type { Executor } from '../../db/client.ts';
import { sqlArray } from '../../db/sql-array.ts';
import type { Variables } from './communications.render.ts';

/** The stored filter (communications.market_ids and .recipients). */
export interface StoredFilter {
  market_ids: number[];
  roles: string[];
  company_ids: number[];
  period_id: number | null;
  report_statuses: number[];
}

/** The filter of a stored communication: its markets, and the rest of it from `recipients`. */
export function storedFilterOf(row: { market_ids: number[]; recipients: unknown }): StoredFilter {
  const r = row.recipients as Partial<Omit<StoredFilter, 'market_ids'>>;
  return {
    market_ids: row.market_ids,
    roles: r.roles ?? [],
    company_ids: r.company_ids ?? [],
    period_id: r.period_id ?? null,
    report_statuses: r.report_statuses ?? [],
  };
}

export type RecipientRow = {
  user_id: number;
  name: string;
  email: string;
  locale: string;
  company_id: number | null;
  company_name: string | null;
  market_id: number;
  market_name: string;
  report_status: number | null;
  report_uuid: string | null;
  period_title: string | null;
  deadline: string | null;
};

const intArray = (values: readonly number[]) => sqlArray(values, 'int');
const textArray = (values: readonly string[]) => sqlArray(values, 'text');

/**
 * Who gets a communication now: the users of the organization who hold one of the roles (any
 * role when none is named) in one of the markets, directly (their roles over their markets) or
 * through their company's market; of the companies, when named; with a period, only users whose
 * company's report in it has one of the statuses (any when none is named). Disabled users and
 * companies disabled by now are left out. One row per user (the first of the markets, in id
 * order), ordered by name.
 */
export function recipientsQuery(organizationId: number, filter: StoredFilter, page?: { limit: number; offset: number }) {
  const roles = filter.roles;
  const anyRole = roles.length === 0;
  return sql<RecipientRow>`
    with cand as (
      select u.id as user_id, um.market_id
      from users u join user_markets um on um.user_id = u.id
      where um.market_id = any(${intArray(filter.market_ids)})
        and exists (select 1 from user_roles ur where ur.user_id = u.id ${anyRole ? sql`` : sql`and ur.role = any(${textArray(roles)})`})
      union
      select u.id, cm.market_id
      from users u join company_markets cm on cm.company_id = u.company_id
      where cm.market_id = any(${intArray(filter.market_ids)}) and cardinality(cm.roles) > 0
        ${anyRole ? sql`` : sql`and cm.roles && ${textArray(roles)}`}
    ), one as (
      select distinct on (u.id) u.id as user_id,
        coalesce(nullif(trim(u.first_name || ' ' || u.last_name), ''), u.email) as name, u.email, u.locale,
        co.id as company_id, co.name as company_name, mk.id as market_id, mk.international_name as market_name,
        r.status as report_status, r.uuid::text as report_uuid, p.title as period_title, p.deadline::text as deadline
      from cand c
      join users u on u.id = c.user_id
      join user_organizations uo on uo.user_id = u.id and uo.organization_id = ${organizationId}
      join markets mk on mk.id = c.market_id and mk.organization_id = ${organizationId}
      left join companies co on co.id = u.company_id
      left join periods p on p.id = ${filter.period_id} and p.market_id = c.market_id
      left join reports r on r.period_id = p.id and r.company_id = u.company_id
      where u.disabled_at is null
        and (co.id is null or co.disabled_at is null or co.disabled_at > now())
        ${filter.company_ids.length ? sql`and u.company_id = any(${intArray(filter.company_ids)})` : sql``}
        ${filter.period_id === null ? sql`` : sql`and r.id is not null`}
        ${filter.period_id !== null && filter.report_statuses.length ? sql`and r.status = any(${intArray(filter.report_statuses)})` : sql``}
      order by u.id, c.market_id
    )
    select *, count(*) over ()::int as total from one order by lower(name), user_id
    ${page ? sql`limit ${page.limit} offset ${page.offset}` : sql``}`;
}

export async function findRecipients(
  db: Executor,
  organizationId: number,
  filter: StoredFilter,
  page?: { limit: number; offset: number },
): Promise<{ rows: RecipientRow[]; total: number }> {
  const { rows } = await db.execute<RecipientRow & { total: number }>(recipientsQuery(organizationId, filter, page));
  return { rows, total: rows[0]?.total ?? 0 };
}

/** What the variables render to for one recipient (report status in the recipient's language). */
export function variablesOf(recipient: RecipientRow, appUrl: string): Variables {
  const locale = recipient.locale as Locale;
  return {
    recipient_name: recipient.name,
    company: recipient.company_name ?? '',
    market: recipient.market_name,
    period: recipient.period_title ?? '',
    // In the recipient's language: "November 10, 2026", "10 november 2026".
    deadline: recipient.deadline ? formatDateIn(recipient.deadline, locale) : '',
    report_status: recipient.report_status === null ? '' : enumLabel('report_status', recipient.report_status, locale),
    report_link: recipient.report_uuid ? `${appUrl.replace(/\/$/, '')}/import/${recipient.report_uuid}` : '',
  };
}

/**
 * The companies a communication is about, each with who of it would get the mail (docs/decisions.md,
 * "Recipients are companies"): those that report in one of the filter's markets (a company market
 * there), are not disabled, are among its companies when it names some, and, when it names a
 * period, have a report there (of one of its statuses, when it names some). Those no one would
 * reach come first, then by name.
 */
export async function companiesReached(
  db: Executor,
  organizationId: number,
  filter: StoredFilter,
): Promise<{ company: { id: number; name: string }; recipients: { name: string; email: string }[] }[]> {
  const { rows } = await db.execute<{ id: number; name: string; recipients: { name: string; email: string }[] }>(sql`
    with rec as (${recipientsQuery(organizationId, filter)}),
    expected as (
      select distinct co.id, co.name
      from companies co
      join company_markets cm on cm.company_id = co.id and cm.market_id = any(${intArray(filter.market_ids)})
      join markets mk on mk.id = cm.market_id and mk.organization_id = ${organizationId}
      where (co.disabled_at is null or co.disabled_at > now())
        ${filter.company_ids.length ? sql`and co.id = any(${intArray(filter.company_ids)})` : sql``}
        ${
          filter.period_id === null
            ? sql``
            : sql`and exists (select 1 from reports r join periods p on p.id = r.period_id
                where p.id = ${filter.period_id} and p.market_id = cm.market_id and r.company_id = co.id
                ${filter.report_statuses.length ? sql`and r.status = any(${intArray(filter.report_statuses)})` : sql``})`
        }
    )
    select e.id, e.name,
      coalesce(json_agg(json_build_object('name', rec.name, 'email', rec.email) order by lower(rec.name), rec.user_id)
        filter (where rec.user_id is not null), '[]'::json) as recipients
    from expected e left join rec on rec.company_id = e.id
    group by e.id, e.name
    order by count(rec.user_id) > 0, lower(e.name), e.id`);
  return rows.map((r) => ({ company: { id: r.id, name: r.name }, recipients: r.recipients }));
}
