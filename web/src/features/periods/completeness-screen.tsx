import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { Anchor, Badge, Button, Group, Paper, Progress, Select, SimpleGrid, Stack, Table, Text, TextInput } from '@mantine/core';
import { COMPLETENESS_STATES, type Completeness, type CompletenessRow, type CompletenessState } from '@mss/contracts/periods';
import type { ScreenProps } from '../../lib/screen.ts';
import { AdminPage } from '../../components/page.tsx';
import { QueryState } from '../../components/query-state.tsx';
import { PeriodStatusBadge } from './components/period-status-badge.tsx';
import { ListPager, pageOf, useListSearch } from '../../components/list-pager.tsx';
import { formatDate, today } from '../../lib/dates.ts';
import { useMarketsWith } from '../../lib/markets.ts';
import { type CompletenessFilter, completenessDownload, completenessQueries } from './api/periods.ts';

/** Rows on one page of the overview: two years of one market, or a month of 24 markets. */
const ROWS_PER_PAGE = 24;
const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;

/**
 * /completeness — who still owes what: per market and opened period of a year (or any months),
 * the companies expected to report, submitted, waiting for approval, approved and missing, overdue
 * marked; each row opens the period's companies (Reporting companies). For every market where the
 * user manages periods or approves reports: the organization's for an administrator, the
 * cluster's for a cluster administrator. The filters and the page live in the URL.
 */
export function CompletenessScreen({ title }: ScreenProps) {
  const { t } = useTranslation();
  const { search, set, setAll } = useListSearch();
  const approving = useMarketsWith('approve-reports');
  const managing = useMarketsWith('manage-periods');
  const markets = [...new Map([...approving.markets, ...managing.markets].map((m) => [m.id, m])).values()].sort((a, b) =>
    a.international_name.localeCompare(b.international_name),
  );
  const thisYear = today().slice(0, 4);
  const from = MONTH.test(search.get('from') ?? '') ? search.get('from')! : `${thisYear}-01`;
  const to = MONTH.test(search.get('to') ?? '') ? search.get('to')! : `${from.slice(0, 4)}-12`;
  const marketParam = Number(search.get('market'));
  const marketId = markets.some((m) => m.id === marketParam) ? marketParam : undefined;
  const status = (COMPLETENESS_STATES as readonly string[]).includes(search.get('status') ?? '') ? (search.get('status') as CompletenessState) : 'all';
  const filter: CompletenessFilter = { from, to, market_id: marketId, status };
  const query = useQuery({ ...completenessQueries.completeness(filter), meta: { handlesErrors: true } });
  const wholeYear = from.endsWith('-01') && to === `${from.slice(0, 4)}-12`;
  const years = Array.from({ length: 6 }, (_, i) => String(Number(thisYear) + 1 - i));
  const setRange = (nextFrom: string, nextTo: string) => setAll({ from: nextFrom, to: nextTo });
  return (
    <AdminPage title={title}>
      <Stack gap="md">
        <Text size="sm" c="dimmed" maw={820}>
          {t('completeness.explained')}
        </Text>
        <Group align="flex-end" wrap="wrap" gap="sm" data-testid="completeness-filters">
          <Select
            label={t('completeness.year')}
            data={[...years.map((y) => ({ value: y, label: y })), ...(wholeYear ? [] : [{ value: 'other', label: t('completeness.other_range') }])]}
            value={wholeYear ? from.slice(0, 4) : 'other'}
            onChange={(y) => y && y !== 'other' && setRange(`${y}-01`, `${y}-12`)}
            allowDeselect={false}
            w={{ base: '100%', xs: 140 }}
            data-testid="completeness-year"
          />
          {/* A month picked after the other end moves that end along, so the range never runs backwards. */}
          <MonthField label={t('completeness.from')} value={from} onPick={(m) => setRange(m, m > to ? m : to)} testId="completeness-from" />
          <MonthField label={t('completeness.to')} value={to} onPick={(m) => setRange(m < from ? m : from, m)} testId="completeness-to" />
          {markets.length > 1 && (
            <Select
              label={t('reporting.market')}
              data={[
                { value: 'all', label: t('list.all_markets', { count: markets.length }) },
                ...markets.map((m) => ({ value: String(m.id), label: m.international_name })),
              ]}
              value={marketId ? String(marketId) : 'all'}
              onChange={(v) => set('market', v)}
              searchable
              allowDeselect={false}
              w={{ base: '100%', xs: 240 }}
              data-testid="completeness-market"
            />
          )}
          {query.data && (
            <Select
              label={t('completeness.show')}
              data={COMPLETENESS_STATES.map((s) => ({ value: s, label: t(`completeness.state.${s}`, { count: query.data.states[s] }) }))}
              value={status}
              onChange={(v) => set('status', v)}
              allowDeselect={false}
              w={{ base: '100%', xs: 260 }}
              data-testid="completeness-status"
            />
          )}
        </Group>
        <QueryState query={query}>
          {(data) => {
            const { rows, page } = pageOf(data.rows, Number(search.get('page') ?? 1) || 1, ROWS_PER_PAGE);
            return (
              <Stack gap="sm">
                <Summary data={data} />
                <Group gap="xs">
                  <Button component="a" href={completenessDownload(filter, 'xlsx')} size="xs" variant="light" download data-testid="completeness-xlsx">
                    {t('completeness.download_xlsx')}
                  </Button>
                  <Button component="a" href={completenessDownload(filter, 'csv')} size="xs" variant="default" download data-testid="completeness-csv">
                    {t('completeness.download_csv')}
                  </Button>
                </Group>
                {data.totals.periods === 0 ? (
                  <Text c="dimmed">{t('completeness.none')}</Text>
                ) : data.rows.length === 0 ? (
                  <Text c="dimmed">{t('list.no_match')}</Text>
                ) : (
                  <CompletenessTable rows={rows} caption={title} />
                )}
                <ListPager total={data.rows.length} page={page} size={ROWS_PER_PAGE} onPage={(n) => set('page', String(n))} />
              </Stack>
            );
          }}
        </QueryState>
      </Stack>
    </AdminPage>
  );
}

/** A month (YYYY-MM) of the range, in the browser's month picker; half a row on a phone. */
function MonthField({ label, value, onPick, testId }: { label: string; value: string; onPick: (month: string) => void; testId: string }) {
  return (
    <TextInput
      type="month"
      label={label}
      value={value}
      onChange={(e) => MONTH.test(e.currentTarget.value) && onPick(e.currentTarget.value)}
      w={{ base: 'calc(50% - var(--mantine-spacing-sm) / 2)', xs: 170 }}
      data-testid={testId}
    />
  );
}

/** The range's sums: what the whole table adds up to, whatever the filter shows. */
function Summary({ data }: { data: Completeness }) {
  const { t } = useTranslation();
  const figures: [string, number, string?][] = [
    [t('completeness.expected'), data.totals.expected],
    [t('completeness.submitted'), data.totals.submitted],
    [t('completeness.approved'), data.totals.approved],
    [t('completeness.missing'), data.totals.missing, data.totals.missing > 0 ? 'orange.8' : undefined],
    [t('completeness.overdue_periods'), data.totals.overdue, data.totals.overdue > 0 ? 'red.8' : undefined],
  ];
  return (
    <Stack gap={4}>
      <Text size="sm" fw={600} data-testid="completeness-summary">
        {t('completeness.summary', { periods: data.totals.periods, from: data.from, to: data.to })}
      </Text>
      <SimpleGrid cols={{ base: 2, xs: 3, md: 5 }} spacing="xs">
        {figures.map(([label, value, color]) => (
          <Paper key={label} withBorder p="xs" radius="sm">
            <Text size="xs" c="dimmed">
              {label}
            </Text>
            <Text size="xl" fw={700} c={color}>
              {value}
            </Text>
          </Paper>
        ))}
      </SimpleGrid>
    </Stack>
  );
}

function CompletenessTable({ rows, caption }: { rows: CompletenessRow[]; caption: string }) {
  const { t } = useTranslation();
  return (
    <Table.ScrollContainer minWidth={760}>
      {/* On a phone each row is a card (stacked-tables.css). */}
      <Table striped withTableBorder aria-label={caption} data-stack data-testid="completeness-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('reporting.period.title')}</Table.Th>
            <Table.Th>{t('reporting.market')}</Table.Th>
            <Table.Th>{t('reporting.period.deadline')}</Table.Th>
            <Table.Th>{t('reporting.status')}</Table.Th>
            <Table.Th ta="right">{t('completeness.expected')}</Table.Th>
            <Table.Th ta="right">{t('completeness.submitted')}</Table.Th>
            <Table.Th ta="right">{t('completeness.waiting')}</Table.Th>
            <Table.Th ta="right">{t('completeness.approved')}</Table.Th>
            <Table.Th ta="right">{t('completeness.missing')}</Table.Th>
            <Table.Th />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => {
            const companies = `/reporting-companies/${row.market.iso_code}/${row.market.id}?period=${row.period.uuid}`;
            return (
              <Table.Tr key={row.period.uuid}>
                <Table.Td fw={600}>
                  <Anchor component={Link} to={companies}>
                    {row.period.title}
                  </Anchor>
                </Table.Td>
                <Table.Td data-label={t('reporting.market')}>{row.market.international_name}</Table.Td>
                <Table.Td data-label={t('reporting.period.deadline')}>
                  {formatDate(row.period.deadline)}
                  {row.overdue && (
                    <Badge color="red" variant="light" tt="none" ml={6}>
                      {t('dashboard.overdue')}
                    </Badge>
                  )}
                </Table.Td>
                <Table.Td data-label={t('reporting.status')}>
                  <PeriodStatusBadge status={row.period.status} />
                </Table.Td>
                <Table.Td ta="right" data-label={t('completeness.expected')}>
                  {row.expected}
                </Table.Td>
                <Table.Td ta="right" data-label={t('completeness.submitted')}>
                  {row.submitted}
                </Table.Td>
                <Table.Td ta="right" data-label={t('completeness.waiting')}>
                  {row.waiting}
                </Table.Td>
                <Table.Td ta="right" data-label={t('completeness.approved')}>
                  {row.approved}
                </Table.Td>
                <Table.Td ta="right" data-label={t('completeness.missing')} fw={row.missing > 0 ? 700 : undefined} c={row.missing > 0 ? 'orange.9' : undefined}>
                  {row.missing}
                </Table.Td>
                <Table.Td miw={140}>
                  <Progress
                    value={row.expected === 0 ? 0 : (row.approved / row.expected) * 100}
                    color={row.approved === row.expected ? 'teal' : 'blue'}
                    size="sm"
                    aria-label={t('completeness.progress', { approved: row.approved, expected: row.expected })}
                  />
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
