import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  customType,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';

const bytea = customType<{ data: Buffer }>({ dataType: () => 'bytea' });
const timestamps = {
  created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updated_at: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
};

/**
 * Uploaded files (logotypes, report files, attachments) live in the database (docs/architecture.md §2); their
 * content in `file_chunks`.
 */
export const files = pgTable('files', {
  id: serial('id').primaryKey(),
  uuid: uuid('uuid').notNull().unique().defaultRandom(),
  name: text('name').notNull(),
  mime_type: text('mime_type').notNull(),
  /** Final once `complete`. */
  size: bigint('size', { mode: 'number' }).notNull(),
  /** Final once `complete`. */
  sha256: text('sha256').notNull(),
  /**
   * Set when every chunk is stored. The chunks are written one short statement at a time, not in
   * one transaction, so a file being uploaded (or left behind by a crash) exists without it.
   */
  complete: boolean('complete').notNull().default(false),
  created_at: timestamps.created_at,
});

/**
 * A file's content in pieces (`seq` 0, 1, 2, …) of about 256 KiB (FILE_CHUNK_BYTES, lib/files.ts),
 * written and read one piece per statement, so that a 20 MB file never holds the embedded
 * database's only connection, nor the server's memory, for its whole length.
 */
export const fileChunks = pgTable(
  'file_chunks',
  {
    file_id: integer('file_id')
      .notNull()
      .references(() => files.id, { onDelete: 'cascade' }),
    seq: integer('seq').notNull(),
    data: bytea('data').notNull(),
  },
  (t) => [primaryKey({ columns: [t.file_id, t.seq] })],
);

export const organizations = pgTable(
  'organizations',
  {
    id: serial('id').primaryKey(),
    uuid: uuid('uuid').notNull().unique().defaultRandom(),
    name: text('name').notNull(),
    mail_description: text('mail_description'),
    ...timestamps,
  },
  // Names are unique regardless of case ("Nordic" and "nordic" cannot both exist), also when two
  // requests create them at once: the service's check answers first, the index decides races.
  (t) => [uniqueIndex('organizations_name_lower_unique').on(sql`lower(${t.name})`)],
);

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
  (t) => [uniqueIndex('clusters_organization_name_lower_unique').on(t.organization_id, sql`lower(${t.name})`)],
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
    roles: text('roles')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
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
    /** Mails about the report workflow (submitted, sent back, approved); the user turns them off on the profile. */
    workflow_mails: boolean('workflow_mails').notNull().default(true),
    /** Two-factor sign-in (auth/totp.ts): the TOTP secret (base32) once confirmed, when, and the last step a code was used for. */
    totp_secret: text('totp_secret'),
    totp_enabled_at: timestamp('totp_enabled_at', { withTimezone: true }),
    totp_last_step: bigint('totp_last_step', { mode: 'number' }),
    /** A secret being set up: shown to the user, not yet confirmed with a code. */
    totp_pending_secret: text('totp_pending_secret'),
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
    /** What a token may do: 'all' (what its user may), or 'upload-reports' (its company's reports' rows and files, and reading them). */
    scope: text('scope').notNull().default('all'),
    ip: text('ip'),
    user_agent: text('user_agent'),
    created_at: timestamps.created_at,
    last_used_at: timestamp('last_used_at', { withTimezone: true }).notNull().defaultNow(),
    expires_at: timestamp('expires_at', { withTimezone: true }).notNull(),
    revoked_at: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [
    index('sessions_user_idx').on(t.user_id),
    check('sessions_kind_check', sql`${t.kind} in ('session', 'token')`),
    check('sessions_scope_check', sql`${t.scope} in ('all', 'upload-reports')`),
  ],
);

/** A user's one-time recovery codes (two-factor sign-in), by their SHA-256; used once. */
export const userRecoveryCodes = pgTable(
  'user_recovery_codes',
  {
    id: serial('id').primaryKey(),
    user_id: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    code_hash: text('code_hash').notNull(),
    used_at: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('user_recovery_codes_unique').on(t.user_id, t.code_hash)],
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

// ---------------------------------------------------------------------------------------------
// Administration
// ---------------------------------------------------------------------------------------------

/** Organization settings: a validated key → value map (see organizations.service). */
export const organizationSettings = pgTable(
  'organization_settings',
  {
    organization_id: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    value: text('value').notNull(),
    updated_at: timestamps.updated_at,
  },
  (t) => [primaryKey({ columns: [t.organization_id, t.key] })],
);

export const informationModals = pgTable('information_modals', {
  id: serial('id').primaryKey(),
  organization_id: integer('organization_id')
    .notNull()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  title: text('title').notNull(),
  body: text('body').notNull(),
  active: boolean('active').notNull().default(true),
  starts_on: date('starts_on'),
  ends_on: date('ends_on'),
  ...timestamps,
});

export const informationModalDismissals = pgTable(
  'information_modal_dismissals',
  {
    information_modal_id: integer('information_modal_id')
      .notNull()
      .references(() => informationModals.id, { onDelete: 'cascade' }),
    user_id: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    dismissed_at: timestamp('dismissed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.information_modal_id, t.user_id] })],
);

export const releases = pgTable('releases', {
  id: serial('id').primaryKey(),
  version: text('version').notNull().unique(),
  release_date: date('release_date').notNull(),
  title: text('title').notNull().default(''),
  notes: text('notes').notNull().default(''),
  ...timestamps,
});

/** One row per user who read a release note; the note's `views` is their count. */
export const releaseViews = pgTable(
  'release_views',
  {
    release_id: integer('release_id')
      .notNull()
      .references(() => releases.id, { onDelete: 'cascade' }),
    user_id: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    viewed_at: timestamp('viewed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.release_id, t.user_id] })],
);

export const currencyConversions = pgTable(
  'currency_conversions',
  {
    id: serial('id').primaryKey(),
    from_currency_id: integer('from_currency_id')
      .notNull()
      .references(() => currencies.id),
    to_currency_id: integer('to_currency_id')
      .notNull()
      .references(() => currencies.id),
    /** Multiplier: amount in from_currency × rate = amount in to_currency. */
    rate: numeric('rate', { precision: 20, scale: 10 }).notNull(),
    valid_from: date('valid_from').notNull(),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('currency_conversions_pair_date_unique').on(t.from_currency_id, t.to_currency_id, t.valid_from),
    check('currency_conversions_rate_positive', sql`${t.rate} > 0`),
    check('currency_conversions_distinct', sql`${t.from_currency_id} <> ${t.to_currency_id}`),
  ],
);

/**
 * A code section is a range of numeric codes: `length` codes from `start`, so start 1000 and
 * length 100 holds the codes 1000 to 1099. Sections of an organization do not overlap.
 */
export const codeSections = pgTable('code_sections', {
  id: serial('id').primaryKey(),
  organization_id: integer('organization_id')
    .notNull()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  name: text('name').notNull(),
  start: integer('start').notNull(),
  length: integer('length').notNull(),
  ...timestamps,
});

export const codeSectionMarkets = pgTable(
  'code_section_markets',
  {
    code_section_id: integer('code_section_id')
      .notNull()
      .references(() => codeSections.id, { onDelete: 'cascade' }),
    market_id: integer('market_id')
      .notNull()
      .references(() => markets.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.code_section_id, t.market_id] })],
);

export const codes = pgTable(
  'codes',
  {
    id: serial('id').primaryKey(),
    organization_id: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    code: text('code').notNull(),
    name: text('name').notNull(),
    /** docs/product.md §4: 0 all allowed, 10 value disabled, 20 volume disabled, 30 all disabled. */
    disabled_status: integer('disabled_status').notNull().default(0),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('codes_organization_code_unique').on(t.organization_id, t.code),
    check('codes_disabled_status_check', sql`${t.disabled_status} in (0, 10, 20, 30)`),
  ],
);

export const codeMarkets = pgTable(
  'code_markets',
  {
    code_id: integer('code_id')
      .notNull()
      .references(() => codes.id, { onDelete: 'cascade' }),
    market_id: integer('market_id')
      .notNull()
      .references(() => markets.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.code_id, t.market_id] })],
);

export const codeGroups = pgTable('code_groups', {
  id: serial('id').primaryKey(),
  organization_id: integer('organization_id')
    .notNull()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  title: text('title').notNull(),
  ...timestamps,
});

export const codeGroupCodes = pgTable(
  'code_group_codes',
  {
    code_group_id: integer('code_group_id')
      .notNull()
      .references(() => codeGroups.id, { onDelete: 'cascade' }),
    code_id: integer('code_id')
      .notNull()
      .references(() => codes.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.code_group_id, t.code_id] })],
);

/** The codes a company reports. */
export const companyCodes = pgTable(
  'company_codes',
  {
    company_id: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    code_id: integer('code_id')
      .notNull()
      .references(() => codes.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.company_id, t.code_id] })],
);

// ---------------------------------------------------------------------------------------------
// Reporting workflow
// ---------------------------------------------------------------------------------------------

/**
 * A reporting period of one market (docs/architecture.md §5): draft → open → closed, and independently
 * published (statistics visible to viewers).
 */
export const periods = pgTable(
  'periods',
  {
    id: serial('id').primaryKey(),
    uuid: uuid('uuid').notNull().unique().defaultRandom(),
    market_id: integer('market_id')
      .notNull()
      .references(() => markets.id),
    title: text('title').notNull(),
    starts_on: date('starts_on').notNull(),
    ends_on: date('ends_on').notNull(),
    deadline: date('deadline'),
    status: text('status').notNull().default('draft'),
    opened_at: timestamp('opened_at', { withTimezone: true }),
    closed_at: timestamp('closed_at', { withTimezone: true }),
    published_at: timestamp('published_at', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('periods_market_title_unique').on(t.market_id, sql`lower(${t.title})`),
    check('periods_status_check', sql`${t.status} in ('draft', 'open', 'closed')`),
    check('periods_dates_check', sql`${t.ends_on} >= ${t.starts_on}`),
  ],
);

/** One company's figures for one market and period (docs/product.md §4 report status numbers). */
export const reports = pgTable(
  'reports',
  {
    id: serial('id').primaryKey(),
    uuid: uuid('uuid').notNull().unique().defaultRandom(),
    period_id: integer('period_id')
      .notNull()
      .references(() => periods.id),
    company_id: integer('company_id')
      .notNull()
      .references(() => companies.id),
    status: integer('status').notNull().default(20),
    submitted_at: timestamp('submitted_at', { withTimezone: true }),
    approved_at: timestamp('approved_at', { withTimezone: true }),
    /** The report's accepted rows (null: none yet). Set when a valid import or a copy completes. */
    row_set_id: integer('row_set_id').references((): AnyPgColumn => reportRowSets.id, { onDelete: 'set null' }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('reports_period_company_unique').on(t.period_id, t.company_id),
    index('reports_company_idx').on(t.company_id),
    check('reports_status_check', sql`${t.status} in (10, 11, 20, 30, 40, 50, 60)`),
  ],
);

/**
 * A set of rows written for a report: by an import (while its file is being validated), by
 * "copy from previous period", or by the demo data. The report's `row_set_id` names the set that
 * holds its accepted rows; a valid import writes a new set and switches the pointer in one small
 * transaction, so an invalid file never touches the accepted rows and 100,000 rows can be written
 * while the file is still being read (docs/performance.md). Sets that are not a report's current
 * set are deleted once superseded or abandoned.
 */
export const reportRowSets = pgTable(
  'report_row_sets',
  {
    id: serial('id').primaryKey(),
    report_id: integer('report_id')
      .notNull()
      .references((): AnyPgColumn => reports.id, { onDelete: 'cascade' }),
    /**
     * How many rows the set holds, kept by statement-level triggers on report_rows (migration
     * 0018): a report list shows each report's row count without counting its rows.
     */
    row_count: integer('row_count').notNull().default(0),
    created_at: timestamps.created_at,
  },
  (t) => [index('report_row_sets_report_idx').on(t.report_id)],
);

/**
 * The rows of a row set. Their references to row sets and codes are checked once per statement
 * by triggers (migrations 0004, 0006) instead of per row by foreign keys: an import writes
 * 100,000 rows, and row-by-row checks took most of its time (docs/performance.md). Deleting a
 * row set (or its report) deletes its rows; deleting a code that has rows is refused. The checks
 * take locks (migration 0010) so that they hold when a delete and a write run at the same time
 * (docs/decisions.md "Rows, row sets and concurrent deletes").
 */
export const reportRows = pgTable(
  'report_rows',
  {
    row_set_id: integer('row_set_id').notNull(),
    code_id: integer('code_id').notNull(),
    volume: numeric('volume', { precision: 20, scale: 4 }),
    value: numeric('value', { precision: 20, scale: 4 }),
  },
  (t) => [primaryKey({ columns: [t.row_set_id, t.code_id] })],
);

/** Every status change of a report: who, when, from, to, comment (docs/architecture.md §5). */
export const reportStatusChanges = pgTable(
  'report_status_changes',
  {
    id: serial('id').primaryKey(),
    report_id: integer('report_id')
      .notNull()
      .references(() => reports.id, { onDelete: 'cascade' }),
    /** Null when the system (the import worker) made the change. */
    user_id: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    from_status: integer('from_status'),
    to_status: integer('to_status').notNull(),
    /**
     * The workflow event (a ReportEvent, or `history_import`): the statuses alone do not tell a
     * withdrawal from a send-back (both 40 → 50). Null on rows from before it was recorded.
     */
    event: text('event'),
    comment: text('comment'),
    created_at: timestamps.created_at,
  },
  (t) => [index('report_status_changes_report_idx').on(t.report_id)],
);

/** An uploaded file for a report and what its processing found. */
export const imports = pgTable(
  'imports',
  {
    id: serial('id').primaryKey(),
    uuid: uuid('uuid').notNull().unique().defaultRandom(),
    report_id: integer('report_id')
      .notNull()
      .references(() => reports.id, { onDelete: 'cascade' }),
    user_id: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    file_id: integer('file_id')
      .notNull()
      .references(() => files.id),
    /** queued → processing → invalid | done | failed */
    status: text('status').notNull().default('queued'),
    /** Where the rows came from: a file uploaded in the app (or POST …/file), or PUT /reports/{uuid}/rows. */
    source: text('source').notNull().default('upload'),
    /** The report status before the upload, to return to (20 or 50). */
    report_status_before: integer('report_status_before').notNull(),
    row_count: integer('row_count'),
    error_count: integer('error_count').notNull().default(0),
    attempts: integer('attempts').notNull().default(0),
    /** The process (host:pid) running the latest attempt: which one to look at, or that died. */
    worker: text('worker'),
    /** The running attempt's lease, renewed while it runs (IMPORT_LEASE_SECONDS). */
    heartbeat_at: timestamp('heartbeat_at', { withTimezone: true }),
    created_at: timestamps.created_at,
    started_at: timestamp('started_at', { withTimezone: true }),
    finished_at: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    index('imports_report_idx').on(t.report_id),
    check('imports_status_check', sql`${t.status} in ('queued', 'processing', 'invalid', 'done', 'failed')`),
    check('imports_source_check', sql`${t.source} in ('upload', 'api')`),
  ],
);

/**
 * The errors of an import, in the validator's order (the error sheet's), one row each: written in
 * batches and read a page at a time, so that a file with 50,000 errors never makes one statement
 * that holds the database (they were one jsonb value). `key` and `params` render the
 * message in the reader's language; `message` is the sentence of an entry from before keys were
 * stored.
 */
export const importErrors = pgTable(
  'import_errors',
  {
    import_id: integer('import_id')
      .notNull()
      .references(() => imports.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    row: integer('row'),
    code: text('code'),
    key: text('key'),
    params: jsonb('params')
      .notNull()
      .default(sql`'{}'::jsonb`),
    message: text('message'),
    /**
     * Where in the row: the column's letter (A, B or C), its name in the file's header
     * row (null without one), and the cell as read. Null for errors about the file or a whole row.
     */
    column_letter: text('column_letter'),
    column_name: text('column_name'),
    cell: text('cell'),
  },
  (t) => [primaryKey({ columns: [t.import_id, t.position] })],
);

/** The result of a preflight run: the worst severity and every finding. */
export const preflights = pgTable(
  'preflights',
  {
    id: serial('id').primaryKey(),
    report_id: integer('report_id')
      .notNull()
      .references(() => reports.id, { onDelete: 'cascade' }),
    severity: integer('severity').notNull(),
    results: jsonb('results').notNull(),
    created_at: timestamps.created_at,
  },
  (t) => [index('preflights_report_idx').on(t.report_id)],
);

// ---------------------------------------------------------------------------------------------
// Statistics: pre-aggregated cells (docs/performance.md "Statistics")
// ---------------------------------------------------------------------------------------------

/**
 * The periods whose `statistics_cells` are built and current. A period without a row here is
 * built on its first read; triggers (migration 0011) delete the row when something the cells
 * depend on changes (a company's disabled_at, a period's end, code groups, code sections, a
 * code's text).
 */
/**
 * How many reports of each status a period has, of the companies it counts (not disabled at the
 * period's end, as statistics count them): kept by triggers on reports, companies and periods
 * (migration 0030, docs/performance.md "Completeness"), so that the completeness overview and the
 * period lists read counts instead of counting reports on every request. Changes add and subtract
 * (n = n + delta), which two transactions approving in one period at once cannot get wrong.
 */
export const periodReportCounts = pgTable(
  'period_report_counts',
  {
    period_id: integer('period_id')
      .notNull()
      .references(() => periods.id, { onDelete: 'cascade' }),
    status: integer('status').notNull(),
    n: integer('n').notNull(),
  },
  (t) => [primaryKey({ columns: [t.period_id, t.status] })],
);

export const statisticsPeriods = pgTable('statistics_periods', {
  period_id: integer('period_id')
    .primaryKey()
    .references(() => periods.id, { onDelete: 'cascade' }),
  built_at: timestamp('built_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * One aggregate cell of one period over its approved reports of companies not disabled at the
 * period's end: by code, code group, code section, company (key_id the company) and in total
 * (key_id 0). `contributors` counts the companies with figures in the cell; the rules judge
 * each measure on its magnitudes: `*_contributors` (figures not 0), `abs_*` (their absolute values
 * added up) and `max_*` (the largest absolute value) (docs/architecture.md §8 Confidentiality). Grown by
 * `applyReportEvent` when a report is approved (an approved report never changes), rebuilt
 * from the rows when invalidated.
 */
export const statisticsCells = pgTable(
  'statistics_cells',
  {
    period_id: integer('period_id')
      .notNull()
      .references(() => periods.id, { onDelete: 'cascade' }),
    dimension: text('dimension').notNull(),
    key_id: integer('key_id').notNull(),
    volume: numeric('volume'),
    value: numeric('value'),
    contributors: integer('contributors').notNull(),
    /** The companies whose figure in the cell is not 0 (nor empty), per measure: the contributors the rules count. */
    volume_contributors: integer('volume_contributors').notNull().default(0),
    value_contributors: integer('value_contributors').notNull().default(0),
    /** The companies' figures in absolute value, added up: what dominance is judged against. */
    abs_volume: numeric('abs_volume'),
    abs_value: numeric('abs_value'),
    /** The largest company's figure in absolute value. */
    max_volume: numeric('max_volume'),
    max_value: numeric('max_value'),
  },
  (t) => [
    primaryKey({ columns: [t.period_id, t.dimension, t.key_id] }),
    check('statistics_cells_dimension_check', sql`${t.dimension} in ('code', 'code_group', 'code_section', 'company', 'total')`),
  ],
);

/**
 * The figures of one bucket of an answer (a market's period with last year's and both years to
 * date, each period's values converted at its rate, the confidentiality rules judged per cell),
 * kept on the first read so that the next reads take one row per key instead of adding up one
 * cell per key and period (docs/performance.md "Statistics"). `signature` is a hash of what they
 * depend on besides the cells: the periods with their roles and rates, the breakdowns, a key
 * filter and the organization's confidentiality settings. Triggers (migration 0013) delete every set that counts a period whose
 * cells change (an approval grows them, a rebuild replaces them) and every set when a currency
 * conversion or an organization setting changes.
 */
export const statisticsSums = pgTable(
  'statistics_sums',
  {
    id: serial('id').primaryKey(),
    signature: text('signature').notNull().unique(),
    period_ids: integer('period_ids').array().notNull(),
    built_at: timestamp('built_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('statistics_sums_period_ids_idx').using('gin', t.period_ids)],
);

/** One key of a kept bucket: its figures as the aggregate sums them (statistics.aggregate.ts), and whether any cell they count is confidential. */
export const statisticsSumCells = pgTable(
  'statistics_sum_cells',
  {
    sum_id: integer('sum_id')
      .notNull()
      .references(() => statisticsSums.id, { onDelete: 'cascade' }),
    dimension: text('dimension').notNull(),
    key_id: integer('key_id').notNull(),
    volume: numeric('volume'),
    value: numeric('value'),
    volume_ly: numeric('volume_ly'),
    value_ly: numeric('value_ly'),
    ytd_volume: numeric('ytd_volume'),
    ytd_value: numeric('ytd_value'),
    ytd_volume_ly: numeric('ytd_volume_ly'),
    ytd_value_ly: numeric('ytd_value_ly'),
    contributors: integer('contributors'),
    confidential: boolean('confidential').notNull(),
    /** Which of its figures hold an estimate for a missing report: 1 the period's, 2 last year's, 4 the year to date, 8 last year's year to date. */
    estimated: smallint('estimated').notNull().default(0),
    /** Which of its figures differ from their period's first publication (the bits of `estimated`). */
    revised: smallint('revised').notNull().default(0),
    /** Why it is confidential (statistics.aggregate.ts REASON bits; 0 when shown). */
    reason: smallint('reason').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.sum_id, t.dimension, t.key_id] })],
);

/**
 * What viewers see of a published period (docs/decisions.md "Disclosure control"): the figures as
 * they were published and the pattern of hidden cells decided for them over the linked tables.
 * A period published again (after a late approval, or with new settings) gets the next number; the
 * earlier publications stay, because what they showed stays known and the next pattern counts it.
 * `company_ids`/`row_set_ids` are the reports counted (approved reports never change), so that the
 * difference of two publications can be protected too.
 */
export const statisticsPublications = pgTable(
  'statistics_publications',
  {
    id: serial('id').primaryKey(),
    period_id: integer('period_id')
      .notNull()
      .references(() => periods.id, { onDelete: 'cascade' }),
    number: integer('number').notNull(),
    published_at: timestamp('published_at', { withTimezone: true }).notNull().defaultNow(),
    published_by: integer('published_by').references(() => users.id, { onDelete: 'set null' }),
    company_ids: integer('company_ids').array().notNull(),
    row_set_ids: integer('row_set_ids').array().notNull(),
    min_contributors: integer('min_contributors').notNull(),
    dominance_percentage: numeric('dominance_percentage').notNull(),
    protection_percentage: numeric('protection_percentage').notNull(),
    /** Coverage as published: approved reports of the companies expected. */
    approved: integer('approved').notNull(),
    expected: integer('expected').notNull(),
    primary_cells: integer('primary_cells').notNull(),
    hidden_cells: integer('hidden_cells').notNull(),
    /** Sums no pattern could protect any more (an earlier publication gave them away); 0 normally. */
    unprotectable: integer('unprotectable').notNull(),
    /** Which sums those are (statistics.pattern.ts `Unprotectable`), to tell the administrator. */
    unprotectable_cells: jsonb('unprotectable_cells').notNull().default([]),
    /**
     * The rules the pattern was decided by (statistics.publications.ts `PUBLICATION_RULES`): 1
     * judged figures as if none were below zero; 2 judges magnitudes (returns, zeros). A
     * publication by older rules counts as changed: publishing again protects it by today's.
     */
    rules: integer('rules').notNull().default(1),
    /** The estimates for missing reports it counted (statistics_estimates), besides the reports. */
    estimate_ids: integer('estimate_ids')
      .array()
      .notNull()
      .default(sql`'{}'`),
    /** How long deciding the pattern took. */
    decided_ms: integer('decided_ms').notNull(),
    /**
     * The organization's code mapping version (code_mapping_versions) read before the pattern was
     * decided; null before versions were kept. While it is the current one, the groups and
     * sections add up the codes they did when published, without comparing their cells.
     */
    mapping_version: integer('mapping_version'),
  },
  (t) => [uniqueIndex('statistics_publications_period_number_unique').on(t.period_id, t.number)],
);

/**
 * How many times an organization's code groups and sections changed what they add up (which codes
 * a group holds; a section's range and markets; a code's number): kept by triggers (migration
 * 0032). No row: 0.
 */
export const codeMappingVersions = pgTable('code_mapping_versions', {
  organization_id: integer('organization_id')
    .primaryKey()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  version: integer('version').notNull(),
});

/** One published cell: its figures as published, whether it breaks the rules, whether it is hidden; groups and sections keep the codes they added up. */
export const statisticsPublicationCells = pgTable(
  'statistics_publication_cells',
  {
    publication_id: integer('publication_id')
      .notNull()
      .references(() => statisticsPublications.id, { onDelete: 'cascade' }),
    dimension: text('dimension').notNull(),
    key_id: integer('key_id').notNull(),
    volume: numeric('volume'),
    value: numeric('value'),
    contributors: integer('contributors').notNull(),
    max_volume: numeric('max_volume'),
    max_value: numeric('max_value'),
    primary_confidential: boolean('primary_confidential').notNull(),
    hidden: boolean('hidden').notNull(),
    code_ids: integer('code_ids').array(),
    /** It holds an estimate for a missing report. */
    estimated: boolean('estimated').notNull().default(false),
    /** Why it is hidden: contributors, dominance (it breaks the rules), protection (it protects another), unprotectable (an earlier publication narrowed it); null when shown. */
    reason: text('reason'),
  },
  (t) => [
    primaryKey({ columns: [t.publication_id, t.dimension, t.key_id] }),
    check('statistics_publication_cells_dimension_check', sql`${t.dimension} in ('code', 'code_group', 'code_section', 'total')`),
  ],
);

/**
 * An estimate for a company's missing report in a period (docs/decisions.md "Estimates for missing
 * reports"): made once, when a publication first counts it, from the company's report of an
 * earlier period (`source_row_set_id`, counted by that period's latest publication) times the
 * change of the companies that reported in both, per code and measure; kept as it is, so that
 * every publication that counts it counts the same figures, and so that later patterns know what
 * earlier publications showed.
 */
export const statisticsEstimates = pgTable(
  'statistics_estimates',
  {
    id: serial('id').primaryKey(),
    period_id: integer('period_id')
      .notNull()
      .references(() => periods.id, { onDelete: 'cascade' }),
    company_id: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    source_period_id: integer('source_period_id')
      .notNull()
      .references(() => periods.id, { onDelete: 'cascade' }),
    source_row_set_id: integer('source_row_set_id').notNull(),
    created_at: timestamps.created_at,
  },
  (t) => [
    uniqueIndex('statistics_estimates_period_company_unique').on(t.period_id, t.company_id),
    index('statistics_estimates_source_period_idx').on(t.source_period_id),
  ],
);

/** One code of an estimate: its figures, and the change (per measure) its source row was multiplied by. */
export const statisticsEstimateRows = pgTable(
  'statistics_estimate_rows',
  {
    estimate_id: integer('estimate_id')
      .notNull()
      .references(() => statisticsEstimates.id, { onDelete: 'cascade' }),
    code_id: integer('code_id').notNull(),
    volume: numeric('volume', { precision: 20, scale: 4 }),
    value: numeric('value', { precision: 20, scale: 4 }),
    volume_ratio: numeric('volume_ratio').notNull(),
    value_ratio: numeric('value_ratio').notNull(),
  },
  (t) => [primaryKey({ columns: [t.estimate_id, t.code_id] })],
);

// ---------------------------------------------------------------------------------------------
// Communications (docs/architecture.md §6): mails to reporters, with one delivery record per recipient.
// ---------------------------------------------------------------------------------------------

/** A mail to users chosen by a filter (market, role, company, report status in a period). */
export const communications = pgTable(
  'communications',
  {
    id: serial('id').primaryKey(),
    uuid: uuid('uuid').notNull().unique().defaultRandom(),
    organization_id: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    author_id: integer('author_id').references(() => users.id, { onDelete: 'set null' }),
    /** docs/product.md §4: 0 Draft, 1 Sending preflight, 2 Preflight sent, 10 Waiting to be sent, 20 Sent, 30 Failed. */
    status: integer('status').notNull().default(0),
    subject: text('subject').notNull(),
    /** Sanitised HTML (an allow-list, when saved and again when sent). */
    body: text('body').notNull(),
    foot_notes: text('foot_notes'),
    /** The markets of the filter, for scoping: the author needs send-communications in each. */
    market_ids: integer('market_ids').array().notNull(),
    /** The rest of the recipient filter: roles, company_ids, period_id, report_statuses. */
    recipients: jsonb('recipients').notNull(),
    preflight_sent_at: timestamp('preflight_sent_at', { withTimezone: true }),
    preflight_to: text('preflight_to'),
    send_at: timestamp('send_at', { withTimezone: true }),
    /**
     * An automatic reminder ('before' or 'after' the period's deadline, communications.reminders.ts);
     * null for a communication a person wrote.
     */
    reminder: text('reminder'),
    /** The subject and body in each language, by locale (a reminder's); each recipient gets theirs, `subject` and `body` otherwise. */
    texts: jsonb('texts'),
    /** When the recipients were fixed into deliveries (the send started). */
    dispatched_at: timestamp('dispatched_at', { withTimezone: true }),
    sent_at: timestamp('sent_at', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    index('communications_organization_idx').on(t.organization_id),
    check('communications_status_check', sql`${t.status} in (0, 1, 2, 10, 20, 30)`),
    check('communications_reminder_check', sql`${t.reminder} in ('before', 'after')`),
  ],
);

/**
 * The automatic reminders sent, one row per period and kind ('before' or 'after' its deadline):
 * inserted in the transaction that creates the reminder's communication, so that of several
 * processes sweeping at once one sends it, once (communications.reminders.ts). A reminder no one
 * would have got has no communication.
 */
export const periodReminders = pgTable(
  'period_reminders',
  {
    period_id: integer('period_id')
      .notNull()
      .references(() => periods.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    due_on: date('due_on').notNull(),
    communication_id: integer('communication_id').references(() => communications.id, { onDelete: 'set null' }),
    created_at: timestamps.created_at,
  },
  (t) => [primaryKey({ columns: [t.period_id, t.kind] }), check('period_reminders_kind_check', sql`${t.kind} in ('before', 'after')`)],
);

export const communicationAttachments = pgTable(
  'communication_attachments',
  {
    id: serial('id').primaryKey(),
    communication_id: integer('communication_id')
      .notNull()
      .references(() => communications.id, { onDelete: 'cascade' }),
    file_id: integer('file_id')
      .notNull()
      .references(() => files.id, { onDelete: 'restrict' }),
    created_at: timestamps.created_at,
  },
  (t) => [index('communication_attachments_communication_idx').on(t.communication_id)],
);

/**
 * One row per recipient of a send: the unique (communication, user) pair is what makes a send
 * idempotent per recipient. `sending` is claimed before the SMTP conversation and `sent` written
 * after the server's answer.
 */
export const communicationDeliveries = pgTable(
  'communication_deliveries',
  {
    id: serial('id').primaryKey(),
    communication_id: integer('communication_id')
      .notNull()
      .references(() => communications.id, { onDelete: 'cascade' }),
    user_id: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    email: text('email').notNull(),
    name: text('name').notNull(),
    /** What the variables render to for this recipient, fixed when the send starts. */
    variables: jsonb('variables').notNull(),
    /** The recipient's language when the send started: which of the communication's `texts` they get. */
    locale: text('locale'),
    status: text('status').notNull().default('queued'),
    /** Every attempt since the send started, retries included: never reset (the record). */
    attempts: integer('attempts').notNull().default(0),
    /** Attempts since the send or the last "Retry failed": the backoff and the give-up count these. */
    round_attempts: integer('round_attempts').notNull().default(0),
    /** The last attempt's answer; each attempt's own is in communication_delivery_attempts. */
    smtp_response: text('smtp_response'),
    /** Stable per recipient: a resend after a crash carries the same Message-ID. */
    message_id: text('message_id').notNull(),
    next_attempt_at: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    /** Renewed while the claiming process sends; a claim older than MAIL_LEASE_SECONDS is taken over. */
    claimed_at: timestamp('claimed_at', { withTimezone: true }),
    /** The process (host:pid) that claimed the delivery last. */
    claimed_by: text('claimed_by'),
    sent_at: timestamp('sent_at', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('communication_deliveries_recipient_unique').on(t.communication_id, t.user_id),
    index('communication_deliveries_status_idx').on(t.communication_id, t.status),
    check('communication_deliveries_status_check', sql`${t.status} in ('queued', 'sending', 'sent', 'failed')`),
  ],
);

/**
 * One row per SMTP conversation of a delivery, kept across retries: its number (1, 2, … over the
 * delivery's whole life), when it started and ended, and the server's answer or the error.
 * `sending` while under way; `interrupted` when its process died and the delivery was claimed again.
 */
export const communicationDeliveryAttempts = pgTable(
  'communication_delivery_attempts',
  {
    id: serial('id').primaryKey(),
    delivery_id: integer('delivery_id')
      .notNull()
      .references(() => communicationDeliveries.id, { onDelete: 'cascade' }),
    number: integer('number').notNull(),
    outcome: text('outcome').notNull().default('sending'),
    smtp_response: text('smtp_response'),
    started_at: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    finished_at: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('communication_delivery_attempts_number_unique').on(t.delivery_id, t.number),
    check('communication_delivery_attempts_outcome_check', sql`${t.outcome} in ('sending', 'sent', 'deferred', 'failed', 'interrupted')`),
  ],
);

/** Who did what to a communication, when, and for sends to whom (the deliveries): the audit. */
export const communicationEvents = pgTable(
  'communication_events',
  {
    id: serial('id').primaryKey(),
    communication_id: integer('communication_id').references(() => communications.id, { onDelete: 'set null' }),
    organization_id: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    user_id: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    /** created, updated, deleted, preflight, send, sent, failed, draft, retry, attachment_added, attachment_removed */
    action: text('action').notNull(),
    detail: jsonb('detail').notNull().default({}),
    created_at: timestamps.created_at,
  },
  (t) => [index('communication_events_communication_idx').on(t.communication_id)],
);

/**
 * Workflow notifications (a report submitted, sent back, approved) waiting to be mailed: approvers
 * get one digest an hour at most; reporters get each at once. Sent ones are kept as the record.
 */
export const workflowNotifications = pgTable(
  'workflow_notifications',
  {
    id: serial('id').primaryKey(),
    user_id: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    report_id: integer('report_id').references(() => reports.id, { onDelete: 'cascade' }),
    /** submitted, sent_back, approved */
    kind: text('kind').notNull(),
    comment: text('comment'),
    status: text('status').notNull().default('queued'),
    attempts: integer('attempts').notNull().default(0),
    smtp_response: text('smtp_response'),
    sent_at: timestamp('sent_at', { withTimezone: true }),
    created_at: timestamps.created_at,
  },
  (t) => [
    index('workflow_notifications_pending_idx').on(t.user_id, t.status),
    check('workflow_notifications_status_check', sql`${t.status} in ('queued', 'sent', 'failed')`),
  ],
);

/**
 * An association's history imported in one step (docs/decisions.md "History import"): a file,
 * checked (a dry run), imported on request (periods, approved reports), then published on
 * request. Run by the job queue; `status` says where it is:
 * queued → checking → checked | invalid; importing → imported | cancelled | failed;
 * publishing → published (or imported again, when publishing stopped).
 */
export const historyImports = pgTable(
  'history_imports',
  {
    id: serial('id').primaryKey(),
    uuid: uuid('uuid').notNull().unique().defaultRandom(),
    organization_id: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    /** Who uploaded the file, and who asked for the import (the reports' history names them). */
    user_id: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    imported_by: integer('imported_by').references(() => users.id, { onDelete: 'set null' }),
    /** The markets the person who asked for the latest step may import into (checked again by the job). */
    market_ids: integer('market_ids')
      .array()
      .notNull()
      .default(sql`'{}'::int[]`),
    file_id: integer('file_id')
      .notNull()
      .references(() => files.id),
    status: text('status').notNull().default('queued'),
    /** The file's data rows, and the rows holding a figure (what the import writes). */
    data_rows: integer('data_rows'),
    row_count: integer('row_count'),
    error_count: integer('error_count').notNull().default(0),
    /** The dry run's answer: per market and period, the rows and companies, and whether the period exists. */
    plan: jsonb('plan'),
    /**
     * When the dry run found the file valid with each market's month in one run of rows: a digest
     * of what the organization had then (history.service.ts `lookupDigest`). An import that finds
     * the same writes each period as the file is read, with nothing staged.
     */
    direct_digest: text('direct_digest'),
    /** The import's answer: periods created, reports created, replaced and unchanged. */
    result: jsonb('result'),
    /** Progress of the running step: rows read and written, periods done. */
    rows_read: integer('rows_read').notNull().default(0),
    rows_done: integer('rows_done').notNull().default(0),
    periods_done: integer('periods_done').notNull().default(0),
    periods_total: integer('periods_total').notNull().default(0),
    cancel_requested: boolean('cancel_requested').notNull().default(false),
    attempts: integer('attempts').notNull().default(0),
    heartbeat_at: timestamp('heartbeat_at', { withTimezone: true }),
    created_at: timestamps.created_at,
    /** When the running step started and the last step ended. */
    started_at: timestamp('started_at', { withTimezone: true }),
    finished_at: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    index('history_imports_organization_idx').on(t.organization_id),
    check(
      'history_imports_status_check',
      sql`${t.status} in ('queued', 'checking', 'checked', 'invalid', 'importing', 'imported', 'cancelled', 'failed', 'publishing', 'published')`,
    ),
  ],
);

/** A history import's errors, in file order (as `import_errors`, with any column letter). */
export const historyImportErrors = pgTable(
  'history_import_errors',
  {
    history_import_id: integer('history_import_id')
      .notNull()
      .references(() => historyImports.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    row: integer('row'),
    key: text('key').notNull(),
    params: jsonb('params')
      .notNull()
      .default(sql`'{}'::jsonb`),
    column_letter: text('column_letter'),
    column_name: text('column_name'),
    cell: text('cell'),
  },
  (t) => [primaryKey({ columns: [t.history_import_id, t.position] })],
);

/**
 * The checked rows of a running history import, staged while the file is read so that each
 * period is then written in one transaction of its own (unlogged on a PostgreSQL server: they are
 * read again from the file after a crash). Emptied when the import ends. One staged row holds a
 * run of the file's rows of one market, month and company, as three arrays of the same length
 * (code, volume, value): a row of the table per row of the file made staging the slowest part of
 * an import (docs/performance.md).
 */
export const historyImportRows = pgTable(
  'history_import_rows',
  {
    history_import_id: integer('history_import_id').notNull(),
    market_id: integer('market_id').notNull(),
    period_start: date('period_start').notNull(),
    company_id: integer('company_id').notNull(),
    code_ids: integer('code_ids').array().notNull(),
    volume_list: numeric('volume_list', { precision: 20, scale: 4 }).array().notNull(),
    value_list: numeric('value_list', { precision: 20, scale: 4 }).array().notNull(),
  },
  (t) => [index('history_import_rows_period_idx').on(t.history_import_id, t.market_id, t.period_start)],
);

/**
 * Answers given to requests sent with an `Idempotency-Key` (PUT /reports/{uuid}/rows): the same
 * key from the same user gets the same answer again, and nothing is done twice. Kept a day.
 * `status` null: the first request is still being answered.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    id: serial('id').primaryKey(),
    user_id: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    /** The request the key was first used for (method, path and query) and a hash of its body. */
    request: text('request').notNull(),
    body_hash: text('body_hash').notNull(),
    status: integer('status'),
    answer: jsonb('answer'),
    created_at: timestamps.created_at,
  },
  (t) => [uniqueIndex('idempotency_keys_user_key_unique').on(t.user_id, t.key)],
);

/**
 * The audit trail (docs/decisions.md "Audit trail"): who did or read what, when, from where.
 * Append-only: a trigger refuses every update, and every delete but the retention purge's
 * (migration 0033). No foreign keys: an entry outlives the user, organization or record it names.
 */
export const auditEntries = pgTable(
  'audit_entries',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    /** The organization the entry belongs to (the actor's, or the record's); null: none (a failed sign-in of an unknown e-mail, a super-administrator's). */
    organization_id: integer('organization_id'),
    user_id: integer('user_id'),
    /** The actor's e-mail as it was (or the e-mail a failed sign-in gave). */
    email: text('email'),
    /** Through what: a browser session or an integration token, and which (sessions.id). */
    via: text('via'),
    session_id: integer('session_id'),
    ip: text('ip'),
    action: text('action').notNull(),
    record_type: text('record_type'),
    record_id: text('record_id'),
    /** The change (before and after) or what was read; secrets never. */
    before: jsonb('before'),
    after: jsonb('after'),
    details: jsonb('details'),
  },
  (t) => [
    index('audit_entries_organization_idx').on(t.organization_id, t.at),
    index('audit_entries_user_idx').on(t.user_id, t.at),
    index('audit_entries_record_idx').on(t.record_type, t.record_id),
    index('audit_entries_at_idx').on(t.at),
  ],
);

/**
 * The transactions that changed the app's data, one row each, for the kept answers of reads
 * (lib/kept-answers.ts, docs/decisions.md "Kept answers"): a statement-level trigger on every table
 * but these two, `sessions` and `audit_entries` adds the writing transaction's id (migration 0035).
 * The data's version is `data_change_base.n` + the rows here; the sweep moves rows into the base.
 */
export const dataChanges = pgTable('data_changes', {
  xid: bigint('xid', { mode: 'number' }).primaryKey(),
});

/** The count of changes moved out of `data_changes` (one row). */
export const dataChangeBase = pgTable('data_change_base', {
  id: integer('id').primaryKey().default(1),
  n: bigint('n', { mode: 'number' }).notNull().default(0),
});
