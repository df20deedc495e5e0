import { useTranslation } from 'react-i18next';
import { Badge } from '@mantine/core';

/** A period's status as a badge. */
export function PeriodStatusBadge({ status }: { status: string }) {
  const { t } = useTranslation();
  const color = status === 'open' ? 'teal' : status === 'closed' ? 'gray' : 'yellow';
  return (
    <Badge color={color} variant="light" tt="none">
      {t(`reporting.period.status.${status}`)}
    </Badge>
  );
}
