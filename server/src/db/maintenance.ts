import type pg from 'pg';

/**
 * Autovacuum for the embedded database. PGlite runs PostgreSQL as a single process: there is no
 * autovacuum launcher (the setting says "on", but nothing ever runs; checked: 199,000 dead rows
 * were still there after 70 s). Without it, rows deleted or replaced (a re-imported report
 * replaces a whole row set) are never reclaimed and the planner's statistics are never refreshed.
 * This does what autovacuum would, with its default thresholds, for the tables that need it.
 * A PostgreSQL server has its own autovacuum and does not need this.
 */

/** PostgreSQL's defaults: autovacuum_vacuum_threshold/scale_factor, autovacuum_analyze_threshold/scale_factor. */
const VACUUM_THRESHOLD = 50;
const VACUUM_SCALE = 0.2;
const ANALYZE_THRESHOLD = 50;
const ANALYZE_SCALE = 0.1;

export interface MaintenanceRun {
  vacuumed: string[];
  analyzed: string[];
}

/** Vacuums (and analyzes) the tables with enough dead rows, and analyzes those with enough changes. */
export async function vacuumWhereNeeded(pool: pg.Pool): Promise<MaintenanceRun> {
  const { rows } = await pool.query<{ schemaname: string; relname: string; vacuum: boolean; analyze: boolean }>(
    `select schemaname, relname,
            n_dead_tup > $1::float8 + $2::float8 * n_live_tup as vacuum,
            n_mod_since_analyze > $3::float8 + $4::float8 * n_live_tup as analyze
       from pg_stat_user_tables
      where n_dead_tup > $1::float8 + $2::float8 * n_live_tup or n_mod_since_analyze > $3::float8 + $4::float8 * n_live_tup
      order by n_dead_tup desc`,
    [VACUUM_THRESHOLD, VACUUM_SCALE, ANALYZE_THRESHOLD, ANALYZE_SCALE],
  );
  const run: MaintenanceRun = { vacuumed: [], analyzed: [] };
  for (const table of rows) {
    const name = `"${table.schemaname.replace(/"/g, '""')}"."${table.relname.replace(/"/g, '""')}"`;
    if (table.vacuum) {
      await pool.query(`vacuum (analyze) ${name}`);
      run.vacuumed.push(table.relname);
    } else {
      await pool.query(`analyze ${name}`);
      run.analyzed.push(table.relname);
    }
  }
  return run;
}

/**
 * Runs `vacuumWhereNeeded` every `intervalMs` (not overlapping itself); returns a stop function.
 * Failures are logged and tried again next time.
 */
export function startEmbeddedMaintenance(
  pool: pg.Pool,
  log: { info(obj: object, msg: string): void; error(obj: object, msg: string): void },
  intervalMs: number,
): () => Promise<void> {
  let running: Promise<void> | null = null;
  const tick = () => {
    if (running) return;
    running = vacuumWhereNeeded(pool)
      .then((run) => {
        if (run.vacuumed.length || run.analyzed.length) log.info(run, 'embedded database maintenance');
      })
      .catch((error: unknown) => log.error({ err: error }, 'embedded database maintenance failed'))
      .finally(() => {
        running = null;
      });
  };
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
