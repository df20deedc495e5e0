import { PassThrough } from 'node:stream';
import type { FastifyReply } from 'fastify';
import { contentDisposition } from '../../../lib/content-disposition.ts';
import type { Locale } from '@mss/contracts/enums';
import type { MessageParams } from '@mss/contracts/messages';
import { csvDocument, csvText } from '../../../lib/csv/writer.ts';
import { type SheetTextKey, sheetText } from './statistics.sheet-texts.ts';
import type {
  ClusterStatistics,
  CompanyStatistics,
  Coverage,
  MarketStatistics,
  StatisticsKey,
  StatisticsRate,
  TrendStatistics,
} from '@mss/contracts/statistics';
import { coverageDiffers, type FigureFlags, flagGroupOf, type HiddenReason, type TrendBreak } from '@mss/contracts/statistics';
import { XLSX_CONTENT_TYPE, type XlsxCellInput, writeXlsx } from '../../../lib/xlsx-writer/index.ts';
import { FIGURE_FIELDS, OWN_FIELDS } from '../disclosure/statistics.confidentiality.ts';

/*
 * The statistics tables as downloads (docs/decisions.md "Downloads"): the same rows and figures as the
 * JSON answer (confidential cells already withheld there, so nothing more can leak here).
 * - xlsx: a header block (market or cluster, period, currency, rate, coverage, and a note when
 *   figures are confidential or provisional), then the table with a bold, frozen header row and
 *   an autofilter; figures are number cells written from the decimal strings, with formats
 *   "#,##0.0000" (figures), "0.0" (percentages) and "0" (counts).
 * - csv: UTF-8 with a byte-order mark, the same header block, then the table (comma separated,
 *   RFC 4180 quoting, figures as plain decimals), for tools that read a plain table.
 */

type Kind = 'figure' | 'percent' | 'count' | 'text';
interface Column {
  title: string;
  kind: Kind;
  get: (row: Record<string, unknown>) => unknown;
}
export interface Table {
  name: string;
  preamble: [string, string][];
  columns: Column[];
  rows: Record<string, unknown>[];
}

const kindOf = (field: string): Kind => (field.endsWith('_pct') ? 'percent' : 'figure');

function t(locale: Locale, key: string, params?: MessageParams) {
  return sheetText(locale, key as SheetTextKey, params);
}

function keyColumns(locale: Locale, by: string): Column[] {
  if (by === 'code')
    return [
      { title: t(locale, 'code'), kind: 'text', get: (r) => (r.key as { code?: string } | undefined)?.code ?? t(locale, 'total') },
      { title: t(locale, 'name'), kind: 'text', get: (r) => (r.key as { name?: string } | undefined)?.name ?? '' },
    ];
  return [
    {
      title: t(locale, 'name'),
      kind: 'text',
      get: (r) => {
        const key = r.key as (StatisticsKey & { title?: string; name?: string }) | undefined;
        return key ? (key.title ?? key.name ?? '') : t(locale, 'total');
      },
    },
  ];
}

function figureColumns(
  locale: Locale,
  fields: readonly string[],
  prefix = '',
  get?: (r: Record<string, unknown>) => Record<string, unknown> | undefined,
): Column[] {
  return fields.map((field) => ({ title: `${prefix}${t(locale, field)}`, kind: kindOf(field), get: (r) => (get ? get(r)?.[field] : r[field]) }));
}

/** Each figure followed by its flags (as Eurostat's downloads have them); a company's own figures have none. */
function flaggedColumns(locale: Locale, fields: readonly string[]): Column[] {
  return fields.flatMap((field) => {
    const [figure] = figureColumns(locale, [field]);
    if (field.startsWith('own_')) return [figure!];
    const group = flagGroupOf(field);
    return [
      figure!,
      {
        title: t(locale, 'flags_of', { figure: figure!.title }),
        kind: 'text' as const,
        get: (r: Record<string, unknown>) => (r.flags as Partial<FigureFlags> | undefined)?.[group] ?? '',
      },
    ];
  });
}

/** Why a row is confidential (the market's approvers' downloads), when any is. */
const reasonColumns = (locale: Locale, rows: readonly Record<string, unknown>[]): Column[] =>
  rows.some((r) => r.hidden_reason)
    ? [
        {
          title: t(locale, 'hidden_reason'),
          kind: 'text',
          get: (r) => (r.hidden_reason ? t(locale, `reason_${r.hidden_reason as HiddenReason}`) : ''),
        },
      ]
    : [];

/** The notes on flags and on comparisons that are not like with like. */
function flagNotes(locale: Locale, rows: readonly Record<string, unknown>[], comparison?: MarketStatistics['comparison'], year?: string): [string, string][] {
  const out: [string, string][] = [];
  if (rows.some((r) => Object.values((r.flags as Record<string, string> | undefined) ?? {}).some((f) => f !== '')))
    out.push([t(locale, 'note'), t(locale, 'note_flags')]);
  if (comparison?.last_year_break === 'missing') out.push([t(locale, 'note'), t(locale, 'note_last_year_missing')]);
  if (comparison?.last_year_break === 'unpublished') out.push([t(locale, 'note'), t(locale, 'note_last_year_unpublished')]);
  const ytd = comparison?.ytd_break;
  if (ytd && year) {
    const lastYear = String(Number(year) - 1);
    out.push([
      t(locale, 'note'),
      ytd.matching < ytd.months
        ? t(locale, 'note_ytd_break', { year: lastYear, matching: ytd.matching, months: ytd.months })
        : t(locale, 'note_ytd_other_months', { year: lastYear }),
    ]);
  }
  return out;
}

/** Which figures of a row hold an estimate for a missing report: its flags, and a cluster row's markets (by ISO code). */
const ESTIMATED_FLAGS = [
  ['estimated', 'estimated_period'],
  ['estimated_last_year', 'estimated_last_year'],
  ['ytd_estimated', 'estimated_ytd'],
  ['ytd_estimated_last_year', 'estimated_ytd_last_year'],
] as const;
const estimatedParts = (locale: Locale, r: Record<string, unknown>, markets: ReadonlyMap<number, string> = new Map()) => [
  ...ESTIMATED_FLAGS.filter(([flag]) => r[flag] === true).map(([, text]) => t(locale, text)),
  ...((r.markets as { market_id: number; estimated: boolean }[] | undefined) ?? []).filter((m) => m.estimated).map((m) => markets.get(m.market_id) ?? ''),
];
const anyEstimated = (rows: readonly Record<string, unknown>[]) => rows.some((r) => estimatedParts('en-US', r).length > 0);

const confidentialColumns = (locale: Locale, markets?: ReadonlyMap<number, string>): Column[] => [
  { title: t(locale, 'contributors'), kind: 'count', get: (r) => r.contributors },
  { title: t(locale, 'confidential'), kind: 'text', get: (r) => (r.confidential ? t(locale, 'yes') : '') },
  { title: t(locale, 'estimated'), kind: 'text', get: (r) => estimatedParts(locale, r, markets).join(', ') },
];

function rateText(locale: Locale, rate: StatisticsRate | null) {
  return rate ? t(locale, 'rate_value', { rate: rate.rate, from: rate.from, to: rate.to, valid_from: rate.valid_from }) : t(locale, 'no_rate');
}
const coverageText = (locale: Locale, c: Coverage) => t(locale, 'coverage_value', { approved: c.approved, expected: c.expected });

function notes(locale: Locale, confidential: boolean, provisional: boolean, coverageDiffer = false, estimated = false): [string, string][] {
  const out: [string, string][] = [];
  if (confidential) out.push([t(locale, 'note'), t(locale, 'note_confidential')]);
  if (estimated) out.push([t(locale, 'note'), t(locale, 'note_estimated')]);
  if (provisional) out.push([t(locale, 'note'), t(locale, 'note_provisional')]);
  if (coverageDiffer) out.push([t(locale, 'note'), t(locale, 'note_coverage_differs')]);
  return out;
}

/**
 * The end of a market or company answer's header block: its coverage, last year's beside it when
 * there is a last year, and the notes (confidential, provisional, coverage that differs).
 */
function comparedPreamble(
  locale: Locale,
  s: Pick<MarketStatistics, 'comparison' | 'coverage' | 'confidentiality' | 'provisional' | 'period'>,
  rows: Record<string, unknown>[],
): [string, string][] {
  const { last_year, last_year_coverage } = s.comparison;
  return [
    [t(locale, 'coverage'), coverageText(locale, s.coverage)],
    ...(last_year && last_year_coverage
      ? [[t(locale, 'coverage_last_year', { period: last_year.title }), coverageText(locale, last_year_coverage)] as [string, string]]
      : []),
    ...notes(
      locale,
      s.confidentiality.applied && rows.some((r) => r.confidential),
      s.provisional,
      coverageDiffers(s.coverage, last_year_coverage),
      anyEstimated(rows),
    ),
    ...flagNotes(locale, rows, s.comparison, s.period.title.slice(0, 4)),
  ];
}

export function marketTable(s: MarketStatistics, locale: Locale): Table {
  const own = s.rows.some((r) => r.own_volume !== undefined) || s.totals.own_volume !== undefined;
  const rows: Record<string, unknown>[] = [...s.rows, s.totals];
  return {
    name: `${s.market.iso_code} ${s.period.title} ${s.by}`,
    preamble: [
      [t(locale, 'market'), s.market.international_name],
      [t(locale, 'period'), s.period.title],
      [t(locale, 'currency'), s.currency],
      [t(locale, 'rate'), rateText(locale, s.rate)],
      ...comparedPreamble(locale, s, rows),
      ...(s.shares_overlap ? [[t(locale, 'note'), t(locale, 'note_shares_overlap')] as [string, string]] : []),
    ],
    columns: [
      ...keyColumns(locale, s.by),
      ...flaggedColumns(locale, FIGURE_FIELDS),
      ...(own ? figureColumns(locale, OWN_FIELDS) : []),
      ...confidentialColumns(locale),
      ...reasonColumns(locale, rows),
    ],
    rows,
  };
}

export function clusterTable(s: ClusterStatistics, locale: Locale): Table {
  const fields = FIGURE_FIELDS;
  const perMarket =
    s.by === 'market'
      ? []
      : s.markets.flatMap((m) =>
          figureColumns(locale, ['volume', 'value'], `${m.market.iso_code} `, (r) =>
            (r.markets as { market_id: number }[]).find((x) => x.market_id === m.market.id),
          ),
        );
  const rows: Record<string, unknown>[] = [...s.rows, s.totals];
  return {
    name: `${s.cluster.name} ${s.month} ${s.by}`,
    preamble: [
      [t(locale, 'cluster'), s.cluster.name],
      [t(locale, 'period'), s.month],
      [t(locale, 'currency'), s.currency],
      ...s.markets.map((m) => [`${t(locale, 'rate')} ${m.market.iso_code}`, rateText(locale, m.rate)] as [string, string]),
      [t(locale, 'coverage'), coverageText(locale, s.coverage)],
      ...s.markets.flatMap((m) =>
        m.last_year && m.last_year_coverage
          ? [
              [`${t(locale, 'coverage_last_year', { period: m.last_year.title })} ${m.market.iso_code}`, coverageText(locale, m.last_year_coverage)] as [
                string,
                string,
              ],
            ]
          : [],
      ),
      ...notes(
        locale,
        s.confidentiality.applied && rows.some((r) => r.confidential),
        s.provisional,
        s.markets.some((m) => coverageDiffers(m.coverage, m.last_year_coverage)),
        anyEstimated(rows),
      ),
      ...(s.markets.some((m) => !m.last_year) && s.markets.some((m) => m.last_year)
        ? [
            [
              t(locale, 'note'),
              t(locale, 'note_cluster_no_last_year', {
                markets: s.markets
                  .filter((m) => !m.last_year)
                  .map((m) => m.market.iso_code)
                  .join(', '),
              }),
            ] as [string, string],
          ]
        : []),
      ...flagNotes(locale, rows),
      ...(s.absent.length
        ? [
            [
              t(locale, 'note'),
              t(locale, 'note_cluster_absent', {
                markets: s.absent
                  .map((a) => t(locale, a.state === 'unpublished' ? 'absent_unpublished' : 'absent_no_period', { market: a.market.international_name }))
                  .join(', '),
              }),
            ] as [string, string],
          ]
        : []),
      ...(s.shares_overlap ? [[t(locale, 'note'), t(locale, 'note_shares_overlap')] as [string, string]] : []),
    ],
    columns: [
      ...keyColumns(locale, s.by),
      ...flaggedColumns(locale, fields),
      ...perMarket,
      ...confidentialColumns(locale, new Map(s.markets.map((m) => [m.market.id, m.market.iso_code]))),
      ...reasonColumns(locale, rows),
    ],
    rows,
  };
}

export function trendTable(s: TrendStatistics, locale: Locale): Table {
  const own = s.points.some((p) => p.own_volume !== undefined);
  const fields = ['volume', 'value', 'volume_last_year', 'value_last_year', 'volume_change_pct', 'value_change_pct'];
  const key = s.key as (StatisticsKey & { title?: string; name?: string; code?: string }) | null;
  return {
    name: `${s.market?.iso_code ?? s.cluster?.name ?? ''} trend`,
    preamble: [
      s.market ? [t(locale, 'market'), s.market.international_name] : [t(locale, 'cluster'), s.cluster?.name ?? ''],
      [t(locale, 'key'), key ? [key.code, key.title ?? key.name].filter(Boolean).join(' ') : t(locale, 'total')],
      [t(locale, 'currency'), s.currency],
      ...notes(
        locale,
        s.confidentiality.applied && s.points.some((p) => p.confidential),
        s.points.some((p) => p.provisional),
        false,
        anyEstimated(s.points),
      ),
      ...flagNotes(locale, s.points),
    ],
    columns: [
      { title: t(locale, 'period'), kind: 'text', get: (r) => (r.period as { title: string }).title },
      ...flaggedColumns(locale, fields),
      ...(own ? figureColumns(locale, OWN_FIELDS) : []),
      { title: t(locale, 'rate'), kind: 'text', get: (r) => (r.rate as StatisticsRate | null)?.rate ?? '' },
      { title: t(locale, 'coverage'), kind: 'text', get: (r) => coverageText(locale, r.coverage as Coverage) },
      {
        title: t(locale, 'coverage_last_year_column'),
        kind: 'text',
        get: (r) => (r.last_year_coverage ? coverageText(locale, r.last_year_coverage as Coverage) : ''),
      },
      {
        title: t(locale, 'breaks'),
        kind: 'text',
        get: (r) => (r.breaks as TrendBreak[]).map((b) => t(locale, `break_${b}`)).join(', '),
      },
      ...confidentialColumns(locale),
      ...reasonColumns(locale, s.points),
    ],
    rows: s.points,
  };
}

export function companyTable(s: CompanyStatistics, locale: Locale): Table {
  const fields = [
    'own_volume',
    'own_value',
    'own_volume_last_year',
    'own_value_last_year',
    'own_volume_change_pct',
    'own_value_change_pct',
    'volume',
    'value',
    'volume_last_year',
    'value_last_year',
    'volume_change_pct',
    'value_change_pct',
    'own_volume_share_pct',
    'own_value_share_pct',
  ];
  const rows: Record<string, unknown>[] = [...s.rows, s.totals];
  return {
    name: `${s.company.name} ${s.market.iso_code} ${s.period.title}`,
    preamble: [
      [t(locale, 'company'), s.company.name],
      [t(locale, 'market'), s.market.international_name],
      [t(locale, 'period'), s.period.title],
      [t(locale, 'currency'), s.currency],
      [t(locale, 'rate'), rateText(locale, s.rate)],
      ...comparedPreamble(locale, s, rows),
    ],
    columns: [...keyColumns(locale, 'code'), ...flaggedColumns(locale, fields), ...confidentialColumns(locale), ...reasonColumns(locale, rows)],
    rows,
  };
}

function cell(column: Column, row: Record<string, unknown>): XlsxCellInput {
  const v = column.get(row);
  if (v === null || v === undefined || v === '') return null;
  if (column.kind === 'text') return String(v);
  if (column.kind === 'count') return { decimal: String(v), format: 'count' };
  return { decimal: String(v), format: column.kind };
}

export async function tableXlsx(table: Table): Promise<Buffer> {
  const chunks: Buffer[] = [];
  const sink = new PassThrough();
  sink.on('data', (c: Buffer) => chunks.push(c));
  await writeXlsx(
    sink,
    table.rows.map((row) => table.columns.map((c) => cell(c, row))),
    {
      sheetName: 'Statistics',
      preamble: [...table.preamble.map(([k, v]) => [k, v]), []],
      header: table.columns.map((c) => c.title),
      autoFilter: true,
      columnWidths: table.columns.map((c) => (c.kind === 'text' ? 30 : 16)),
    },
  );
  return Buffer.concat(chunks);
}

/** A decimal string without needless trailing zeros: "1250.5000" is 1250.5, "100.0000" is 100. */
const plainDecimal = (v: unknown) => (typeof v === 'string' && /^-?\d+\.\d*$/.test(v) ? v.replace(/\.?0+$/, '') : v);

/**
 * The csv: UTF-8 with a byte-order mark (so that Excel and LibreOffice read "Skåne" and "50–99" as
 * they are), the same header block as the xlsx (name and value a line, then an empty line), then
 * the table, RFC 4180 quoted, comma separated, figures as plain decimals.
 */
export function tableCsv(table: Table): string {
  const records: unknown[][] = table.preamble.map(([name, value]) => [csvText(name), csvText(value)]);
  if (records.length) records.push([]);
  records.push(table.columns.map((c) => c.title));
  for (const row of table.rows) records.push(table.columns.map((c) => (c.kind === 'text' ? csvText(c.get(row)) : plainDecimal(c.get(row)))));
  return csvDocument(records);
}

/** A table as a csv or xlsx download named `fileName` (without its extension). */
export async function sendTable(reply: FastifyReply, format: 'csv' | 'xlsx', sheet: Table, fileName = sheet.name) {
  reply.header('Content-Disposition', contentDisposition(`${fileName}.${format}`));
  if (format === 'csv') return reply.header('Content-Type', 'text/csv; charset=utf-8').send(tableCsv(sheet));
  return reply.header('Content-Type', XLSX_CONTENT_TYPE).send(await tableXlsx(sheet));
}
