import { useTranslation } from 'react-i18next';
import { Badge } from '@mantine/core';
import type { Import } from '@mss/contracts/imports';

/** An import's status as a badge, never narrower than its words. */
export function ImportStatusBadge({ status }: { status: Import['status'] }) {
  const { t } = useTranslation();
  const color = status === 'done' ? 'teal' : status === 'invalid' || status === 'failed' ? 'red' : 'blue';
  return (
    <Badge variant="light" tt="none" color={color} style={{ minWidth: 'max-content' }}>
      {t(`reporting.import.status.${status}`)}
    </Badge>
  );
}
