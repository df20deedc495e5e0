import type { Locale } from '@mss/contracts/enums';
import { translate } from '@mss/contracts/messages';
import type { Completeness, CompletenessState } from '@mss/contracts/periods';
import type { Table } from '../statistics/answers/statistics.sheets.ts';

/*
 * The completeness overview as a download (csv or xlsx, written as the statistics tables are):
 * a header block (the range, the market when one is chosen, the filter, today), then one row per
 * market and period with the same counts as the screen. Its texts are the server's only, so they
 * live here and not in the catalogue the browser loads with its first screen.
 */
const enUS = {
  name: 'Completeness',
  range: 'Months',
  market: 'Market',
  filter: 'Shown',
  today: 'Overdue as of',
  period: 'Period',
  period_status: 'Period status',
  published: 'Published',
  deadline: 'Deadline',
  expected: 'Expected',
  submitted: 'Submitted',
  waiting: 'Waiting for approval',
  approved: 'Approved',
  missing: 'Missing',
  overdue: 'Overdue',
  yes: 'yes',
  state_all: 'All periods',
  state_missing: 'Reports missing',
  state_overdue: 'Overdue',
  state_waiting: 'Waiting for approval',
  state_complete: 'All approved',
} as const;
type Key = keyof typeof enUS;

const texts: Record<Locale, Record<Key, string>> = {
  'en-US': enUS,
  'sv-SE': {
    name: 'Rapporteringsläge',
    range: 'Månader',
    market: 'Marknad',
    filter: 'Visas',
    today: 'Försenat per',
    period: 'Period',
    period_status: 'Periodens status',
    published: 'Publicerad',
    deadline: 'Sista inlämningsdag',
    expected: 'Förväntade',
    submitted: 'Inskickade',
    waiting: 'Väntar på godkännande',
    approved: 'Godkända',
    missing: 'Saknas',
    overdue: 'Försenad',
    yes: 'ja',
    state_all: 'Alla perioder',
    state_missing: 'Rapporter saknas',
    state_overdue: 'Försenade',
    state_waiting: 'Väntar på godkännande',
    state_complete: 'Alla godkända',
  },
  'fi-FI': {
    name: 'Raportoinnin tilanne',
    range: 'Kuukaudet',
    market: 'Markkina',
    filter: 'Näytetään',
    today: 'Myöhässä tilanteessa',
    period: 'Kausi',
    period_status: 'Kauden tila',
    published: 'Julkaistu',
    deadline: 'Määräpäivä',
    expected: 'Odotetut',
    submitted: 'Lähetetyt',
    waiting: 'Odottaa hyväksyntää',
    approved: 'Hyväksytyt',
    missing: 'Puuttuu',
    overdue: 'Myöhässä',
    yes: 'kyllä',
    state_all: 'Kaikki kaudet',
    state_missing: 'Raportteja puuttuu',
    state_overdue: 'Myöhässä',
    state_waiting: 'Odottaa hyväksyntää',
    state_complete: 'Kaikki hyväksytty',
  },
  'dk-DK': {
    name: 'Indberetningsstatus',
    range: 'Måneder',
    market: 'Marked',
    filter: 'Vist',
    today: 'Over fristen pr.',
    period: 'Periode',
    period_status: 'Periodens status',
    published: 'Offentliggjort',
    deadline: 'Frist',
    expected: 'Forventede',
    submitted: 'Indsendte',
    waiting: 'Afventer godkendelse',
    approved: 'Godkendte',
    missing: 'Mangler',
    overdue: 'Over fristen',
    yes: 'ja',
    state_all: 'Alle perioder',
    state_missing: 'Indberetninger mangler',
    state_overdue: 'Over fristen',
    state_waiting: 'Afventer godkendelse',
    state_complete: 'Alle godkendt',
  },
  'no-NO': {
    name: 'Rapporteringsstatus',
    range: 'Måneder',
    market: 'Marked',
    filter: 'Vist',
    today: 'Over fristen per',
    period: 'Periode',
    period_status: 'Periodens status',
    published: 'Publisert',
    deadline: 'Frist',
    expected: 'Forventede',
    submitted: 'Innsendte',
    waiting: 'Venter på godkjenning',
    approved: 'Godkjente',
    missing: 'Mangler',
    overdue: 'Over fristen',
    yes: 'ja',
    state_all: 'Alle perioder',
    state_missing: 'Rapporter mangler',
    state_overdue: 'Over fristen',
    state_waiting: 'Venter på godkjenning',
    state_complete: 'Alle godkjent',
  },
};

type Column = Table['columns'][number];

export function completenessTable(data: Completeness, query: { status: CompletenessState; market_id?: number }, locale: Locale): Table {
  const t = (key: Key) => texts[locale][key];
  const column = (key: Key, kind: Column['kind'] = 'text'): Column => ({ title: t(key), kind, get: (r) => r[key] });
  const market = query.market_id ? data.rows[0]?.market : undefined;
  return {
    name: `${t('name')} ${data.from} ${data.to}`,
    preamble: [
      [t('range'), `${data.from} – ${data.to}`],
      ...(market ? [[t('market'), market.international_name] as [string, string]] : []),
      [t('filter'), t(`state_${query.status}`)],
      [t('today'), data.today],
    ],
    columns: [
      column('market'),
      column('period'),
      column('period_status'),
      column('published'),
      column('deadline'),
      column('expected', 'count'),
      column('submitted', 'count'),
      column('waiting', 'count'),
      column('approved', 'count'),
      column('missing', 'count'),
      column('overdue'),
    ],
    rows: data.rows.map((r) => ({
      market: r.market.international_name,
      period: r.period.title,
      period_status: translate(`period.state.${r.period.status}`, undefined, locale),
      published: r.period.published ? t('yes') : '',
      deadline: r.period.deadline ?? '',
      expected: r.expected,
      submitted: r.submitted,
      waiting: r.waiting,
      approved: r.approved,
      missing: r.missing,
      overdue: r.overdue ? t('yes') : '',
    })),
  };
}
