import { and, desc, eq, sql } from 'drizzle-orm';
import { ORGANIZATION_SETTINGS } from '@mss/contracts/admin';
import { decimalShape, decimalUnits, normalizeDecimal } from '@mss/contracts/decimal';
import { type Locale, PreflightSeverity } from '@mss/contracts/enums';
import { type MessageKey, translate } from '@mss/contracts/messages';
import type { Preflight } from '@mss/contracts/preflight';
import type { Db, Executor } from '../../db/client.ts';
import { codes, markets, organizationSettings, periods, preflights, reportRows, reports } from '../../db/schema.ts';
import { findPreviousPeriod } from '../periods/periods.queries.ts';

interface Finding {
  severity: number;
  key: MessageKey;
  params: Record<string, string | number>;
}

export interface PreflightRow {
  code_id: number;
  code: string;
  name: string;
  /** Exact decimal strings as the database answers them ("1234.5000"). */
  volume: string | null;
  value: string | null;
}

/**
 * How far `now` is from `before`, in whole percent (half up), when it is more than `threshold`
 * percent away; null otherwise. Exact: decimal strings as integers of 10^-4 units, no float.
 */
export function deviationPercent(before: string, now: string, threshold: number): number | null {
  const a = decimalUnits(before, 4);
  const b = decimalUnits(now, 4);
  if (a === 0n) return null;
  const abs = (x: bigint) => (x < 0n ? -x : x);
  const change = abs(b - a) * 100n; // percent of |a|, times |a|
  const base = abs(a);
  const thresholdText = normalizeDecimal(String(threshold)) ?? '0';
  const thresholdScale = decimalShape(thresholdText).scale;
  // change / base > threshold  ⇔  change · 10^s > threshold · 10^s · base
  if (change * 10n ** BigInt(thresholdScale) <= decimalUnits(thresholdText, thresholdScale) * base) return null;
  return Number((change * 2n + base) / (2n * base));
}

/**
 * The checks of docs/architecture.md §5, as a pure function: an empty report is an Error; each code of the
 * previous report missing now is a Warning; a negative volume or value is a Warning; a change
 * above the threshold (percent) against the previous report is Info, saying whether it rose or
 * fell, and a Warning past WARNING_FACTOR times the threshold (a +3,370 % change is not ranked
 * with a +21 % one); a report identical to the previous one is a Warning; otherwise Success.
 * Within a severity, the larger change first.
 */
/** A change this many times the organization's deviation setting or more is a Warning, not Info. */
export const WARNING_FACTOR = 5;

/** Negative figures listed one by one, at most this many (then one finding says how many more). */
export const NEGATIVE_FINDINGS_MAX = 50;

const sameAmount = (a: string | null, b: string | null) => (a === null || b === null ? a === b : decimalUnits(a, 4) === decimalUnits(b, 4));

/** The same codes with the same volumes and values (exact decimals), in any order. */
function sameRows(current: PreflightRow[], previous: PreflightRow[]): boolean {
  if (current.length !== previous.length) return false;
  const before = new Map(previous.map((r) => [r.code_id, r]));
  return current.every((r) => {
    const b = before.get(r.code_id);
    return b !== undefined && sameAmount(r.volume, b.volume) && sameAmount(r.value, b.value);
  });
}

const isNegative = (amount: string | null) => amount !== null && decimalUnits(amount, 4) < 0n;

export function preflightFindings(
  current: PreflightRow[],
  previous: { title: string; rows: PreflightRow[] } | null,
  thresholdPercent: number,
  /** The first rows with a negative figure and how many negative figures there are in all (read from `current` when not given). */
  negatives?: { rows: PreflightRow[]; total: number },
): Finding[] {
  const findings: Finding[] = [];
  if (current.length === 0) findings.push({ severity: PreflightSeverity.Error, key: 'preflight.empty', params: {} });
  if (previous) {
    const now = new Map(current.map((r) => [r.code_id, r]));
    for (const before of previous.rows) {
      const row = now.get(before.code_id);
      if (!row) {
        findings.push({
          severity: PreflightSeverity.Warning,
          key: 'preflight.missing_code',
          params: { code: before.code, name: before.name, period: previous.title },
        });
        continue;
      }
      for (const field of ['volume', 'value'] as const) {
        const a = before[field];
        const b = row[field];
        if (a === null || b === null) continue;
        const percent = deviationPercent(a, b, thresholdPercent);
        if (percent !== null) {
          findings.push({
            severity:
              thresholdPercent > 0 && deviationPercent(a, b, thresholdPercent * WARNING_FACTOR) !== null ? PreflightSeverity.Warning : PreflightSeverity.Info,
            key: decimalUnits(b, 4) > decimalUnits(a, 4) ? 'preflight.deviation_rise' : 'preflight.deviation_fall',
            params: { code: row.code, name: row.name, field, percent, period: previous.title },
          });
        }
      }
    }
  }
  // A report equal to the previous one, code by code and figure by figure, is most often a copy
  // submitted unchanged: every change reads 0.0 %, and nothing else would say so.
  if (previous && current.length > 0 && sameRows(current, previous.rows))
    findings.push({ severity: PreflightSeverity.Warning, key: 'preflight.identical', params: { period: previous.title } });
  // Negative figures are accepted (returns, corrections) but never silently.
  const negativeRows = negatives?.rows ?? current.filter((r) => isNegative(r.volume) || isNegative(r.value));
  let listed = 0;
  let counted = 0;
  for (const row of negativeRows) {
    for (const field of ['volume', 'value'] as const) {
      const amount = row[field];
      if (!isNegative(amount)) continue;
      counted++;
      if (listed >= NEGATIVE_FINDINGS_MAX) continue;
      listed++;
      findings.push({
        severity: PreflightSeverity.Warning,
        key: 'preflight.negative',
        params: { code: row.code, name: row.name, field, amount: normalizeDecimal(amount!) ?? amount! },
      });
    }
  }
  const total = negatives?.total ?? counted;
  if (total > listed) findings.push({ severity: PreflightSeverity.Warning, key: 'preflight.negative_more', params: { count: total - listed } });
  if (findings.length === 0) findings.push({ severity: PreflightSeverity.Success, key: 'preflight.ok', params: {} });
  const size = (f: Finding) => (typeof f.params.percent === 'number' ? f.params.percent : 0);
  return findings.sort((x, y) => y.severity - x.severity || size(y) - size(x));
}

/**
 * A stand-in row list for the emptiness check: one placeholder when the report has rows. The row
 * set is looked up first and its rows through their primary key: as a join under `limit 1` the
 * planner scanned every report's rows for the first match (47 ms per import with 500,000 rows on
 * PGlite, a third of its database thread on a deadline: docs/performance.md "Deadline day").
 */
async function reportHasRows(db: Executor, reportId: number): Promise<PreflightRow[]> {
  const [row] = await db
    .select({ one: sql<number>`1` })
    .from(reportRows)
    .where(eq(reportRows.row_set_id, sql`(select ${reports.row_set_id} from ${reports} where ${reports.id} = ${reportId})`))
    .limit(1);
  return row ? [{ code_id: 0, code: '', name: '', volume: null, value: null }] : [];
}

/** A report's rows by code; `negativeOnly`: only those with a negative figure (at most one more than are listed). */
export async function loadReportRows(db: Executor, reportId: number, options: { negativeOnly?: boolean } = {}): Promise<PreflightRow[]> {
  const query = db
    .select({ code_id: reportRows.code_id, code: codes.code, name: codes.name, volume: reportRows.volume, value: reportRows.value })
    .from(reportRows)
    .innerJoin(reports, eq(reports.row_set_id, reportRows.row_set_id))
    .innerJoin(codes, eq(codes.id, reportRows.code_id))
    .where(and(eq(reports.id, reportId), options.negativeOnly ? sql`(${reportRows.volume} < 0 or ${reportRows.value} < 0)` : undefined))
    .orderBy(codes.code);
  return options.negativeOnly ? query.limit(NEGATIVE_FINDINGS_MAX) : query;
}

/** The first rows with a negative figure, and how many negative figures the report has. */
async function loadNegatives(db: Executor, reportId: number): Promise<{ rows: PreflightRow[]; total: number }> {
  const [counted] = (
    await db.execute<{ total: number }>(sql`
      select ((count(*) filter (where rr.volume < 0)) + (count(*) filter (where rr.value < 0)))::int as total
      from ${reportRows} rr join ${reports} r on r.row_set_id = rr.row_set_id where r.id = ${reportId}`)
  ).rows;
  const total = counted?.total ?? 0;
  return { rows: total ? await loadReportRows(db, reportId, { negativeOnly: true }) : [], total };
}

/** The same company's report in the previous period of the market, if there is one. */
export async function findPreviousReport(db: Executor, reportId: number): Promise<{ periodTitle: string | null; reportId: number | null }> {
  const [report] = await db.select({ period_id: reports.period_id, company_id: reports.company_id }).from(reports).where(eq(reports.id, reportId));
  if (!report) return { periodTitle: null, reportId: null };
  const previous = await findPreviousPeriod(db, report.period_id);
  if (!previous) return { periodTitle: null, reportId: null };
  const [prev] = await db
    .select({ id: reports.id })
    .from(reports)
    .where(and(eq(reports.period_id, previous.id), eq(reports.company_id, report.company_id)));
  return { periodTitle: previous.title, reportId: prev?.id ?? null };
}

export async function deviationThreshold(db: Executor, reportId: number): Promise<number> {
  const [row] = await db
    .select({ value: organizationSettings.value })
    .from(reports)
    .innerJoin(periods, eq(periods.id, reports.period_id))
    .innerJoin(markets, eq(markets.id, periods.market_id))
    .innerJoin(
      organizationSettings,
      and(eq(organizationSettings.organization_id, markets.organization_id), eq(organizationSettings.key, 'deviation_percentage')),
    )
    .where(eq(reports.id, reportId));
  const value = row ? Number(row.value) : NaN;
  return Number.isFinite(value) ? value : ORGANIZATION_SETTINGS.deviation_percentage.default;
}

/** Findings are stored as message keys with their parameters, and rendered in the reader's language. */
function render(findings: Finding[], createdAt: Date, locale?: Locale): Preflight {
  return {
    severity: Math.max(...findings.map((f) => f.severity)),
    results: findings.map((f) => {
      // The figure a finding names ("volume", "value") is a word of the reader's language.
      const { field, ...params } = f.params;
      return { ...f, message: translate(f.key, params, locale, field === undefined ? {} : { field: String(field) }) };
    }),
    created_at: createdAt.toISOString(),
  };
}

/**
 * Runs the preflight of a report and stores the result. `noNegatives`: the caller wrote the rows
 * and saw no negative figure among them (an import), so they are not looked for again.
 */
export async function runPreflight(db: Executor, reportId: number, locale?: Locale, options: { noNegatives?: boolean } = {}): Promise<Preflight> {
  const previous = await findPreviousReport(db, reportId);
  // Without a previous report only emptiness is checked: no need to load the rows.
  const [current, threshold] = previous.reportId
    ? await Promise.all([loadReportRows(db, reportId), deviationThreshold(db, reportId)])
    : [await reportHasRows(db, reportId), 0];
  const previousRows = previous.reportId ? await loadReportRows(db, previous.reportId) : null;
  // Without the rows loaded, the negative ones are found by the database.
  const negatives = previous.reportId ? undefined : options.noNegatives ? { rows: [], total: 0 } : await loadNegatives(db, reportId);
  const findings = preflightFindings(
    current,
    previousRows && previous.periodTitle ? { title: previous.periodTitle, rows: previousRows } : null,
    threshold,
    negatives,
  );
  const severity = Math.max(...findings.map((f) => f.severity));
  const [stored] = await db.insert(preflights).values({ report_id: reportId, severity, results: findings }).returning({ created_at: preflights.created_at });
  return render(findings, stored!.created_at, locale);
}

export async function latestPreflight(db: Db, reportId: number, locale?: Locale): Promise<Preflight | null> {
  const [row] = await db.select().from(preflights).where(eq(preflights.report_id, reportId)).orderBy(desc(preflights.id)).limit(1);
  return row ? render(row.results as Finding[], row.created_at, locale) : null;
}
