import { allows, COMMUNICATION_LIFECYCLE } from '@mss/contracts/lifecycles';
import './texts.ts';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { Alert, Badge, Button, Code, Group, Modal, Paper, Select, SimpleGrid, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import {
  DELIVERY_STATUSES,
  type Communication,
  type CompanyReach,
  type Delivery,
  type DeliveryStatus,
  type Recipient,
  type RenderedMail,
} from '@mss/contracts/communications';
import { CommunicationStatus } from '@mss/contracts/enums';
import { type Column, DataTable } from '../../components/data-table.tsx';
import { errorMessage, feedback } from '../../components/feedback.tsx';
import { ReportStatusBadge } from '../reports/index.ts';
import { formatDateTime } from '../../lib/dates.ts';
import { formatNumber } from '../../lib/numbers.ts';
import { communicationKeys, communicationQueries, communicationsApi, isBusy, useCommunicationMutation, useRefreshDeliveries } from './api/communications.ts';
import { MailFrame } from './communication-composer.tsx';
import { AttemptOutcomeBadge, DeliveryStatusBadge } from './communication-parts.tsx';

/** The first page of the recipients: its total is the count the send confirmation names. */
const FIRST_PAGE = { page: 1, per_page: 25 };

/** Name and e-mail, the first columns of the recipients and of the deliveries (a long address wraps). */
function personColumns<T extends { name: string; email: string }>(
  t: (key: 'communication.recipients.name' | 'communication.recipients.email') => string,
): Column<T>[] {
  return [
    { key: 'name', label: t('communication.recipients.name') },
    {
      key: 'email',
      label: t('communication.recipients.email'),
      render: (row) => (
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          {row.email}
        </Text>
      ),
    },
  ];
}

export function useRecipientCount(uuid: string, enabled = true) {
  const query = useQuery({ ...communicationQueries.recipients(uuid, FIRST_PAGE), enabled, meta: { handlesErrors: true } });
  return { count: query.data?.meta.total, recipients: query.data?.data ?? [], query };
}

/** The companies the communication is about, each with who of it would get the mail. */
export function useCompanyReach(uuid: string, enabled = true) {
  const query = useQuery({ ...communicationQueries.companies(uuid), enabled, meta: { handlesErrors: true } });
  const companies = query.data ?? [];
  return { query, companies, unreached: companies.filter((c) => c.recipients.length === 0) };
}

/** A warning naming the companies no one would reach ("no recipient"): before the test e-mail and before sending. */
export function UnreachedCompanies({ unreached }: { unreached: CompanyReach[] }) {
  const { t } = useTranslation();
  if (unreached.length === 0) return null;
  return (
    <Alert color="orange" role="status" title={t('communication.companies.unreached_title', { count: unreached.length })} data-testid="unreached-companies">
      {t('communication.companies.unreached_body', { names: unreached.map((c) => c.company.name).join(', ') })}
    </Alert>
  );
}

/** Per company: who gets the mail, or "No recipient". */
function CompanyReachTable({ companies }: { companies: CompanyReach[] }) {
  const { t } = useTranslation();
  if (companies.length === 0) return null;
  const reached = companies.length - companies.filter((c) => c.recipients.length === 0).length;
  return (
    <Stack gap={6}>
      <Text fw={600} data-testid="company-reach-count">
        {t('communication.companies.reached', { reached, count: companies.length })}
      </Text>
      <Table.ScrollContainer minWidth={420}>
        <Table striped withTableBorder aria-label={t('communication.companies.title')} data-stack data-testid="company-reach">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('communication.recipients.company')}</Table.Th>
              <Table.Th>{t('communication.companies.who')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {companies.map(({ company, recipients }) => (
              <Table.Tr key={company.id}>
                <Table.Td fw={600}>{company.name}</Table.Td>
                <Table.Td data-label={t('communication.companies.who')}>
                  {recipients.length === 0 ? (
                    <Badge color="red" variant="light" tt="none">
                      {t('communication.companies.no_recipient')}
                    </Badge>
                  ) : (
                    recipients.map((r) => `${r.name} <${r.email}>`).join(', ')
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Stack>
  );
}

/** Who would get the mail now: the companies it is about and who of each, then every person, paged by the server. */
export function RecipientsPanel({ communication }: { communication: Communication }) {
  const { t } = useTranslation();
  const { count } = useRecipientCount(communication.uuid);
  const { companies, unreached } = useCompanyReach(communication.uuid);
  return (
    <Stack gap="sm">
      {count !== undefined && (
        <Text fw={600} data-testid="recipient-count">
          {t('communication.recipients.count', { count })}
        </Text>
      )}
      <Text size="sm" c="dimmed">
        {t('communication.recipients.hint')}
      </Text>
      <UnreachedCompanies unreached={unreached} />
      <CompanyReachTable companies={companies} />
      <DataTable<Recipient, ReturnType<typeof communicationKeys.recipients>>
        stateKey="recipients"
        label={t('communication.tab.recipients')}
        searchable={false}
        rowKey={(row) => row.user_id}
        query={(params) => communicationQueries.recipients(communication.uuid, { page: params.page, per_page: params.per_page })}
        columns={[
          ...personColumns<Recipient>(t),
          { key: 'company', label: t('communication.recipients.company'), render: (row) => row.company?.name ?? '–' },
          { key: 'market', label: t('communication.recipients.market'), render: (row) => row.market.name },
          ...(communication.recipients.period_uuid
            ? [
                {
                  key: 'report_status',
                  label: t('communication.recipients.report_status'),
                  render: (row: Recipient) => (row.report_status === null ? '–' : <ReportStatusBadge status={row.report_status} />),
                },
              ]
            : []),
        ]}
      />
    </Stack>
  );
}

/** The mail a preflight rendered: subject, address, the HTML in a sandboxed frame, the text part. */
export function RenderedMailView({ mail }: { mail: RenderedMail }) {
  const { t } = useTranslation();
  return (
    <Paper withBorder radius="md" p="md" data-testid="rendered-mail">
      <Stack gap="xs">
        <Title order={3} fz="h5">
          {t('communication.preflight.mail', { name: mail.recipient_name })}
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs">
          <div>
            <Text size="xs" c="dimmed">
              {t('communication.preflight.to')}
            </Text>
            <Text size="sm" style={{ overflowWrap: 'anywhere' }} data-testid="rendered-to">
              {mail.to}
            </Text>
          </div>
          <div>
            <Text size="xs" c="dimmed">
              {t('communication.preflight.subject')}
            </Text>
            <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }} data-testid="rendered-subject">
              {mail.subject}
            </Text>
          </div>
        </SimpleGrid>
        <Text size="xs" c="dimmed">
          {t('communication.preflight.html')}
        </Text>
        <MailFrame html={mail.html} title={t('communication.preflight.frame_title')} />
        <Text size="xs" c="dimmed">
          {t('communication.preflight.text')}
        </Text>
        <Code block style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }} data-testid="rendered-text">
          {mail.text}
        </Code>
      </Stack>
    </Paper>
  );
}

/** Back to draft: the mail may be changed again, and needs a new preflight. */
export function BackToDraftButton({ communication }: { communication: Communication }) {
  const { t } = useTranslation();
  const back = useCommunicationMutation(communicationsApi.backToDraft);
  return (
    <Button
      variant="default"
      loading={back.isPending}
      onClick={() =>
        void back
          .mutateAsync(communication.uuid)
          .then(() => feedback.toast(t('communication.back_to_draft_done'), { color: 'teal' }))
          .catch((error: unknown) => feedback.errorOf(error))
      }
    >
      {t('communication.back_to_draft')}
    </Button>
  );
}

/** Render the mail for a recipient and send that copy to the author; then show it here. */
export function PreflightPanel({
  communication,
  unsaved,
  mail,
  onMail,
}: {
  communication: Communication;
  unsaved: boolean;
  mail: RenderedMail | null;
  onMail: (mail: RenderedMail) => void;
}) {
  const { t } = useTranslation();
  // Its recipients change only while its lifecycle lets it be edited (a draft).
  const draft = allows(COMMUNICATION_LIFECYCLE, communication.status, 'edit');
  const { count, recipients, query } = useRecipientCount(communication.uuid);
  const { unreached } = useCompanyReach(communication.uuid, draft);
  const [chosen, setChosen] = useState<string | null>(null);
  const recipientId = chosen ?? (recipients[0] ? String(recipients[0].user_id) : null);
  const preflight = useCommunicationMutation(communicationsApi.preflight);

  const send = async () => {
    try {
      const answer = await preflight.mutateAsync({ uuid: communication.uuid, recipient_user_id: recipientId ? Number(recipientId) : null });
      onMail(answer.mail);
      feedback.toast(t('communication.preflight.sent', { to: answer.data.preflight_to ?? answer.mail.to }), { color: 'teal' });
    } catch (error) {
      await feedback.errorOf(error);
    }
  };

  return (
    <Stack gap="sm">
      <Text size="sm">{t('communication.preflight.intro')}</Text>
      {communication.preflight_sent_at && communication.preflight_to && (
        <Text size="sm" fw={600} data-testid="preflight-sent">
          {t('communication.preflight.sent_at', { to: communication.preflight_to, at: formatDateTime(communication.preflight_sent_at) })}
        </Text>
      )}
      {draft ? (
        <>
          {unsaved && (
            <Alert color="yellow" role="status">
              {t('communication.unsaved')}
            </Alert>
          )}
          {count === 0 && (
            <Alert color="yellow" role="status">
              {t('communication.preflight.no_recipients')}
            </Alert>
          )}
          <UnreachedCompanies unreached={unreached} />
          {query.isError && (
            <Alert color="red" role="alert">
              {errorMessage(query.error)}
            </Alert>
          )}
          <Group align="flex-end" gap="sm">
            <Select
              label={t('communication.preflight.recipient')}
              data={recipients.map((r) => ({ value: String(r.user_id), label: `${r.name} <${r.email}>` }))}
              value={recipientId}
              onChange={setChosen}
              allowDeselect={false}
              searchable
              w={{ base: '100%', sm: 420 }}
            />
            <Button onClick={() => void send()} loading={preflight.isPending} disabled={unsaved || !count}>
              {t('communication.preflight.send')}
            </Button>
          </Group>
        </>
      ) : communication.status === CommunicationStatus.PreflightSent ? (
        <Stack gap="xs" align="flex-start">
          <Text size="sm" c="dimmed">
            {t('communication.back_to_draft_hint')}
          </Text>
          <BackToDraftButton communication={communication} />
        </Stack>
      ) : null}
      {mail && <RenderedMailView mail={mail} />}
    </Stack>
  );
}

/** A date-time-local value ("2026-10-01T09:30") as an ISO instant, or null when empty. */
export function sendAtOf(local: string): string | null {
  if (!local.trim()) return null;
  const date = new Date(local);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

/** Sending: only after a preflight (else the reason), optionally later, after a confirmation naming the count. */
export function SendPanel({ communication, onSent }: { communication: Communication; onSent?: () => void }) {
  const { t } = useTranslation();
  const preflighted = allows(COMMUNICATION_LIFECYCLE, communication.status, 'send');
  const { count } = useRecipientCount(communication.uuid, preflighted);
  const { unreached } = useCompanyReach(communication.uuid, preflighted);
  const [sendAt, setSendAt] = useState('');
  const [sendAtError, setSendAtError] = useState<string | null>(null);
  const send = useCommunicationMutation(communicationsApi.send);

  if (communication.status === CommunicationStatus.WaitingToBeSent)
    return (
      <Alert color="violet" role="status" data-testid="send-waiting">
        {communication.send_at ? t('communication.send.waiting_at', { at: formatDateTime(communication.send_at) }) : t('communication.send.waiting')}
      </Alert>
    );

  if (allows(COMMUNICATION_LIFECYCLE, communication.status, 'retry'))
    return <Text size="sm">{t('communication.send.sent_at', { at: formatDateTime(communication.sent_at) })}</Text>;

  const go = async () => {
    const at = sendAtOf(sendAt);
    if (sendAt && (!at || new Date(at).getTime() <= Date.now())) {
      setSendAtError(t('communication.send.send_at_past'));
      return;
    }
    setSendAtError(null);
    const total = count ?? 0;
    const question = at ? t('communication.send.confirm_at', { count: total, at: formatDateTime(at) }) : t('communication.send.confirm', { count: total });
    const ok = await feedback.confirm({
      message: unreached.length ? `${question} ${t('communication.companies.unreached_confirm', { count: unreached.length })}` : question,
      confirmLabel: t('communication.send.button'),
    });
    if (!ok) return;
    try {
      await send.mutateAsync({ uuid: communication.uuid, send_at: at });
      feedback.toast(t('communication.send.requested'), { color: 'teal' });
      onSent?.();
    } catch (error) {
      await feedback.errorOf(error);
    }
  };

  return (
    <Stack gap="sm">
      {!preflighted && (
        <Alert color="yellow" role="status" data-testid="send-reason">
          {t('communication.send.needs_preflight')}
        </Alert>
      )}
      {preflighted && <UnreachedCompanies unreached={unreached} />}
      <Group align="flex-start" gap="sm">
        <TextInput
          type="datetime-local"
          label={t('communication.send.send_at')}
          description={t('communication.send.send_at_hint')}
          value={sendAt}
          onChange={(event) => setSendAt(event.currentTarget.value)}
          error={sendAtError}
          disabled={!preflighted}
          w={{ base: '100%', sm: 260 }}
        />
      </Group>
      <Group gap="sm">
        <Button onClick={() => void go()} loading={send.isPending} disabled={!preflighted}>
          {t('communication.send.button')}
        </Button>
        {preflighted && <BackToDraftButton communication={communication} />}
      </Group>
    </Stack>
  );
}

/** After sending: the counts, the deliveries (status, attempts, SMTP answer) and Retry failed. */
export function DeliveriesPanel({ communication }: { communication: Communication }) {
  const { t } = useTranslation();
  const counts = communication.deliveries;
  const retry = useCommunicationMutation(communicationsApi.retry);
  const [status, setStatus] = useState<DeliveryStatus | null>(null);
  const poll = isBusy(communication.status) || counts.queued > 0;
  // The counts come with the communication (polled while it is sent): the rows follow them.
  const refreshDeliveries = useRefreshDeliveries();
  useEffect(() => {
    void refreshDeliveries(communication.uuid);
  }, [refreshDeliveries, communication.uuid, communication.status, counts.sent, counts.failed, counts.queued]);

  const again = async () => {
    const ok = await feedback.confirm({
      message: t('communication.retry_confirm', { count: counts.failed }),
      confirmLabel: t('communication.retry', { count: counts.failed }),
    });
    if (!ok) return;
    try {
      await retry.mutateAsync(communication.uuid);
      feedback.toast(t('communication.retry_done'), { color: 'teal' });
    } catch (error) {
      await feedback.errorOf(error);
    }
  };

  if (counts.total === 0 && !isBusy(communication.status)) return <Text c="dimmed">{t('communication.deliveries.none')}</Text>;

  return (
    <Stack gap="sm">
      {communication.sent_at && <Text size="sm">{t('communication.send.sent_at', { at: formatDateTime(communication.sent_at) })}</Text>}
      <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm" data-testid="delivery-counts">
        <Count label={t('communication.deliveries.total')} value={counts.total} testId="count-total" />
        <Count label={t('communication.deliveries.sent')} value={counts.sent} testId="count-sent" color="teal" />
        <Count label={t('communication.deliveries.failed')} value={counts.failed} testId="count-failed" color={counts.failed ? 'red' : undefined} />
        <Count label={t('communication.deliveries.queued')} value={counts.queued} testId="count-queued" />
      </SimpleGrid>
      {counts.failed > 0 && !isBusy(communication.status) && (
        <Group>
          <Button color="red" variant="light" onClick={() => void again()} loading={retry.isPending}>
            {t('communication.retry', { count: counts.failed })}
          </Button>
        </Group>
      )}
      <DataTable<Delivery, ReturnType<typeof communicationKeys.deliveries>>
        stateKey="deliveries"
        filterKey={status ?? ''}
        label={t('communication.tab.deliveries')}
        filters={
          <Select
            label={t('communication.deliveries.status')}
            placeholder={t('communication.deliveries.all_statuses')}
            data={DELIVERY_STATUSES.map((s) => ({ value: s, label: t(`communication.delivery_status.${s}`) }))}
            value={status}
            onChange={(value) => setStatus(value as DeliveryStatus | null)}
            clearable
            w={{ base: '100%', sm: 200 }}
          />
        }
        query={(params) =>
          communicationQueries.deliveries(
            communication.uuid,
            { page: params.page, per_page: params.per_page, search: params.search, ...(status ? { status } : {}) },
            poll,
          )
        }
        columns={[
          ...personColumns<Delivery>(t),
          { key: 'status', label: t('communication.deliveries.status'), render: (row) => <DeliveryStatusBadge status={row.status} /> },
          { key: 'attempts', label: t('communication.deliveries.attempts'), render: (row) => <DeliveryAttempts delivery={row} /> },
          {
            key: 'smtp_response',
            // The last attempt's answer; each attempt's own is behind the attempts' count.
            label: t('communication.deliveries.smtp_response'),
            render: (row) => (
              <Text size="xs" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
                {row.smtp_response ?? '–'}
              </Text>
            ),
          },
          { key: 'sent_at', label: t('communication.deliveries.sent_at'), render: (row) => formatDateTime(row.sent_at) },
        ]}
      />
    </Stack>
  );
}

/** The count of a delivery's attempts; clicked, every attempt with its time, result and SMTP answer. */
function DeliveryAttempts({ delivery }: { delivery: Delivery }) {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(false);
  if (delivery.attempts === 0 && delivery.attempt_history.length === 0) return <>{formatNumber(0)}</>;
  return (
    <>
      <Button
        variant="subtle"
        size="compact-sm"
        onClick={() => setOpened(true)}
        // The name starts with what the button shows ("2 attempts"), as WCAG 2.5.3 asks, then says what it opens.
        aria-label={`${t('communication.deliveries.attempts_count', { count: delivery.attempts })}: ${t('communication.deliveries.show_attempts', { email: delivery.email })}`}
        data-testid="delivery-attempts"
      >
        {t('communication.deliveries.attempts_count', { count: delivery.attempts })}
      </Button>
      <Modal
        opened={opened}
        onClose={() => setOpened(false)}
        title={
          <Text fw={700} style={{ overflowWrap: 'anywhere' }}>
            {t('communication.deliveries.attempts_title', { name: delivery.name, email: delivery.email })}
          </Text>
        }
        size="lg"
        centered
        closeButtonProps={{ 'aria-label': t('common.close') }}
      >
        {/* One block per attempt, not a table: it reads the same on a phone. */}
        <Stack component="ol" gap="xs" p={0} m={0} style={{ listStyle: 'none' }} data-testid="attempt-history">
          {delivery.attempt_history.map((attempt) => (
            <Paper component="li" key={attempt.number} withBorder radius="sm" p="sm">
              <Group justify="space-between" gap="xs" wrap="wrap">
                <Text size="sm" fw={600}>
                  {t('communication.attempt.number')} {formatNumber(attempt.number)}
                </Text>
                <AttemptOutcomeBadge outcome={attempt.outcome} />
              </Group>
              <Text size="xs" c="dimmed">
                {t('communication.attempt.started_at')}: {formatDateTime(attempt.started_at)}
              </Text>
              <Text size="xs" mt={4} style={{ overflowWrap: 'anywhere' }}>
                <Text span size="xs" c="dimmed">
                  {t('communication.attempt.smtp_response')}:{' '}
                </Text>
                <Text span size="xs" ff="monospace" data-testid="attempt-smtp-response">
                  {attempt.smtp_response ?? '–'}
                </Text>
              </Text>
            </Paper>
          ))}
        </Stack>
      </Modal>
    </>
  );
}

function Count({ label, value, testId, color }: { label: string; value: number; testId: string; color?: string }) {
  return (
    <Paper withBorder radius="md" p="sm">
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fz="xl" fw={700} c={color} data-testid={testId}>
        {formatNumber(value)}
      </Text>
    </Paper>
  );
}
