import { allows, COMMUNICATION_LIFECYCLE } from '@mss/contracts/lifecycles';
import './texts.ts';
import { useCallback, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Alert, Anchor, Button, Center, Group, Loader, Paper, Select, Stack, Tabs, Text, Title } from '@mantine/core';
import { COMMUNICATION_STATUSES, type Communication, type RenderedMail } from '@mss/contracts/communications';
import { CommunicationStatus } from '@mss/contracts/enums';
import type { ScreenProps } from '../../lib/screen.ts';
import { AdminPage } from '../../components/page.tsx';
import { DataTable } from '../../components/data-table.tsx';
import { errorMessage } from '../../components/feedback.tsx';
import { formatDateTime } from '../../lib/dates.ts';
import { formatNumber } from '../../lib/numbers.ts';
import { useEnumLabel } from '../../lib/enum-options.ts';
import { communicationKeys, communicationQueries, useCommunication } from './api/communications.ts';
import { CommunicationComposer, CommunicationContent } from './communication-composer.tsx';
import { DeliveriesPanel, PreflightPanel, RecipientsPanel, SendPanel } from './communication-panels.tsx';
import { CommunicationStatusBadge, SubjectText } from './communication-parts.tsx';

const TABS = ['message', 'recipients', 'preflight', 'send', 'deliveries'] as const;
type Tab = (typeof TABS)[number];

/** The tab a communication opens on when the URL names none: where its work stands. */
export function defaultTab(status: number): Tab {
  if (status === CommunicationStatus.Draft) return 'message';
  if (status === CommunicationStatus.PreflightSent || status === CommunicationStatus.SendingPreflight) return 'send';
  return 'deliveries';
}

/**
 * /communication — the list of communications, a new draft (?new=1) or one communication
 * (?uuid=…&tab=…): the URL holds what is open, so reload and Back work.
 */
export function CommunicationScreen({ title }: ScreenProps) {
  const [params, setParams] = useSearchParams();
  const uuid = params.get('uuid');
  const open = useCallback((next: Record<string, string> | null, replace = false) => setParams(next ?? {}, { replace }), [setParams]);
  if (params.get('new'))
    return (
      <AdminPage title={title}>
        <BackToList />
        <Paper withBorder radius="md" p={{ base: 'sm', sm: 'lg' }}>
          <Title order={2} fz="h3" mb="md">
            {/* The heading of a draft not yet saved. */}
            <NewHeading />
          </Title>
          <CommunicationComposer onCreated={(c) => open({ uuid: c.uuid, tab: 'recipients' }, true)} onDeleted={() => open(null)} />
        </Paper>
      </AdminPage>
    );
  if (uuid)
    return (
      <AdminPage title={title}>
        <BackToList />
        <CommunicationDetail key={uuid} uuid={uuid} tab={params.get('tab')} onTab={(tab) => open({ uuid, tab }, true)} onDeleted={() => open(null)} />
      </AdminPage>
    );
  return <CommunicationList title={title} onNew={() => open({ new: '1' })} />;
}

function NewHeading() {
  const { t } = useTranslation();
  return <>{t('communication.untitled')}</>;
}

function BackToList() {
  const { t } = useTranslation();
  return (
    <Anchor component={Link} to="/communication" size="sm">
      ← {t('communication.back_to_list')}
    </Anchor>
  );
}

function CommunicationList({ title, onNew }: { title: string; onNew: () => void }) {
  const { t } = useTranslation();
  const enumLabel = useEnumLabel();
  const [status, setStatus] = useState<string | null>(null);
  return (
    <AdminPage title={title} actions={<Button onClick={onNew}>{t('communication.new')}</Button>}>
      <DataTable<Communication, ReturnType<typeof communicationKeys.list>>
        filterKey={status ?? ''}
        label={title}
        rowKey={(row) => row.uuid}
        defaultSort={{ sort: 'created_at', direction: 'desc' }}
        filters={
          <Select
            label={t('communication.list.status_filter')}
            placeholder={t('communication.list.all_statuses')}
            data={COMMUNICATION_STATUSES.map((s) => ({ value: String(s), label: enumLabel('communication_status', s) }))}
            value={status}
            onChange={setStatus}
            clearable
            w={{ base: '100%', sm: 220 }}
          />
        }
        query={(params) => communicationQueries.list({ ...params, ...(status ? { status: Number(status) } : {}) })}
        columns={[
          {
            key: 'subject',
            label: t('communication.col.subject'),
            sortable: true,
            render: (row) => (
              <Anchor component={Link} to={`/communication?uuid=${encodeURIComponent(row.uuid)}`} fw={600} style={{ overflowWrap: 'anywhere' }}>
                <SubjectText subject={row.subject} />
              </Anchor>
            ),
          },
          { key: 'status', label: t('communication.col.status'), sortable: true, render: (row) => <CommunicationStatusBadge communication={row} /> },
          {
            key: 'author',
            label: t('communication.col.author'),
            render: (row) => (row.reminder ? t('communication.reminder.author') : (row.author?.name ?? '–')),
          },
          // Deliveries exist once the send started; before it, who would get it is on the Recipients tab.
          { key: 'recipients', label: t('communication.col.recipients'), render: (row) => (row.status >= 10 ? formatNumber(row.deliveries.total) : '–') },
          { key: 'sent', label: t('communication.col.sent'), render: (row) => (row.status >= 10 ? formatNumber(row.deliveries.sent) : '–') },
          { key: 'failed', label: t('communication.col.failed'), render: (row) => (row.status >= 10 ? formatNumber(row.deliveries.failed) : '–') },
          { key: 'created_at', label: t('communication.col.created_at'), sortable: true, render: (row) => formatDateTime(row.created_at) },
          { key: 'sent_at', label: t('communication.col.sent_at'), sortable: true, render: (row) => formatDateTime(row.sent_at) },
        ]}
      />
    </AdminPage>
  );
}

function CommunicationDetail({ uuid, tab, onTab, onDeleted }: { uuid: string; tab: string | null; onTab: (tab: Tab) => void; onDeleted: () => void }) {
  const { t } = useTranslation();
  const query = useCommunication(uuid);
  const [unsaved, setUnsaved] = useState(false);
  // The rendered mail is in the preflight's answer only: kept while the communication is open.
  const [mail, setMail] = useState<RenderedMail | null>(null);
  if (query.isPending)
    return (
      <Center py="xl">
        <Loader aria-label={t('app.loading')} />
      </Center>
    );
  if (query.isError)
    return (
      <Alert color="red" role="alert">
        {errorMessage(query.error)}
      </Alert>
    );
  const communication = query.data;
  const draft = allows(COMMUNICATION_LIFECYCLE, communication.status, 'edit');
  const current: Tab = (TABS as readonly string[]).includes(tab ?? '') ? (tab as Tab) : defaultTab(communication.status);
  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-start" gap="sm">
        <Title order={2} fz="h3" style={{ overflowWrap: 'anywhere', minWidth: 0, flex: '1 1 16rem' }}>
          <SubjectText subject={communication.subject} />
        </Title>
        <CommunicationStatusBadge communication={communication} />
      </Group>
      {communication.author && (
        <Text size="sm" c="dimmed">
          {communication.author.name} · {formatDateTime(communication.created_at)}
        </Text>
      )}
      {communication.reminder && (
        <Text size="sm" c="dimmed" data-testid="communication-reminder">
          {t('communication.reminder.author')} · {formatDateTime(communication.created_at)}. {t(`communication.reminder.${communication.reminder}`)}
        </Text>
      )}
      <Tabs value={current} onChange={(value) => value && onTab(value as Tab)}>
        <Tabs.List style={{ flexWrap: 'wrap' }}>
          {TABS.map((name) => (
            <Tabs.Tab key={name} value={name}>
              {t(`communication.tab.${name}`)}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        <Paper withBorder radius="md" p={{ base: 'sm', sm: 'lg' }} mt="sm">
          <Tabs.Panel value="message">
            {draft ? (
              <CommunicationComposer communication={communication} onCreated={() => {}} onDeleted={onDeleted} onDirtyChange={setUnsaved} />
            ) : (
              <CommunicationContent communication={communication} />
            )}
          </Tabs.Panel>
          <Tabs.Panel value="recipients">
            <RecipientsPanel communication={communication} />
          </Tabs.Panel>
          <Tabs.Panel value="preflight">
            <PreflightPanel communication={communication} unsaved={unsaved} mail={mail} onMail={setMail} />
          </Tabs.Panel>
          <Tabs.Panel value="send">
            <SendPanel communication={communication} onSent={() => onTab('deliveries')} />
          </Tabs.Panel>
          <Tabs.Panel value="deliveries">
            <DeliveriesPanel communication={communication} />
          </Tabs.Panel>
        </Paper>
      </Tabs>
    </Stack>
  );
}
