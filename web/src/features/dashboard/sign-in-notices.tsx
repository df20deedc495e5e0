import { useTranslation } from 'react-i18next';
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useActiveInformationModals, useDismissInformationModal, useUnreadReleases, useViewRelease } from './api/notices.ts';
import { formatDate } from '../../lib/dates.ts';
import { MarkdownText } from '../../components/markdown.tsx';

/**
 * After sign-in the dashboard shows, one at a time, the active information modals of the
 * user's organization and then the release notes the user has not read. Closing one dismisses
 * it (POST /information-modals/{id}/dismiss) or marks it read (POST /releases/{id}/view).
 * A super-admin's session has no organization: no information modals.
 */
export function SignInNotices({ hasOrganization }: { hasOrganization: boolean }) {
  const { t } = useTranslation();
  const modals = useActiveInformationModals(hasOrganization);
  const releases = useUnreadReleases();
  const dismiss = useDismissInformationModal();
  const view = useViewRelease();

  // One at a time, in order: nothing until both lists are known, so that release notes never
  // open first and then give way to an information modal that answered later.
  if ((hasOrganization && modals.isPending) || releases.isPending) return null;
  const modal = modals.data?.[0];
  const release = modal ? undefined : releases.data?.[0];
  if (modal) {
    const close = () => dismiss.mutate(modal.id);
    return (
      <Modal
        opened
        onClose={close}
        title={<Text fw={700}>{modal.title}</Text>}
        centered
        size="lg"
        data-testid="information-modal"
        closeButtonProps={{ 'aria-label': t('common.close') }}
      >
        <Stack>
          <Text style={{ whiteSpace: 'pre-wrap' }}>{modal.body}</Text>
          <Group justify="flex-end">
            <Button onClick={close} loading={dismiss.isPending}>
              {t('notices.dismiss')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    );
  }
  if (release) {
    const close = () => view.mutate(release.id);
    return (
      <Modal
        opened
        onClose={close}
        title={<Text fw={700}>{t('notices.release_title', { version: release.version })}</Text>}
        centered
        size="lg"
        data-testid="release-notes"
        closeButtonProps={{ 'aria-label': t('common.close') }}
      >
        <Stack>
          <Text size="sm" c="dimmed">
            {t('notices.release_date', { date: formatDate(release.release_date) })}
          </Text>
          {release.title && <Text fw={600}>{release.title}</Text>}
          {/* Rendered: the renderer is its own lazy chunk, loaded only when notes are shown. */}
          <MarkdownText>{release.notes}</MarkdownText>
          <Group justify="flex-end">
            <Button onClick={close} loading={view.isPending}>
              {t('notices.mark_read')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    );
  }
  // Nothing (more) to show: said in the page, so that a test waits for this state, not for time.
  return <span hidden data-testid="notices-done" />;
}
