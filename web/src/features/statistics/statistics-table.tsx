import { type ReactNode, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { ActionIcon, Group, NativeSelect, Paper, ScrollArea, SimpleGrid, Stack, Table, Text, Tooltip, UnstyledButton } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { flagGroupOf, type StatisticsFigures, type StatisticsKey, type StatisticsRow } from '@mss/contracts/statistics';
import { compareDecimals, formatDecimal, formatMoney, formatPercent } from '../../lib/numbers.ts';
import {
  Change,
  Confidential,
  COVERAGE_MARK,
  EstimatedMark,
  EstimatedNote,
  HiddenReason,
  Num,
  PHONE,
  RevisedMark,
  RevisedNote,
  TrendIcon,
} from '../../components/figures.tsx';

/** Which figures the table shows: the period against last year, or the year to date against last year's. */
export type StatisticsView = 'period' | 'ytd';

/** A key's label: "1001 Small cars" for a code, the title of a group, the name of anything else. */
export function keyLabel(key: StatisticsKey): string {
  if ('code' in key) return `${key.code} ${key.name}`;
  if ('title' in key) return key.title;
  return key.name;
}

interface FigureColumn {
  id: string;
  label: string;
  /** The figure, as the API sent it. */
  get: (f: StatisticsFigures) => string | null | undefined;
  kind: 'amount' | 'change' | 'share';
  /** A value (not a volume): converted when a rate applies. */
  money?: boolean;
  /** The figure's flags as the answer sends them (docs/architecture.md §8 "Flags"). */
  flags: (f: StatisticsFigures) => string;
}

/** A column's flags: its figure's, from the answer. A company's own figures are its own report: none; its share divides them by the market's. */
const flagsBy = (id: string): ((f: StatisticsFigures) => string) => {
  if (id === 'own_volume' || id === 'own_value') return () => '';
  const group = flagGroupOf(id.replace(/^own_/, ''));
  // The caller's own share is never withheld as confidential: it is withheld with the market's figure.
  if (id.startsWith('own_')) return (f) => f.flags[group].replace('c', '');
  return (f) => f.flags[group];
};

function figureColumns(t: TFunction, view: StatisticsView, withShare: boolean, withOwn: boolean): FigureColumn[] {
  const ytd = view === 'ytd';
  const columns: Omit<FigureColumn, 'flags'>[] = ytd
    ? [
        { id: 'ytd_volume', label: t('statistics.col.ytd_volume'), get: (f) => f.ytd_volume, kind: 'amount' },
        { id: 'ytd_volume_last_year', label: t('statistics.col.ytd_volume_last_year'), get: (f) => f.ytd_volume_last_year, kind: 'amount' },
        { id: 'ytd_volume_change_pct', label: t('statistics.col.change'), get: (f) => f.ytd_volume_change_pct, kind: 'change' },
        { id: 'ytd_value', label: t('statistics.col.ytd_value'), get: (f) => f.ytd_value, kind: 'amount' },
        { id: 'ytd_value_last_year', label: t('statistics.col.ytd_value_last_year'), get: (f) => f.ytd_value_last_year, kind: 'amount' },
        { id: 'ytd_value_change_pct', label: t('statistics.col.change'), get: (f) => f.ytd_value_change_pct, kind: 'change' },
      ]
    : [
        { id: 'volume', label: t('statistics.col.volume'), get: (f) => f.volume, kind: 'amount' },
        { id: 'volume_last_year', label: t('statistics.col.volume_last_year'), get: (f) => f.volume_last_year, kind: 'amount' },
        { id: 'volume_change_pct', label: t('statistics.col.change'), get: (f) => f.volume_change_pct, kind: 'change' },
        { id: 'value', label: t('statistics.col.value'), get: (f) => f.value, kind: 'amount' },
        { id: 'value_last_year', label: t('statistics.col.value_last_year'), get: (f) => f.value_last_year, kind: 'amount' },
        { id: 'value_change_pct', label: t('statistics.col.change'), get: (f) => f.value_change_pct, kind: 'change' },
      ];
  if (withShare && !ytd) {
    columns.push({ id: 'volume_share_pct', label: t('statistics.col.volume_share'), get: (f) => f.volume_share_pct, kind: 'share' });
    columns.push({ id: 'value_share_pct', label: t('statistics.col.value_share'), get: (f) => f.value_share_pct, kind: 'share' });
  }
  if (withOwn && !ytd) {
    columns.push({ id: 'own_volume', label: t('statistics.col.own_volume'), get: (f) => f.own_volume, kind: 'amount' });
    columns.push({ id: 'own_volume_share_pct', label: t('statistics.col.own_volume_share'), get: (f) => f.own_volume_share_pct, kind: 'share' });
    columns.push({ id: 'own_value', label: t('statistics.col.own_value'), get: (f) => f.own_value, kind: 'amount' });
    columns.push({ id: 'own_value_share_pct', label: t('statistics.col.own_value_share'), get: (f) => f.own_value_share_pct, kind: 'share' });
  }
  for (const c of columns) c.money = c.kind === 'amount' && c.id.includes('value');
  return columns.map((c) => ({ ...c, flags: flagsBy(c.id) }));
}

function Cell({
  column,
  figures,
  withheld,
  converted,
  breakable = false,
}: {
  column: FigureColumn;
  figures: StatisticsFigures;
  withheld: boolean;
  converted: boolean;
  breakable?: boolean;
}) {
  const value = column.get(figures);
  const flags = column.flags(figures);
  // Flagged c and without a value: withheld (the own columns are the caller's own figures, never flagged).
  if (withheld && flags.includes('c') && (value === null || value === undefined)) return <Confidential />;
  const shown = value !== null && value !== undefined;
  const mark = (
    <>
      {shown && flags.includes('r') && <RevisedMark first={firstOf(column, figures, converted)} />}
      {shown && flags.includes('e') && <EstimatedMark />}
    </>
  );
  if (column.kind === 'change')
    return (
      <>
        <Change value={value} />
        {mark}
      </>
    );
  if (column.kind === 'share')
    return (
      <span style={{ whiteSpace: 'nowrap' }}>
        {value ? formatPercent(value) : '–'}
        {mark}
      </span>
    );
  return (
    <>
      <Num value={value} money={converted && column.money} breakable={breakable} />
      {mark}
    </>
  );
}

/** A volume's or value's figure as the period's first publication showed it, written as the table writes it. */
function firstOf(column: FigureColumn, figures: StatisticsFigures, converted: boolean): string | null {
  const first = figures.first_published;
  if (!first || (column.id !== 'volume' && column.id !== 'value')) return null;
  const figure = first[column.id];
  if (figure === null) return null;
  return converted && column.money ? formatMoney(figure) : formatDecimal(figure);
}

/** The key column stays in view while the figures scroll sideways (phones). */
export const STICKY = { position: 'sticky', left: 0, zIndex: 1, background: 'var(--mantine-color-body)' } as const;

type Sort = { column: string; direction: 'asc' | 'desc' } | null;

/**
 * A breakdown (docs/architecture.md §8) as a table: one row per key, the totals in the footer. Sorting is done
 * here (the whole breakdown is one answer) by comparing the decimal strings, never as numbers.
 * `onTrend` adds a button per row that charts the row's key over time.
 */
export function StatisticsTable({
  rows,
  totals,
  view,
  keyHeader,
  withShare,
  withOwn,
  onTrend,
  trendKeyId,
  label,
  ranked = false,
  withheld = true,
  converted = false,
  coverageDiffers = false,
}: {
  rows: StatisticsRow[];
  totals: StatisticsFigures;
  view: StatisticsView;
  keyHeader: string;
  withShare: boolean;
  withOwn: boolean;
  onTrend?: (row: StatisticsRow) => void;
  trendKeyId?: number | null;
  label: string;
  /** Show each row's rank by value (the company breakdown). */
  ranked?: boolean;
  /**
   * Whether the server withheld confidential figures (`confidentiality.applied`). When it did not
   * (the market's approvers), a missing figure of a row flagged confidential is just missing.
   */
  withheld?: boolean;
  /** Values were converted into another currency: shown at 2 decimals. */
  converted?: boolean;
  /** The period's coverage differs from the one it is compared with: each change column is marked. */
  coverageDiffers?: boolean;
}) {
  const { t } = useTranslation();
  const phone = useMediaQuery(PHONE);
  const columns = figureColumns(t, view, withShare, withOwn).map((c) =>
    coverageDiffers && c.kind === 'change' ? { ...c, label: `${c.label} ${COVERAGE_MARK}` } : c,
  );
  const isOwn = (c: FigureColumn) => c.id.startsWith('own_');
  const marketColumns = columns.filter((c) => !isOwn(c));
  const ownColumns = columns.filter(isOwn);
  const [sort, setSort] = useState<Sort>(null);
  const sorted = useMemo(() => {
    if (!sort) return rows;
    const column = columns.find((c) => c.id === sort.column);
    const factor = sort.direction === 'asc' ? 1 : -1;
    const byKey = (a: StatisticsRow, b: StatisticsRow) => keyLabel(a.key).localeCompare(keyLabel(b.key), undefined, { numeric: true });
    return [...rows].sort((a, b) => {
      if (!column) return factor * byKey(a, b);
      // Withheld and missing figures last, whatever the direction.
      const x = column.get(a);
      const y = column.get(b);
      if (x == null || y == null) return x == null ? (y == null ? byKey(a, b) : 1) : -1;
      return factor * compareDecimals(x, y) || byKey(a, b);
    });
    // columns change with view; sort follows
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [rows, sort, view, withShare, withOwn]);

  const header = (id: string, text: string, align: 'left' | 'right' = 'right') => {
    const state = sort?.column === id ? sort.direction : 'none';
    return (
      <Table.Th
        key={id}
        style={{ textAlign: align, ...(id === 'key' ? STICKY : {}) }}
        aria-sort={state === 'none' ? undefined : state === 'asc' ? 'ascending' : 'descending'}
      >
        <UnstyledButton
          onClick={() =>
            setSort(
              sort?.column === id
                ? sort.direction === 'desc'
                  ? { column: id, direction: 'asc' }
                  : null
                : { column: id, direction: id === 'key' ? 'asc' : 'desc' },
            )
          }
          style={{ fontWeight: 700, fontSize: 'inherit', width: '100%', textAlign: align }}
        >
          {text}{' '}
          <Text span size="xs" c={state === 'none' ? 'dimmed' : undefined} aria-hidden>
            {state === 'asc' ? '▲' : state === 'desc' ? '▼' : '↕'}
          </Text>
        </UnstyledButton>
      </Table.Th>
    );
  };

  const ranks = useMemo(() => {
    if (!ranked) return null;
    const byValue = [...rows].filter((r) => r.value !== null).sort((a, b) => compareDecimals(b.value!, a.value!));
    return new Map(byValue.map((r, i) => [r.key.id, i + 1]));
  }, [rows, ranked]);

  const contributors = (f: StatisticsFigures): ReactNode => (f.contributors === null ? '–' : f.contributors);
  // A breakdown without rows (the total alone, or nothing approved) says "no figures" only when the total has none either.
  const totalsEmpty = columns.every((c) => c.get(totals) == null) && !totals.flags.period.includes('c');
  const flagged = (letter: string) => [...rows, totals].some((f) => columns.some((c) => c.get(f) != null && c.flags(f).includes(letter)));
  const notes = (
    <>
      {flagged('r') && <RevisedNote />}
      {flagged('e') && <EstimatedNote />}
    </>
  );

  if (phone) {
    // No headers to press on a phone: the order is picked from a list (the phone's own picker).
    const sortOptions = [
      { value: '', label: t('statistics.sort.listed') },
      { value: 'key', label: t('statistics.sort.key', { key: keyHeader }) },
      ...columns.map((c, i) => ({
        value: c.id,
        label: t('statistics.sort.highest', {
          column: c.kind === 'change' ? t('statistics.sort.change_of', { column: columns[i - 2]?.label ?? '' }) : c.label,
        }),
      })),
    ];
    const sortControl = (
      <NativeSelect
        label={t('statistics.sort.label')}
        size="sm"
        data={sortOptions}
        value={sort ? sort.column : ''}
        onChange={(event) => {
          const column = event.currentTarget.value;
          setSort(column === '' ? null : { column, direction: column === 'key' ? 'asc' : 'desc' });
        }}
      />
    );
    return (
      <>
        <StatisticsCards
          sortControl={sortControl}
          rows={sorted}
          totals={totals}
          columns={columns}
          withheld={withheld}
          converted={converted}
          totalsEmpty={totalsEmpty}
          ranks={ranks}
          label={label}
          onTrend={onTrend}
          trendKeyId={trendKeyId}
        />
        {notes}
      </>
    );
  }

  return (
    <>
      <ScrollArea type="auto" offsetScrollbars>
        <Table striped highlightOnHover withTableBorder verticalSpacing={6} aria-label={label} data-testid="statistics-table" fz="sm">
          <Table.Thead>
            <Table.Tr>
              {ranks && <Table.Th style={{ textAlign: 'right' }}>{t('statistics.col.rank')}</Table.Th>}
              {header('key', keyHeader, 'left')}
              {columns.map((c) => header(c.id, c.label))}
              <Table.Th style={{ textAlign: 'right' }}>{t('statistics.col.contributors')}</Table.Th>
              {onTrend && (
                <Table.Th>
                  <span className="visually-hidden">{t('statistics.trend.title')}</span>
                </Table.Th>
              )}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {sorted.length === 0 && totalsEmpty && (
              <Table.Tr>
                <Table.Td colSpan={columns.length + 4}>
                  <Text c="dimmed" ta="center" py="sm">
                    {t('statistics.no_figures')}
                  </Text>
                </Table.Td>
              </Table.Tr>
            )}
            {sorted.map((row) => (
              <Table.Tr key={`${row.key.id}`} data-confidential={row.flags.period.includes('c') || undefined}>
                {ranks && <Table.Td style={{ textAlign: 'right' }}>{ranks.get(row.key.id) ?? '–'}</Table.Td>}
                <Table.Td style={{ minWidth: 140, ...STICKY }}>
                  {keyLabel(row.key)}
                  {!withheld && row.hidden_reason && <HiddenReason reason={row.hidden_reason} />}
                </Table.Td>
                {withheld && row.flags.period.includes('c') && marketColumns.every((c) => c.get(row) == null) ? (
                  // Withheld: one cell says so for every market figure of the row (the own ones follow).
                  <Table.Td colSpan={marketColumns.length} style={{ textAlign: 'center' }}>
                    <Confidential />
                  </Table.Td>
                ) : (
                  marketColumns.map((c) => (
                    <Table.Td key={c.id} style={{ textAlign: 'right' }}>
                      <Cell column={c} figures={row} withheld={withheld} converted={converted} />
                    </Table.Td>
                  ))
                )}
                {ownColumns.map((c) => (
                  <Table.Td key={c.id} style={{ textAlign: 'right' }}>
                    <Cell column={c} figures={row} withheld={withheld} converted={converted} />
                  </Table.Td>
                ))}
                <Table.Td style={{ textAlign: 'right' }}>{contributors(row)}</Table.Td>
                {onTrend && (
                  <Table.Td>
                    <Tooltip label={t('statistics.trend.show_for', { name: keyLabel(row.key) })}>
                      <ActionIcon
                        variant={trendKeyId === row.key.id ? 'filled' : 'subtle'}
                        size="sm"
                        aria-label={t('statistics.trend.show_for', { name: keyLabel(row.key) })}
                        onClick={() => onTrend(row)}
                      >
                        <TrendIcon />
                      </ActionIcon>
                    </Tooltip>
                  </Table.Td>
                )}
              </Table.Tr>
            ))}
          </Table.Tbody>
          <Table.Tfoot>
            <Table.Tr style={{ fontWeight: 700 }} data-testid="statistics-totals">
              {ranks && <Table.Td />}
              <Table.Td style={STICKY}>
                {t('statistics.total')}
                {!withheld && totals.hidden_reason && <HiddenReason reason={totals.hidden_reason} />}
              </Table.Td>
              {columns.map((c) => (
                <Table.Td key={c.id} style={{ textAlign: 'right' }}>
                  <Cell column={c} figures={totals} withheld={withheld} converted={converted} />
                </Table.Td>
              ))}
              <Table.Td style={{ textAlign: 'right' }}>{contributors(totals)}</Table.Td>
              {onTrend && <Table.Td />}
            </Table.Tr>
          </Table.Tfoot>
        </Table>
      </ScrollArea>
      {notes}
    </>
  );
}

/**
 * A breakdown at phone width: one card per row (the total first), each figure under its own
 * label, a withheld row saying so in words, nothing wider than the screen.
 */
function StatisticsCards({
  sortControl,
  rows,
  totals,
  columns,
  withheld,
  converted,
  totalsEmpty,
  ranks,
  label,
  onTrend,
  trendKeyId,
}: {
  sortControl: ReactNode;
  rows: StatisticsRow[];
  totals: StatisticsFigures;
  columns: FigureColumn[];
  withheld: boolean;
  converted: boolean;
  totalsEmpty: boolean;
  ranks: Map<number, number> | null;
  label: string;
  onTrend?: (row: StatisticsRow) => void;
  trendKeyId?: number | null;
}) {
  const { t } = useTranslation();
  const figure = (c: FigureColumn, figures: StatisticsFigures) => (
    <Stack key={c.id} gap={0}>
      <Text size="xs" c="dimmed">
        {/* On its line after the volume or value, last year's needs no more words. */}
        {c.id.endsWith('_last_year') ? t('statistics.col.last_year') : c.label}
      </Text>
      <Text size="sm">
        <Cell column={c} figures={figures} withheld={withheld} converted={converted} breakable />
      </Text>
    </Stack>
  );
  const card = (title: string, figures: StatisticsFigures, key: string, row?: StatisticsRow) => {
    const hidden = withheld && figures.flags.period.includes('c') && columns.filter((c) => !c.id.startsWith('own_')).every((c) => c.get(figures) == null);
    const shown = hidden ? columns.filter((c) => c.id.startsWith('own_')) : columns;
    return (
      <Paper
        key={key}
        withBorder
        radius="md"
        p="sm"
        data-testid="statistics-card"
        data-confidential={figures.flags.period.includes('c') || undefined}
        bg={row ? undefined : 'var(--mantine-color-default-hover)'}
      >
        <Group justify="space-between" wrap="nowrap" gap="xs" align="flex-start">
          <Text fw={700} size="sm" style={{ overflowWrap: 'anywhere' }}>
            {row && ranks ? `${ranks.get(row.key.id) ?? '–'}. ` : ''}
            {title}
            {!withheld && figures.hidden_reason && <HiddenReason reason={figures.hidden_reason} />}
          </Text>
          {row && onTrend && (
            <ActionIcon
              variant={trendKeyId === row.key.id ? 'filled' : 'light'}
              size="md"
              aria-label={t('statistics.trend.show_for', { name: title })}
              onClick={() => onTrend(row)}
            >
              <TrendIcon />
            </ActionIcon>
          )}
        </Group>
        {hidden && (
          <Group gap="xs" mt={4} wrap="nowrap" align="flex-start">
            <Confidential />
            <Text size="xs" c="dimmed">
              {t('statistics.confidential_hint')}
            </Text>
          </Group>
        )}
        {shown.length > 0 && (
          <>
            {/* Volume and value each on a line: the figure, last year's and the change. */}
            <SimpleGrid cols={3} spacing="xs" verticalSpacing={4} mt={6}>
              {shown.slice(0, hidden ? 0 : 6).map((c) => figure(c, figures))}
            </SimpleGrid>
            <SimpleGrid cols={3} spacing="xs" verticalSpacing={4} mt={4}>
              {shown.slice(hidden ? 0 : 6).map((c) => figure(c, figures))}
              <Stack gap={0}>
                <Text size="xs" c="dimmed">
                  {t('statistics.col.contributors')}
                </Text>
                <Text size="sm">{figures.contributors === null ? '–' : figures.contributors}</Text>
              </Stack>
            </SimpleGrid>
          </>
        )}
      </Paper>
    );
  };
  return (
    <Stack gap="xs" aria-label={label} data-testid="statistics-cards">
      {rows.length > 1 && sortControl}
      {card(t('statistics.total'), totals, 'total')}
      {rows.length === 0 && totalsEmpty && (
        <Text c="dimmed" ta="center" py="sm">
          {t('statistics.no_figures')}
        </Text>
      )}
      {rows.map((row) => card(keyLabel(row.key), row, String(row.key.id), row))}
    </Stack>
  );
}
