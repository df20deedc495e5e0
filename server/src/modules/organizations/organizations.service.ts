import { and, count, eq, inArray, ne, sql } from 'drizzle-orm';
import type { ListQuery } from '@mss/contracts/common';
import { ORGANIZATION_SETTINGS, type Organization, type OrganizationInput, type OrganizationSettingKey } from '@mss/contracts/admin';
import type { FieldParams, MessageKey, MessageParams } from '@mss/contracts/messages';
import type { Db } from '../../db/client.ts';
import {
  clusters,
  codeGroups,
  codes,
  codeSections,
  companyOrganizations,
  markets,
  organizations,
  organizationSettings,
  userOrganizations,
} from '../../db/schema.ts';
import { AppError, type FieldErrors, forbidden, notFound, validationError } from '../../errors.ts';
import { type Paged, planList } from '../../lib/list.ts';
import { inUse } from '../../lib/scope.ts';
import { isCrossOrganization, organizationCondition } from '../../auth/policy.ts';
import { type Principal } from '../../auth/principal.ts';

const columns = { id: organizations.id, uuid: organizations.uuid, name: organizations.name, mail_description: organizations.mail_description };
type Row = { id: number; uuid: string; name: string; mail_description: string | null };

const SETTING_KEYS = Object.keys(ORGANIZATION_SETTINGS) as OrganizationSettingKey[];

/** Every known setting of each organization: the stored value, else the default. */
async function settingsOf(db: Db, organizationIds: number[]): Promise<Map<number, Record<string, number>>> {
  const stored = organizationIds.length
    ? await db.select().from(organizationSettings).where(inArray(organizationSettings.organization_id, organizationIds))
    : [];
  const out = new Map<number, Record<string, number>>();
  for (const id of organizationIds) {
    const settings: Record<string, number> = {};
    for (const key of SETTING_KEYS) {
      const row = stored.find((s) => s.organization_id === id && s.key === key);
      const value = row ? Number(row.value) : NaN;
      settings[key] = Number.isFinite(value) ? value : ORGANIZATION_SETTINGS[key].default;
    }
    out.set(id, settings);
  }
  return out;
}

async function withSettings(db: Db, rows: Row[]): Promise<Organization[]> {
  const settings = await settingsOf(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => ({ ...r, settings: settings.get(r.id)! }));
}

/** An administrator sees only the organization of their session; a super-admin sees all. */
export async function findOrganizations(db: Db, principal: Principal, query: ListQuery): Promise<Paged<Organization>> {
  const plan = planList(query, { sortable: { name: sql`lower(${organizations.name})`, id: organizations.id }, searchable: [organizations.name] });
  const where = and(organizationCondition(principal, organizations.id, query.organization_id), plan.search);
  const [rows, [total]] = await Promise.all([
    db
      .select(columns)
      .from(organizations)
      .where(where)
      .orderBy(...plan.orderBy)
      .limit(plan.limit)
      .offset(plan.offset),
    db.select({ n: count() }).from(organizations).where(where),
  ]);
  return { data: await withSettings(db, rows), meta: plan.meta(total!.n) };
}

export async function findOrganization(db: Db, principal: Principal, id: number): Promise<Organization> {
  const [row] = await db
    .select(columns)
    .from(organizations)
    .where(and(eq(organizations.id, id), organizationCondition(principal, organizations.id)));
  if (!row) throw notFound();
  const [organization] = await withSettings(db, [row]);
  return organization!;
}

// Names are compared case-insensitively, so that "Nordic" and "nordic" cannot both exist.
async function assertNameFree(db: Db, name: string, exceptId?: number) {
  const [taken] = await db
    .select({ id: organizations.id })
    .from(organizations)
    .where(and(sql`lower(${organizations.name}) = lower(${name})`, exceptId ? ne(organizations.id, exceptId) : undefined));
  if (taken) throw validationError('name', 'validation.unique');
}

/** Only a super-admin creates organizations. */
export async function createOrganization(db: Db, principal: Principal, input: OrganizationInput): Promise<Organization> {
  if (!isCrossOrganization(principal)) throw forbidden();
  await assertNameFree(db, input.name);
  const [row] = await db
    .insert(organizations)
    .values({ name: input.name, mail_description: input.mail_description ?? null })
    .returning({ id: organizations.id });
  return findOrganization(db, principal, row!.id);
}

export async function updateOrganization(db: Db, principal: Principal, id: number, input: OrganizationInput): Promise<Organization> {
  await findOrganization(db, principal, id);
  await assertNameFree(db, input.name, id);
  await db
    .update(organizations)
    .set({ name: input.name, mail_description: input.mail_description ?? null, updated_at: sql`now()` })
    .where(eq(organizations.id, id));
  return findOrganization(db, principal, id);
}

/**
 * Only a super-admin deletes organizations, and only empty ones: its information modals and
 * settings go with it, but markets, clusters, users, companies and codes must be removed first.
 */
export async function deleteOrganization(db: Db, principal: Principal, id: number): Promise<void> {
  if (!isCrossOrganization(principal)) throw forbidden();
  const organization = await findOrganization(db, principal, id);
  const counts = await Promise.all([
    db.select({ n: count() }).from(markets).where(eq(markets.organization_id, id)),
    db.select({ n: count() }).from(clusters).where(eq(clusters.organization_id, id)),
    db.select({ n: count() }).from(userOrganizations).where(eq(userOrganizations.organization_id, id)),
    db.select({ n: count() }).from(companyOrganizations).where(eq(companyOrganizations.organization_id, id)),
    db.select({ n: count() }).from(codes).where(eq(codes.organization_id, id)),
    db.select({ n: count() }).from(codeSections).where(eq(codeSections.organization_id, id)),
    db.select({ n: count() }).from(codeGroups).where(eq(codeGroups.organization_id, id)),
  ]);
  if (counts.some(([c]) => c!.n > 0)) throw inUse({ key: 'model.organization', params: { name: organization.name } });
  await db.delete(organizations).where(eq(organizations.id, id));
}

/** A setting's value: a number, or a string holding one (form fields); null when it is neither. */
function parseSettingValue(raw: unknown): number | null {
  if (typeof raw === 'number') return Number.isFinite(raw) ? raw : null;
  if (typeof raw === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(raw)) return Number(raw);
  return null;
}

function displayValue(raw: unknown): string {
  return typeof raw === 'string' ? raw : (JSON.stringify(raw) ?? String(raw));
}

/**
 * Validates and stores settings (docs/product.md §8 messages). Every key is checked before anything is
 * stored; keys not given keep their value.
 */
export async function updateOrganizationSettings(db: Db, principal: Principal, id: number, settings: Record<string, unknown>): Promise<Organization> {
  await findOrganization(db, principal, id);
  const errors: FieldErrors = {};
  const add = (key: string, messageKey: MessageKey, params: MessageParams, fields?: FieldParams) => (errors[key] = [{ key: messageKey, params, fields }]);
  const values: { organization_id: number; key: string; value: string }[] = [];
  for (const [key, raw] of Object.entries(settings)) {
    if (!Object.hasOwn(ORGANIZATION_SETTINGS, key)) {
      add(key, 'generic.invalid_setting', { key });
      continue;
    }
    const definition = ORGANIZATION_SETTINGS[key as OrganizationSettingKey];
    // A cleared number field sends "" (or null): say what is missing, not that "" is a bad value.
    if (raw === null || raw === undefined || (typeof raw === 'string' && raw.trim() === '')) {
      add(key, 'validation.required', {}, { attribute: key });
      continue;
    }
    const value = parseSettingValue(raw);
    if (value === null || (definition.kind !== 'number' && !Number.isInteger(value)) || (definition.kind === 'switch' && value > 1)) {
      // A known setting is called by its label ("deviation percentage"); an unknown one as sent.
      add(key, 'generic.invalid_setting_value', { value: displayValue(raw) }, { key });
      continue;
    }
    if (value < 0) {
      add(key, 'generic.setting_below_zero', {}, { key });
      continue;
    }
    values.push({ organization_id: id, key, value: String(value) });
  }
  const [first] = Object.values(errors);
  if (first) throw new AppError('validation', first[0]!.key, first[0]!.params, errors, {}, first[0]!.fields);
  if (values.length) {
    await db
      .insert(organizationSettings)
      .values(values)
      .onConflictDoUpdate({
        target: [organizationSettings.organization_id, organizationSettings.key],
        set: { value: sql`excluded.value`, updated_at: sql`now()` },
      });
  }
  return findOrganization(db, principal, id);
}
