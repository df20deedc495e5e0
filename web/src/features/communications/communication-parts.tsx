import { Badge, type BadgeProps } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { ATTACHMENT_MAX_BYTES, ATTACHMENT_MAX_COUNT, ATTACHMENT_TYPES, type DeliveryStatus } from '@mss/contracts/communications';
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

export function CommunicationStatusBadge({ status }: { status: number }) {
  const label = useEnumLabel();
  return (
    <Badge color={communicationStatusColor(status)} variant="light" tt="none" styles={WHOLE} data-testid="communication-status">
      {label('communication_status', status)}
    </Badge>
  );
}

const DELIVERY_COLORS: Record<DeliveryStatus, string> = { queued: 'gray', sending: 'violet', sent: 'teal', failed: 'red' };

export function DeliveryStatusBadge({ status }: { status: DeliveryStatus }) {
  const { t } = useTranslation();
  return (
    <Badge color={DELIVERY_COLORS[status]} variant="light" tt="none" styles={WHOLE} data-testid="delivery-status">
      {t(`communication.delivery_status.${status}`)}
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
