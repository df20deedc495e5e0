import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, Group, Text } from '@mantine/core';
import { PreflightSeverity } from '@mss/contracts/enums';
import type { ReportSummary } from '@mss/contracts/reports';
import { abilitySubject, useSession } from '../api/session.ts';
import { feedback } from './feedback.tsx';
import { useReportingMutation } from '../api/reporting.ts';
import { reportsApi } from '../api/reports.ts';
import { CommentModal } from './comment-modal.tsx';
import { reportActions, statusFor } from '../lib/report-status.ts';

type Event = 'submit' | 'send_back' | 'approve';

/**
 * Submit, approve and send back: only the buttons the status machine allows the user. Submit
 * asks for a confirmation; approve and send back for a comment (required to send back). The
 * server's refusal (e.g. the preflight Error on submit) opens the error modal.
 */
export function ReportStatusActions({ report, onChanged }: { report: ReportSummary; onChanged?: () => void }) {
  const { t } = useTranslation();
  const session = useSession();
  const actions = reportActions(report, abilitySubject(session));
  const [asking, setAsking] = useState<Exclude<Event, 'submit'> | null>(null);
  const change = useReportingMutation(reportsApi.changeStatus);

  const run = async (event: Event, comment?: string) => {
    try {
      await feedback.loading.during(change.mutateAsync({ uuid: report.uuid, status: statusFor(event), comment }));
      setAsking(null);
      feedback.toast(t(`reporting.action.${event}_done`), { color: 'teal' });
      onChanged?.();
    } catch (error) {
      setAsking(null);
      await feedback.errorOf(error);
    }
  };

  const submit = async () => {
    const ok = await feedback.confirm({ message: t('reporting.action.submit_confirm'), confirmLabel: t('reporting.action.submit') });
    if (ok) await run('submit');
  };

  if (!actions.submit && !actions.approve && !actions.sendBack) return null;
  // Submit only when the preflight lets it through (the server checks again); otherwise why not.
  const blocked = report.preflight_severity === null ? 'submit_no_rows' : report.preflight_severity >= PreflightSeverity.Error ? 'submit_blocked' : null;
  return (
    <Group gap="xs">
      {actions.submit && !blocked && <Button onClick={() => void submit()}>{t('reporting.action.submit')}</Button>}
      {actions.submit && blocked && (
        <Text size="sm" c="red.9" data-testid="submit-blocked" maw={520}>
          {t(`reporting.action.${blocked}`)}
        </Text>
      )}
      {actions.approve && (
        <Button color="teal" onClick={() => setAsking('approve')}>
          {t('reporting.action.approve')}
        </Button>
      )}
      {actions.sendBack && (
        <Button color="orange" variant="light" onClick={() => setAsking('send_back')}>
          {t('reporting.action.send_back')}
        </Button>
      )}
      <CommentModal
        opened={asking !== null}
        title={asking ? t(`reporting.action.${asking}_title`, { company: report.company.name }) : ''}
        confirmLabel={asking ? t(`reporting.action.${asking}`) : ''}
        required={asking === 'send_back'}
        busy={change.isPending}
        onCancel={() => setAsking(null)}
        onConfirm={(comment) => asking && void run(asking, comment)}
      />
    </Group>
  );
}
