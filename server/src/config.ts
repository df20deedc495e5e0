import path from 'node:path';
import { z } from 'zod';

// The one place that reads process.env (docs/architecture.md §9 "Config fails fast").
const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().default('0.0.0.0'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'DATABASE_URL must be a postgres:// URL')
    .optional(),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'SMTP_URL must be an smtp:// or smtps:// URL')
    .optional(),
  MAIL_FROM: z.string().default('Market Sales Statistics <no-reply@localhost>'),
  /** The address people use to reach the app; links in e-mails point here. */
  APP_URL: z.string().url().optional(),
  SEED: z.enum(['demo', 'none']).default('demo'),
  ADMIN_EMAIL: z.string().email().optional(),
  ADMIN_PASSWORD: z.string().min(8, 'ADMIN_PASSWORD must be at least 8 characters').optional(),
  /** Lifetime of a browser session in seconds; /auth/refresh extends it by as much. */
  SESSION_LIFETIME_SECONDS: z.coerce.number().int().min(60).default(7200),
  /**
   * Absolute lifetime of a browser session in hours (OWASP ASVS 3.3): refreshing never extends a
   * session past this time after sign-in; then the user signs in again.
   */
  SESSION_ABSOLUTE_LIFETIME_HOURS: z.coerce
    .number()
    .positive()
    .max(24 * 90)
    .default(12),
  /** Lifetime of an integration (bearer) token in days. */
  TOKEN_LIFETIME_DAYS: z.coerce.number().int().min(1).default(365),
  /** Set when the app is served over HTTPS, so that the session cookie is marked Secure. */
  COOKIE_SECURE: z
    .enum(['true', 'false'])
    .optional()
    .transform((v) => v === 'true'),
  TRUST_PROXY: z
    .enum(['true', 'false'])
    .optional()
    .transform((v) => v === 'true'),
  WEB_DIST: z.string().optional(),
  /**
   * Whether this process runs the background jobs (file imports). Turn it off on API-only
   * instances when separate worker processes run them; the queue lives in the database.
   */
  JOBS: z.enum(['on', 'off']).default('on'),
  /**
   * How often the embedded database (PGlite, which has no autovacuum of its own) is vacuumed and
   * analyzed where needed, in minutes (1: PostgreSQL's own autovacuum_naptime); 0 turns it off.
   * Not used with DATABASE_URL.
   */
  DB_MAINTENANCE_MINUTES: z.coerce.number().min(0).max(1440).default(1),
  /**
   * Memory for kept answers of reads, in megabytes (docs/decisions.md "Kept answers"): a read asked
   * again while the app's data has not changed is answered without computing it again. 0 turns it off.
   */
  KEPT_ANSWERS_MB: z.coerce.number().min(0).max(4096).default(64),
  /** Largest report file accepted for import, in megabytes. */
  IMPORT_MAX_MB: z.coerce.number().positive().max(500).default(20),
  /** Largest history file (an association's past, one long table) accepted, in megabytes. */
  HISTORY_MAX_MB: z.coerce.number().positive().max(2000).default(300),
  /** Open SMTP connections of the pooled transport that sends communications. */
  MAIL_MAX_CONNECTIONS: z.coerce.number().int().min(1).max(50).default(3),
  /** Communication mails sent per second at most (the SMTP pool's rate limit). */
  MAIL_RATE_PER_SECOND: z.coerce.number().int().min(1).max(1000).default(10),
  /** First wait before a temporarily failed delivery is tried again, in seconds; doubled each time. */
  MAIL_RETRY_BASE_SECONDS: z.coerce.number().min(0.05).max(3600).default(30),
  /** Tries of one delivery before it is given up as failed (temporary failures only). */
  MAIL_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(20).default(5),
  /**
   * A delivery whose claim was not renewed for this long (its process is gone) is claimed again,
   * in seconds; the sending process renews its claims every third of it. With PostgreSQL several
   * processes may send; the embedded database has one.
   */
  MAIL_LEASE_SECONDS: z.coerce.number().min(1).max(3600).default(30),
  /** How often waiting workflow notifications are mailed, in seconds. */
  NOTIFY_SWEEP_SECONDS: z.coerce.number().min(1).max(3600).default(60),
  /**
   * On SIGTERM or SIGINT: how long running jobs may go on before they are handed back to the
   * queue (run again by a process that has jobs on), in seconds. 8: the process is gone within
   * 10 s when no request runs longer.
   */
  SHUTDOWN_JOB_GRACE_SECONDS: z.coerce.number().min(0).max(600).default(8),
  /** On SIGTERM or SIGINT: the process exits after this many seconds at most, whatever is still running. */
  SHUTDOWN_TIMEOUT_SECONDS: z.coerce.number().min(1).max(3600).default(30),
  /** How long audit entries are kept, in months; older ones are deleted by the upkeep job (jobs/maintenance.ts). */
  AUDIT_RETENTION_MONTHS: z.coerce.number().int().min(1).max(1200).default(24),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export type Config = z.infer<typeof envSchema> & { dataDir: string; webDist: string };

/** The app's address in the links of its mails: APP_URL, or this process on localhost. */
export const appUrlOf = (config: Pick<Config, 'APP_URL' | 'PORT'>) => config.APP_URL ?? `http://localhost:${config.PORT}`;

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // An empty variable counts as unset (DATABASE_URL= in a shell or a .env file).
  const parsed = envSchema.safeParse(Object.fromEntries(Object.entries(env).filter(([, v]) => v !== '')));
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const c = parsed.data;
  if ((c.ADMIN_EMAIL && !c.ADMIN_PASSWORD) || (!c.ADMIN_EMAIL && c.ADMIN_PASSWORD)) {
    throw new Error('Invalid configuration:\n  ADMIN_EMAIL and ADMIN_PASSWORD must be set together');
  }
  const root = path.resolve(import.meta.dirname, '../..');
  return {
    ...c,
    dataDir: path.resolve(c.DATA_DIR),
    webDist: path.resolve(c.WEB_DIST ?? path.join(root, 'web/dist')),
  };
}
