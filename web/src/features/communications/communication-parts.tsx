import './texts.ts';
import { Badge, type BadgeProps } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import {
  ATTACHMENT_MAX_BYTES,
  ATTACHMENT_MAX_COUNT,
  ATTACHMENT_TYPES,
  type DeliveryAttemptOutcome,
  type DeliveryCounts,
  type DeliveryStatus,
  partlyFailed,
} from '@mss/contracts/communications';
import { CommunicationStatus } from '@mss/contracts/enums';
import { useEnumLabel } from '../../lib/enum-options.ts';

/** A badge never cuts its text (long statuses such as "Waiting to be sent" on a phone). */
const WHOLE: BadgeProps['styles'] = {
  root: { flexShrink: 0, maxWidth: 'none', overflow: 'visible', height: 'auto', minHeight: 'var(--badge-height)' },
  label: { overflow: 'visible', textOverflow: 'clip', whiteSpace: 'nowrap' },
};

export function communicationStatusColor(status: number): string {
  switch (status) {
    case CommunicationStatus.Draft:
      return 'gray';
    case CommunicationStatus.SendingPreflight:
    case CommunicationStatus.WaitingToBeSent:
      return 'violet';
    case CommunicationStatus.PreflightSent:
      return 'blue';
    case CommunicationStatus.Sent:
      return 'teal';
    case CommunicationStatus.Failed:
      return 'red';
    default:
      return 'gray';
  }
}

/**
 * The status in words: "Sent — 2 of 5 failed" when the send did not reach everyone (the same
 * catalogue text as the API's `status_text`), else the status's label.
 */
export function useCommunicationStatusText() {
  const { t } = useTranslation();
  const label = useEnumLabel();
  return ({ status, deliveries }: { status: number; deliveries: DeliveryCounts }) =>
    partlyFailed(status, deliveries)
      ? t('communication.status_partly_failed', { status: label('communication_status', status), failed: deliveries.failed, total: deliveries.total })
      : label('communication_status', status);
}

export function CommunicationStatusBadge({ communication }: { communication: { status: number; deliveries: DeliveryCounts } }) {
  const text = useCommunicationStatusText();
  // A send that reached only some is not the calm colour of one that reached everyone.
  const color = partlyFailed(communication.status, communication.deliveries) ? 'orange' : communicationStatusColor(communication.status);
  return (
    <Badge color={color} variant="light" tt="none" styles={WHOLE} data-testid="communication-status">
      {text(communication)}
    </Badge>
  );
}

const DELIVERY_COLORS: Record<DeliveryStatus, string> = { queued: 'gray', sending: 'violet', sent: 'teal', failed: 'red' };
const ATTEMPT_COLORS: Record<DeliveryAttemptOutcome, string> = { sending: 'violet', sent: 'teal', deferred: 'yellow', failed: 'red', interrupted: 'gray' };

export function DeliveryStatusBadge({ status }: { status: DeliveryStatus }) {
  const { t } = useTranslation();
  return (
    <Badge color={DELIVERY_COLORS[status]} variant="light" tt="none" styles={WHOLE} data-testid="delivery-status">
      {t(`communication.delivery_status.${status}`)}
    </Badge>
  );
}

export function AttemptOutcomeBadge({ outcome }: { outcome: DeliveryAttemptOutcome }) {
  const { t } = useTranslation();
  return (
    <Badge color={ATTEMPT_COLORS[outcome]} variant="light" tt="none" styles={WHOLE} data-testid="attempt-outcome">
      {t(`communication.attempt_outcome.${outcome}`)}
    </Badge>
  );
}

/** A file size as the user's locale writes it: "820 kB", "5 MB". */
export function formatBytes(bytes: number): string {
  const mb = bytes / (1024 * 1024);
  if (mb >= 1) return `${new Intl.NumberFormat(undefined, { maximumFractionDigits: 1 }).format(mb)} MB`;
  return `${new Intl.NumberFormat(undefined, { maximumFractionDigits: 0 }).format(Math.max(1, Math.ceil(bytes / 1024)))} kB`;
}

/** Why a file cannot be added before it is sent (count and size); null when it may. The server judges the content. */
export function attachmentProblem(file: { name: string; size: number }, count: number, t: TFunction): string | null {
  if (count >= ATTACHMENT_MAX_COUNT) return t('communication.attachment.too_many', { count: ATTACHMENT_MAX_COUNT });
  if (file.size > ATTACHMENT_MAX_BYTES)
    return t('communication.attachment.too_large', { name: file.name, size: formatBytes(file.size), max: formatBytes(ATTACHMENT_MAX_BYTES) });
  return null;
}

export const ATTACHMENT_ACCEPT = Object.keys(ATTACHMENT_TYPES).join(',');
export const ATTACHMENT_TYPE_NAMES = Object.values(ATTACHMENT_TYPES).join(', ');

/**
 * A subject as lists and headings show it: each {{variable}} marked as what it will be filled with
 * for each recipient ("Period"), not left as braces that read like a typo.
 */
export function SubjectText({ subject }: { subject: string }) {
  const { t } = useTranslation();
  const parts = subject.split(/(\{\{\s*[a-z_]+\s*\}\})/g);
  return (
    <>
      {parts.map((part, i) => {
        const variable = /^\{\{\s*([a-z_]+)\s*\}\}$/.exec(part)?.[1];
        if (!variable) return part;
        return (
          <Badge key={i} variant="light" color="grape" tt="none" size="sm" mx={2} title={t('communication.placeholder_hint')} data-testid="subject-placeholder">
            {t(`communication.variable.${variable}`, { defaultValue: variable })}
          </Badge>
        );
      })}
    </>
  );
}
