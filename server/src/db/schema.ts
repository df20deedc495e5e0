import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  customType,
  index,
  integer,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

const bytea = customType<{ data: Buffer }>({ dataType: () => 'bytea' });
const timestamps = {
  created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updated_at: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
};

/** Uploaded files (logotypes, report files, attachments) live in the database (DESIGN §2). */
export const files = pgTable('files', {
  id: serial('id').primaryKey(),
  uuid: uuid('uuid').notNull().unique().defaultRandom(),
  name: text('name').notNull(),
  mime_type: text('mime_type').notNull(),
  size: bigint('size', { mode: 'number' }).notNull(),
  sha256: text('sha256').notNull(),
  content: bytea('content').notNull(),
  created_at: timestamps.created_at,
});

export const organizations = pgTable('organizations', {
  id: serial('id').primaryKey(),
  uuid: uuid('uuid').notNull().unique().defaultRandom(),
  name: text('name').notNull().unique(),
  mail_description: text('mail_description'),
  ...timestamps,
});

export const currencies = pgTable('currencies', {
  id: serial('id').primaryKey(),
  iso_code: text('iso_code').notNull().unique(),
  name: text('name').notNull(),
  ...timestamps,
});

export const markets = pgTable(
  'markets',
  {
    id: serial('id').primaryKey(),
    uuid: uuid('uuid').notNull().unique().defaultRandom(),
    organization_id: integer('organization_id')
      .notNull()
      .references(() => organizations.id),
    international_name: text('international_name').notNull(),
    local_name: text('local_name').notNull(),
    iso_code: text('iso_code').notNull(),
    currency_id: integer('currency_id').references(() => currencies.id),
    logotype_file_id: integer('logotype_file_id').references(() => files.id),
    ...timestamps,
  },
  (t) => [uniqueIndex('markets_organization_iso_code_unique').on(t.organization_id, t.iso_code)],
);

export const clusters = pgTable(
  'clusters',
  {
    id: serial('id').primaryKey(),
    organization_id: integer('organization_id')
      .notNull()
      .references(() => organizations.id),
    name: text('name').notNull(),
    ...timestamps,
  },
  (t) => [uniqueIndex('clusters_organization_name_unique').on(t.organization_id, t.name)],
);

export const clusterMarkets = pgTable(
  'cluster_markets',
  {
    cluster_id: integer('cluster_id')
      .notNull()
      .references(() => clusters.id, { onDelete: 'cascade' }),
    market_id: integer('market_id')
      .notNull()
      .references(() => markets.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.cluster_id, t.market_id] })],
);

export const companies = pgTable('companies', {
  id: serial('id').primaryKey(),
  uuid: uuid('uuid').notNull().unique().defaultRandom(),
  name: text('name').notNull(),
  disabled_at: timestamp('disabled_at', { withTimezone: true }),
  logotype_file_id: integer('logotype_file_id').references(() => files.id),
  ...timestamps,
});

export const companyOrganizations = pgTable(
  'company_organizations',
  {
    company_id: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    organization_id: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.company_id, t.organization_id] })],
);

/** A market a company reports in or sees; `roles` are the roles the company's users hold there. */
export const companyMarkets = pgTable(
  'company_markets',
  {
    id: serial('id').primaryKey(),
    company_id: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    market_id: integer('market_id')
      .notNull()
      .references(() => markets.id, { onDelete: 'cascade' }),
    roles: text('roles').array().notNull().default(sql`'{}'::text[]`),
    ...timestamps,
  },
  (t) => [uniqueIndex('company_markets_company_market_unique').on(t.company_id, t.market_id)],
);

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    uuid: uuid('uuid').notNull().unique().defaultRandom(),
    email: text('email').notNull(),
    first_name: text('first_name').notNull().default(''),
    last_name: text('last_name').notNull().default(''),
    phone: text('phone'),
    locale: text('locale').notNull().default('en-US'),
    password_hash: text('password_hash'),
    company_id: integer('company_id').references(() => companies.id, { onDelete: 'set null' }),
    disabled_at: timestamp('disabled_at', { withTimezone: true }),
    ...timestamps,
  },
  // E-mail addresses are compared case-insensitively.
  (t) => [uniqueIndex('users_email_unique').on(sql`lower(${t.email})`)],
);

export const userOrganizations = pgTable(
  'user_organizations',
  {
    user_id: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    organization_id: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.user_id, t.organization_id] })],
);

export const userRoles = pgTable(
  'user_roles',
  {
    user_id: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role').notNull(),
  },
  (t) => [primaryKey({ columns: [t.user_id, t.role] })],
);

export const userMarkets = pgTable(
  'user_markets',
  {
    user_id: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    market_id: integer('market_id')
      .notNull()
      .references(() => markets.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.user_id, t.market_id] })],
);

/** Browser sessions (cookie) and integration tokens (bearer); only the token's SHA-256 is stored. */
export const sessions = pgTable(
  'sessions',
  {
    id: serial('id').primaryKey(),
    token_hash: text('token_hash').notNull().unique(),
    kind: text('kind').notNull(),
    user_id: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    organization_id: integer('organization_id').references(() => organizations.id, { onDelete: 'cascade' }),
    device_name: text('device_name'),
    ip: text('ip'),
    user_agent: text('user_agent'),
    created_at: timestamps.created_at,
    last_used_at: timestamp('last_used_at', { withTimezone: true }).notNull().defaultNow(),
    expires_at: timestamp('expires_at', { withTimezone: true }).notNull(),
    revoked_at: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [index('sessions_user_idx').on(t.user_id), check('sessions_kind_check', sql`${t.kind} in ('session', 'token')`)],
);

/** Failed login attempts, per e-mail and address, for throttling across API instances. */
export const loginAttempts = pgTable(
  'login_attempts',
  {
    id: serial('id').primaryKey(),
    email: text('email').notNull(),
    ip: text('ip').notNull(),
    attempted_at: timestamp('attempted_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('login_attempts_key_idx').on(t.email, t.ip, t.attempted_at)],
);

export const passwordResets = pgTable(
  'password_resets',
  {
    id: serial('id').primaryKey(),
    user_id: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    token_hash: text('token_hash').notNull().unique(),
    created_at: timestamps.created_at,
    expires_at: timestamp('expires_at', { withTimezone: true }).notNull(),
    used_at: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [index('password_resets_user_idx').on(t.user_id)],
);
