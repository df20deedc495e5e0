import { Badge } from '@mantine/core';
import { useEnumLabel } from '../../../lib/enum-options.ts';
import { reportStatusColor } from '../lib/report-status.ts';

/** A report's status as a badge, never narrower than its words (a squeezed table cell must not cut it to an ellipsis). */
export function ReportStatusBadge({ status }: { status: number }) {
  const label = useEnumLabel();
  return (
    <Badge color={reportStatusColor(status)} variant="light" tt="none" data-testid="report-status" style={{ minWidth: 'max-content' }}>
      {label('report_status', status)}
    </Badge>
  );
}
