import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { Badge, Button, Group, Select, Stack, Text, TextInput } from '@mantine/core';
import type { AuditEntry } from '@mss/contracts/audit';
import type { ScreenProps } from '../../lib/screen.ts';
import { AdminPage } from '../../components/page.tsx';
import { DataTable } from '../../components/data-table.tsx';
import { useListSearch } from '../../components/list-pager.tsx';
import { formatDateTime } from '../../lib/dates.ts';
import { useIsSuperAdmin } from '../../components/organization-field.tsx';
import { auditDownloadUrl, type AuditFilters, auditQueries } from './api.ts';
import { AUDIT_KINDS, auditTexts } from './texts.ts';

type AuditKey = keyof typeof auditTexts;
const FILTERS = ['person', 'action', 'record_id', 'from', 'to'] as const;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A value as one short line: text as it is, anything else as JSON, long ones cut. */
function shown(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > 120 ? `${text.slice(0, 119)}…` : text;
}

/** What changed (a field: before → after), or what was read (its details), one line each. */
function Change({ entry }: { entry: AuditEntry }) {
  const before = (entry.before ?? {}) as Record<string, unknown>;
  const after = (entry.after ?? {}) as Record<string, unknown>;
  const details = (entry.details ?? {}) as Record<string, unknown>;
  const fields = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter((key) => key !== 'id' && key !== 'uuid');
  const lines = [
    ...fields.map((key) =>
      key in before && key in after ? `${key}: ${shown(before[key])} → ${shown(after[key])}` : `${key}: ${shown(key in after ? after[key] : before[key])}`,
    ),
    ...Object.entries(details).map(([key, value]) => `${key}: ${shown(value)}`),
  ];
  if (lines.length === 0)
    return (
      <Text span c="dimmed">
        –
      </Text>
    );
  return (
    <Stack gap={0}>
      {lines.slice(0, 8).map((line, i) => (
        <Text key={i} size="xs" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
          {line}
        </Text>
      ))}
      {lines.length > 8 && (
        <Text size="xs" c="dimmed">
          …
        </Text>
      )}
    </Stack>
  );
}

/** The audit trail (docs/decisions.md "Audit trail"): administrators read their organization's, a super-administrator every one. */
export function AuditScreen({ title }: ScreenProps) {
  const { t } = useTranslation();
  const tr = (key: AuditKey) => t(key);
  const { search, setAll, clear } = useListSearch();
  const superAdmin = useIsSuperAdmin();
  const [params] = useSearchParams();
  const filters: AuditFilters = Object.fromEntries(FILTERS.map((name) => [name, search.get(name) ?? undefined]));
  // A hand-edited URL with a day that is not one is left out rather than answered with an error.
  for (const day of ['from', 'to'] as const) if (filters[day] && !DAY.test(filters[day])) delete filters[day];
  const [person, setPerson] = useState(filters.person ?? '');
  useEffect(() => {
    const timer = setTimeout(() => {
      const term = person.trim();
      if (term.length !== 1 && term.length !== 2 && term !== (filters.person ?? '')) setAll({ person: term || null });
    }, 400);
    return () => clearTimeout(timer);
  });
  const organizationId = Number(params.get('organization_id')) || undefined;
  const kindOf = (action: string) => action.split('.')[0]!;
  const verbOf = (action: string) => action.split('.')[1] ?? '';
  const label = (prefix: 'audit.kind.' | 'audit.verb.', name: string) => (`${prefix}${name}` in auditTexts ? tr(`${prefix}${name}` as AuditKey) : name);
  return (
    <AdminPage
      title={title}
      actions={
        <Button component="a" href={auditDownloadUrl(filters, organizationId)} download variant="light" data-testid="audit-download">
          {t('audit.download')}
        </Button>
      }
    >
      <Text size="sm" c="dimmed" maw={760}>
        {t('audit.intro')}
      </Text>
      <DataTable<AuditEntry>
        label={title}
        searchable={false}
        organizationFilter
        perPage={50}
        filterKey={JSON.stringify(filters)}
        query={(list) => auditQueries.list(list, filters)}
        filters={
          <Group gap="sm" align="flex-end" wrap="wrap">
            <TextInput
              label={t('audit.filter.person')}
              value={person}
              onChange={(e) => setPerson(e.currentTarget.value)}
              w={{ base: '100%', sm: 220 }}
              data-testid="audit-person"
            />
            <Select
              label={t('audit.filter.action')}
              placeholder={t('audit.filter.all_actions')}
              data={AUDIT_KINDS.map((kind) => ({ value: `${kind}.`, label: label('audit.kind.', kind) }))}
              value={filters.action && !filters.action.endsWith('.') ? `${kindOf(filters.action)}.` : (filters.action ?? null)}
              onChange={(value) => setAll({ action: value })}
              clearable
              searchable
              w={{ base: '100%', sm: 200 }}
            />
            <TextInput
              key={filters.record_id ?? ''}
              label={t('audit.filter.record')}
              defaultValue={filters.record_id ?? ''}
              onBlur={(e) => setAll({ record_id: e.currentTarget.value.trim() || null })}
              onKeyDown={(e) => e.key === 'Enter' && setAll({ record_id: e.currentTarget.value.trim() || null })}
              w={{ base: '100%', sm: 180 }}
            />
            <TextInput
              type="date"
              label={t('audit.filter.from')}
              value={filters.from ?? ''}
              onChange={(e) => setAll({ from: e.currentTarget.value || null })}
              w={{ base: '47%', sm: 160 }}
            />
            <TextInput
              type="date"
              label={t('audit.filter.to')}
              value={filters.to ?? ''}
              onChange={(e) => setAll({ to: e.currentTarget.value || null })}
              w={{ base: '47%', sm: 160 }}
            />
            {FILTERS.some((name) => search.has(name)) && (
              <Button
                variant="subtle"
                onClick={() => {
                  setPerson('');
                  clear();
                }}
              >
                {t('audit.filter.clear')}
              </Button>
            )}
          </Group>
        }
        columns={[
          {
            key: 'at',
            label: t('audit.col.at'),
            render: (row) => (
              <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
                {formatDateTime(row.at)}
              </Text>
            ),
          },
          {
            key: 'who',
            label: t('audit.col.who'),
            render: (row) => (
              <Stack gap={0}>
                <Text size="sm">{row.user?.name ?? (row.email ? t('audit.unknown_person') : t('audit.system'))}</Text>
                {row.email && (
                  <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                    {row.email}
                  </Text>
                )}
                {row.organization && superAdmin && organizationId === undefined && (
                  <Text size="xs" c="dimmed">
                    {row.organization.name}
                  </Text>
                )}
              </Stack>
            ),
          },
          {
            key: 'action',
            label: t('audit.col.action'),
            render: (row) => (
              <Stack gap={4} align="flex-start">
                <Badge variant="light" color="gray" radius="sm">
                  {label('audit.kind.', kindOf(row.action))}
                </Badge>
                <Text size="sm">{label('audit.verb.', verbOf(row.action))}</Text>
              </Stack>
            ),
          },
          {
            key: 'record',
            label: t('audit.col.record'),
            render: (row) =>
              row.record_id ? (
                <Text size="xs" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
                  {row.record_type} {row.record_id}
                </Text>
              ) : (
                '–'
              ),
          },
          { key: 'change', label: t('audit.col.change'), render: (row) => <Change entry={row} /> },
          {
            key: 'from',
            label: t('audit.col.from'),
            render: (row) => (
              <Stack gap={0}>
                <Text size="xs">{row.ip ?? '–'}</Text>
                {row.via && (
                  <Text size="xs" c="dimmed">
                    {t(row.via === 'token' ? 'audit.via.token' : 'audit.via.session')}
                  </Text>
                )}
              </Stack>
            ),
          },
        ]}
      />
    </AdminPage>
  );
}
