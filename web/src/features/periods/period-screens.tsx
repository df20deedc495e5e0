import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { Badge, Button, Group, Paper, Select, SimpleGrid, Stack, Table, Text, TextInput, Tooltip } from '@mantine/core';
import { useForm } from '@mantine/form';
import { canInMarket } from '@mss/contracts/abilities';
import { PERIOD_STATUSES, type Period, type PeriodCoverage, type PublicationPreview } from '@mss/contracts/periods';
import { abilitySubject, useSession } from '../../api/session.ts';
import type { ScreenProps } from '../../lib/screen.ts';
import { feedback } from '../../components/feedback.tsx';
import { AdminPage } from '../../components/page.tsx';
import { emptyToNull, showSaveError } from '../../lib/form.ts';
import { periodQueries } from './api/period-queries.ts';
import { type PeriodAction, periodActionsOffered } from '@mss/contracts/lifecycles';
import { periodChanges } from './api/periods.ts';
import { useReportingMutation } from '../../api/reporting.ts';
import { PeriodStatusBadge } from './components/period-status-badge.tsx';
import { QueryState } from '../../components/query-state.tsx';
import { formatDate, isPast } from '../../lib/dates.ts';
import { useMarketParam, useMarketsWith } from '../../lib/markets.ts';
import { periodLength } from '../../lib/durations.ts';
import { PublicationPreviewDetails } from './publication-preview.tsx';
import { ListPager, pageOf, useListSearch } from '../../components/list-pager.tsx';

const FIELDS = ['market_id', 'title', 'starts_on', 'ends_on', 'deadline'] as const;

/** The period actions the screen offers: its lifecycle's (contracts/lifecycles.ts), which the server applies. */
export function periodActions(period: Pick<Period, 'status' | 'published' | 'publication'>): PeriodAction[] {
  return periodActionsOffered({ status: period.status, published: period.published, changed: period.publication?.changed === true });
}

/** /period-list/:market? — the periods of one market (:market is the market id or ISO code). */
export function PeriodListScreen({ title, params }: ScreenProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { markets, options } = useMarketsWith('manage-periods');
  const fromParam = useMarketParam(params.market, 'manage-periods');
  const marketId = params.market ? fromParam : markets[0]?.id;
  return (
    <AdminPage title={title}>
      <Group align="flex-end">
        <Select
          label={t('reporting.market')}
          data={options}
          value={marketId ? String(marketId) : null}
          onChange={(value) => value && void navigate(`/period-list/${value}`)}
          searchable
          w={360}
          allowDeselect={false}
        />
        {marketId && (
          <>
            <Button component={Link} to={`/reporting-companies/${marketId}`} variant="subtle">
              {t('title.reporting_companies')}
            </Button>
            <Button component={Link} to={`/history/${marketId}`} variant="subtle">
              {t('title.report_history')}
            </Button>
          </>
        )}
      </Group>
      {marketId ? (
        <>
          <PeriodForm marketChoices={null} marketId={marketId} />
          <PeriodTable filter={{ market_id: marketId }} approvalBase="/approval-list" />
        </>
      ) : (
        <Text c="dimmed">{t('reporting.period.pick_market')}</Text>
      )}
    </AdminPage>
  );
}

/** /cluster-period-list — the periods of every market the user manages or approves. */
export function ClusterPeriodListScreen({ title }: ScreenProps) {
  const { options } = useMarketsWith('manage-periods');
  return (
    <AdminPage title={title}>
      {options.length > 0 && <PeriodForm marketChoices={options} />}
      <PeriodTable filter={{ cluster: true }} approvalBase="/cluster-approval" showMarket />
    </AdminPage>
  );
}

interface Values {
  market_id: string | null;
  title: string;
  starts_on: string;
  ends_on: string;
  deadline: string;
}

function PeriodForm({ marketChoices, marketId }: { marketChoices: { value: string; label: string }[] | null; marketId?: number }) {
  const { t } = useTranslation();
  const create = useReportingMutation(periodChanges.createPeriod);
  const form = useForm<Values>({ initialValues: { market_id: null, title: '', starts_on: '', ends_on: '', deadline: '' } });
  const submit = form.onSubmit(async (values) => {
    const market = marketId ?? Number(values.market_id);
    try {
      const period = await create.mutateAsync({
        market_id: market,
        title: values.title.trim(),
        starts_on: values.starts_on,
        ends_on: values.ends_on,
        deadline: emptyToNull(values.deadline),
      });
      feedback.toast(t('admin.saved', { name: period.title }), { color: 'teal' });
      form.reset();
    } catch (error) {
      showSaveError(form, error, FIELDS, t('reporting.period.model'));
    }
  });
  return (
    <Paper withBorder radius="md" p="md">
      <form onSubmit={submit} noValidate aria-label={t('reporting.period.new')}>
        <Stack gap="sm">
          <Text fw={600}>{t('reporting.period.new')}</Text>
          <SimpleGrid cols={{ base: 1, sm: marketChoices ? 5 : 4 }}>
            {marketChoices && <Select label={t('reporting.market')} data={marketChoices} required {...form.getInputProps('market_id')} />}
            <TextInput label={t('reporting.period.title')} required placeholder="2026-10" {...form.getInputProps('title')} />
            <TextInput type="date" label={t('reporting.period.starts_on')} required {...form.getInputProps('starts_on')} />
            <TextInput type="date" label={t('reporting.period.ends_on')} required {...form.getInputProps('ends_on')} />
            <TextInput type="date" label={t('reporting.period.deadline')} {...form.getInputProps('deadline')} />
          </SimpleGrid>
          <Group>
            <Button type="submit" loading={create.isPending}>
              {t('reporting.period.create')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}

/**
 * What publishing a period would show viewers: all reports approved, or how many are not and
 * whose, by status, with a warning that the figures would look lower than the market's.
 */
function PublishCoverage({ coverage, names }: { coverage: PeriodCoverage; names: { title: string; market: string } }) {
  const { t } = useTranslation();
  if (coverage.approved >= coverage.expected) return <>{t('reporting.period.publish_confirm_complete', { ...names, expected: coverage.expected })}</>;
  return (
    <Stack gap="xs">
      <Text size="sm">{t('reporting.period.publish_confirm_incomplete', { ...names, approved: coverage.approved, expected: coverage.expected })}</Text>
      <Stack gap={2} component="ul" m={0} pl="md" data-testid="publish-missing">
        {coverage.missing.map((m) => (
          <Text component="li" size="sm" key={m.status}>
            <b>
              {t(`enum.report_status.${m.status}`)} ({m.companies.length}):
            </b>{' '}
            {m.companies.join(', ')}
          </Text>
        ))}
      </Stack>
      <Text size="sm">{t('reporting.period.publish_incomplete_warning')}</Text>
    </Stack>
  );
}

/** Periods on one page of a period list: a cluster's 5 years are 20 pages, not 300 rows. */
const PERIODS_PER_PAGE = 24;

function PeriodTable({
  filter,
  approvalBase,
  showMarket = false,
}: {
  filter: { market_id?: number; cluster?: boolean };
  approvalBase: string;
  showMarket?: boolean;
}) {
  const { t } = useTranslation();
  const session = useSession();
  const subject = abilitySubject(session);
  const query = useQuery({ ...periodQueries.periods(filter), meta: { handlesErrors: true } });
  const change = useReportingMutation(periodChanges.changePeriod);
  const [busy, setBusy] = useState<string | null>(null);
  // The filters and the page live in the URL: reload and Back keep them.
  const { search, set: setFilter, clear } = useListSearch();

  const act = async (period: Period, action: PeriodAction) => {
    const names = { title: period.title, market: period.market.international_name };
    const incomplete = action === 'publish' && period.coverage !== null && period.coverage.approved < period.coverage.expected;
    const publishing = action === 'publish' || action === 'republish';
    // What viewers would see, decided before the administrator confirms.
    let preview: PublicationPreview | null = null;
    if (publishing) {
      try {
        preview = await feedback.loading.during(periodChanges.previewPublication(period.uuid));
      } catch (error) {
        await feedback.errorOf(error);
        return;
      }
    }
    const intro =
      action === 'publish' && period.coverage ? <PublishCoverage coverage={period.coverage} names={names} /> : t(`reporting.period.${action}_confirm`, names);
    const warned = incomplete || preview?.advice === 'wait' || (preview?.now.unprotectable.length ?? 0) > 0;
    const ok = await feedback.confirm({
      message: preview ? (
        <Stack gap="sm">
          {typeof intro === 'string' ? <Text>{intro}</Text> : intro}
          <PublicationPreviewDetails preview={preview} />
        </Stack>
      ) : (
        intro
      ),
      confirmLabel: t(warned && publishing ? 'reporting.period.publish_anyway' : `reporting.period.${action}`),
      danger: action === 'close' || action === 'unpublish' || warned,
    });
    if (!ok) return;
    setBusy(period.uuid);
    try {
      const changed = await feedback.loading.during(change.mutateAsync({ uuid: period.uuid, action }));
      const unprotectable = publishing ? (changed.publication?.unprotectable ?? 0) : 0;
      feedback.toast(
        unprotectable > 0
          ? `${t(`reporting.period.${action}_done`, { title: period.title })} ${t('reporting.period.unprotectable_done', { count: unprotectable })}`
          : t(`reporting.period.${action}_done`, { title: period.title }),
        { color: unprotectable > 0 ? 'yellow' : 'teal' },
      );
    } catch (error) {
      await feedback.errorOf(error);
    } finally {
      setBusy(null);
    }
  };

  return (
    <QueryState query={query} empty={(rows) => rows.length === 0}>
      {(all) => {
        const market = showMarket ? (search.get('market') ?? 'all') : 'all';
        const status = search.get('status') ?? 'all';
        const reports = search.get('reports') ?? 'all';
        const inMarket = market === 'all' ? all : all.filter((p) => String(p.market.id) === market);
        const withStatus = status === 'all' ? inMarket : inMarket.filter((p) => p.status === status);
        const missing = (p: Period) => p.status !== 'draft' && p.coverage !== null && p.coverage.approved < p.coverage.expected;
        const overdue = (p: Period) => p.status === 'open' && missing(p) && isPast(p.deadline);
        const filtered = reports === 'missing' ? withStatus.filter(missing) : reports === 'overdue' ? withStatus.filter(overdue) : withStatus;
        const { rows: periods, page } = pageOf(filtered, Number(search.get('page') ?? 1) || 1, PERIODS_PER_PAGE);
        const markets = [...new Map(all.map((p) => [p.market.id, p.market])).values()].sort((a, b) => a.international_name.localeCompare(b.international_name));
        return (
          <Stack gap="sm">
            <Group align="flex-end" wrap="wrap" data-testid="period-filters">
              {showMarket && (
                <Select
                  label={t('reporting.market')}
                  data={[
                    { value: 'all', label: t('list.all_markets', { count: all.length }) },
                    ...markets.map((m) => ({ value: String(m.id), label: `${m.international_name} (${all.filter((p) => p.market.id === m.id).length})` })),
                  ]}
                  value={market}
                  onChange={(v) => setFilter('market', v)}
                  allowDeselect={false}
                  w={{ base: '100%', xs: 240 }}
                />
              )}
              <Select
                label={t('reporting.status')}
                data={[
                  { value: 'all', label: t('list.all', { count: inMarket.length }) },
                  ...PERIOD_STATUSES.map((s) => ({
                    value: s,
                    label: `${t(`reporting.period.status.${s}`)} (${inMarket.filter((p) => p.status === s).length})`,
                  })),
                ]}
                value={status}
                onChange={(v) => setFilter('status', v)}
                allowDeselect={false}
                w={{ base: '100%', xs: 200 }}
              />
              <Select
                label={t('reporting.period.reports')}
                data={[
                  { value: 'all', label: t('list.all', { count: withStatus.length }) },
                  { value: 'missing', label: t('list.not_all_approved', { count: withStatus.filter(missing).length }) },
                  { value: 'overdue', label: t('list.overdue', { count: withStatus.filter(overdue).length }) },
                ]}
                value={reports}
                onChange={(v) => setFilter('reports', v)}
                allowDeselect={false}
                w={{ base: '100%', xs: 240 }}
              />
            </Group>
            {filtered.length === 0 ? (
              <Group gap="sm">
                <Text c="dimmed">{t('list.no_match')}</Text>
                <Button variant="subtle" size="xs" onClick={clear}>
                  {t('list.clear')}
                </Button>
              </Group>
            ) : (
              <Table.ScrollContainer minWidth={800}>
                {/* On a phone each period is a card, its actions at the foot (stacked-tables.css). */}
                <Table striped highlightOnHover withTableBorder aria-label={t('title.period_list')} data-stack>
                  <Table.Thead>
                    <Table.Tr>
                      {showMarket && <Table.Th>{t('reporting.market')}</Table.Th>}
                      <Table.Th>{t('reporting.period.title')}</Table.Th>
                      <Table.Th>{t('reporting.period.dates')}</Table.Th>
                      <Table.Th>{t('reporting.period.deadline')}</Table.Th>
                      <Table.Th>{t('reporting.status')}</Table.Th>
                      <Table.Th>{t('reporting.period.published')}</Table.Th>
                      <Table.Th ta="right">{t('reporting.period.reports')}</Table.Th>
                      <Table.Th />
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {periods.map((period) => {
                      const manage = canInMarket(subject, 'manage-periods', period.market.id);
                      return (
                        <Table.Tr key={period.uuid}>
                          {showMarket && <Table.Td data-label={t('reporting.market')}>{period.market.international_name}</Table.Td>}
                          <Table.Td fw={600}>{period.title}</Table.Td>
                          <Table.Td data-label={t('reporting.period.dates')}>
                            {formatDate(period.starts_on)} – {formatDate(period.ends_on)}
                            <PeriodLength startsOn={period.starts_on} endsOn={period.ends_on} />
                          </Table.Td>
                          <Table.Td data-label={t('reporting.period.deadline')}>
                            {formatDate(period.deadline)}
                            {overdue(period) && (
                              <Badge color="red" variant="light" tt="none" ml={6}>
                                {t('dashboard.overdue')}
                              </Badge>
                            )}
                          </Table.Td>
                          <Table.Td data-label={t('reporting.status')}>
                            <PeriodStatusBadge status={period.status} />
                          </Table.Td>
                          <Table.Td data-label={t('reporting.period.published')}>
                            <PublishedCell period={period} />
                          </Table.Td>
                          <Table.Td ta="right" data-label={t('reporting.period.reports')}>
                            {period.report_count}
                            {period.coverage && period.status !== 'draft' && (
                              <Text size="xs" c={period.coverage.approved < period.coverage.expected ? 'orange' : 'teal'} style={{ whiteSpace: 'nowrap' }}>
                                {t('reporting.period.coverage', period.coverage)}
                              </Text>
                            )}
                          </Table.Td>
                          <Table.Td data-actions>
                            <Group gap={4} justify="flex-end" wrap="wrap">
                              {manage &&
                                periodActions(period).map((action) => (
                                  <Button key={action} size="xs" variant="light" disabled={busy === period.uuid} onClick={() => void act(period, action)}>
                                    {t(`reporting.period.${action}`)}
                                  </Button>
                                ))}
                              {period.status !== 'draft' && (
                                <Button component={Link} to={`${approvalBase}/${period.uuid}`} size="xs" variant="subtle">
                                  {t('title.approval_list')}
                                </Button>
                              )}
                            </Group>
                          </Table.Td>
                        </Table.Tr>
                      );
                    })}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            )}
            <ListPager total={filtered.length} page={page} size={PERIODS_PER_PAGE} onPage={(n) => setFilter('page', String(n))} />
          </Stack>
        );
      }}
    </QueryState>
  );
}

/** Whether the period is published; for those who manage it, how many cells its publication hides and whether its figures changed since. */
function PublishedCell({ period }: { period: Period }) {
  const { t } = useTranslation();
  const publication = period.publication;
  if (!period.published) return <>{t('reporting.no')}</>;
  if (!publication) return <>{t('reporting.yes')}</>;
  return (
    <Stack gap={2}>
      <Text size="sm">{formatDate(publication.published_at.slice(0, 10))}</Text>
      {publication.hidden_cells > 0 && (
        <Tooltip
          label={t('reporting.period.hidden_cells_help', {
            primary: publication.primary_cells,
            secondary: publication.hidden_cells - publication.primary_cells,
          })}
          multiline
          w={280}
        >
          <Text size="xs" c="dimmed">
            {t('reporting.period.hidden_cells', { count: publication.hidden_cells })}
          </Text>
        </Tooltip>
      )}
      {publication.unprotectable > 0 && (
        <Tooltip label={t('reporting.period.unprotectable_help')} multiline w={280}>
          <Badge color="orange" variant="light" size="sm">
            {t('reporting.period.unprotectable_badge', { count: publication.unprotectable })}
          </Badge>
        </Tooltip>
      )}
      {publication.changed && (
        <Tooltip label={t('reporting.period.changed_help')} multiline w={280}>
          <Badge color="orange" variant="light" size="sm">
            {t('reporting.period.changed')}
          </Badge>
        </Tooltip>
      )}
    </Stack>
  );
}

/** How long the period lasts ("1 month", "2 weeks"), under its dates (docs/product.md §9 plural forms). */
function PeriodLength({ startsOn, endsOn }: { startsOn: string; endsOn: string }) {
  const { t } = useTranslation();
  const length = periodLength(startsOn, endsOn);
  if (!length) return null;
  return (
    <Text size="xs" c="dimmed" data-testid="period-length">
      {t(`duration.${length.unit}`, { count: length.count })}
    </Text>
  );
}
