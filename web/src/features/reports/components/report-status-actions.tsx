import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, Group, Text } from '@mantine/core';
import { PreflightSeverity } from '@mss/contracts/enums';
import type { ReportSummary } from '@mss/contracts/reports';
import { abilitySubject, useSession } from '../../../api/session.ts';
import { feedback } from '../../../components/feedback.tsx';
import { useReportingMutation } from '../../../api/reporting.ts';
import { reportsApi } from '../api/reports.ts';
import { CommentModal } from './comment-modal.tsx';
import { reportActions, statusFor } from '../lib/report-status.ts';
import '../../../components/import-texts.ts';

type Event = 'submit' | 'send_back' | 'approve';
type Asking = Exclude<Event, 'submit'> | 'withdraw' | 'unapprove';

/**
 * Submit, withdraw, approve, send back and undo an approval: only the buttons the status machine
 * allows the user. Submit asks for a confirmation; the others for a comment (required to send
 * back), withdraw and undo saying what they do: undoing an approval in a published period
 * publishes it again, which the dialog says and its button names. The server's refusal (e.g. the
 * preflight Error on submit) opens the error modal.
 */
export function ReportStatusActions({ report, onChanged }: { report: ReportSummary; onChanged?: () => void }) {
  const { t } = useTranslation();
  const session = useSession();
  const actions = reportActions(report, abilitySubject(session));
  const [asking, setAsking] = useState<Asking | null>(null);
  // What the dialog shows: the last question asked, also while it closes (no empty title meanwhile).
  const [shown, setShown] = useState<Asking>('approve');
  if (asking !== null && asking !== shown) setShown(asking);
  const change = useReportingMutation(reportsApi.changeStatus);
  const withdraw = useReportingMutation(reportsApi.withdraw);
  const unapprove = useReportingMutation(reportsApi.unapprove);
  const republish = report.period.published;

  const run = async (event: Asking | 'submit', comment?: string) => {
    try {
      const request =
        event === 'withdraw'
          ? withdraw.mutateAsync({ uuid: report.uuid, comment })
          : event === 'unapprove'
            ? unapprove.mutateAsync({ uuid: report.uuid, comment, republish })
            : change.mutateAsync({ uuid: report.uuid, status: statusFor(event), comment });
      await feedback.loading.during(request);
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

  if (!actions.submit && !actions.withdraw && !actions.approve && !actions.sendBack && !actions.unapprove) return null;
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
      {actions.withdraw && (
        <Button variant="default" onClick={() => setAsking('withdraw')}>
          {t('reporting.action.withdraw')}
        </Button>
      )}
      {actions.unapprove && (
        <Button color="orange" variant="light" onClick={() => setAsking('unapprove')}>
          {t('reporting.action.unapprove')}
        </Button>
      )}
      <CommentModal
        opened={asking !== null}
        title={t(`reporting.action.${shown}_title`, { company: report.company.name })}
        description={
          shown === 'withdraw' || shown === 'unapprove' ? (
            <Text size="sm" data-testid="status-change-explained">
              {t(
                shown === 'withdraw'
                  ? 'reporting.action.withdraw_explained'
                  : republish
                    ? 'reporting.action.unapprove_republish'
                    : 'reporting.action.unapprove_explained',
                {
                  period: report.period.title,
                },
              )}
            </Text>
          ) : undefined
        }
        commentLabel={shown === 'withdraw' || shown === 'unapprove' ? t('reporting.action.reason') : undefined}
        confirmLabel={shown === 'unapprove' && republish ? t('reporting.action.unapprove_and_republish') : t(`reporting.action.${shown}`)}
        required={shown === 'send_back'}
        busy={change.isPending || withdraw.isPending || unapprove.isPending}
        onCancel={() => setAsking(null)}
        onConfirm={(comment) => asking && void run(asking, comment)}
      />
    </Group>
  );
}
