import { useTranslation } from 'react-i18next';
import { Switch } from '@mantine/core';
import { feedback } from '../../components/feedback.tsx';
import { useNotificationSettings, useSaveNotificationSettings } from './api/communications.ts';

/** The signed-in user's own choice: workflow mails (submitted reports to approvers; sent back and approved to reporters). */
export function WorkflowMailsSwitch() {
  const { t } = useTranslation();
  const settings = useNotificationSettings();
  const save = useSaveNotificationSettings();
  return (
    <Switch
      label={t('profile.workflow_mails')}
      description={t('profile.workflow_mails_hint')}
      checked={settings.data?.workflow_mails ?? false}
      disabled={!settings.data || save.isPending}
      onChange={(event) => {
        const workflow_mails = event.currentTarget.checked;
        save.mutate(
          { workflow_mails },
          {
            onSuccess: () => feedback.toast(t('profile.saved'), { color: 'teal' }),
            onError: (error) => feedback.toastError(error),
          },
        );
      }}
      data-testid="workflow-mails"
    />
  );
}
