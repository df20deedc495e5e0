import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, Group, Modal, Stack, Textarea } from '@mantine/core';

/** A modal asking for an optional comment before a status change; resolves with it. */
export function CommentModal({
  opened,
  title,
  description,
  commentLabel,
  confirmLabel,
  required = false,
  busy = false,
  onCancel,
  onConfirm,
}: {
  opened: boolean;
  title: string;
  /** What the change does, above the comment. */
  description?: ReactNode;
  /** The comment field's label ("Comment" when not given). */
  commentLabel?: string;
  confirmLabel: string;
  required?: boolean;
  busy?: boolean;
  onCancel: () => void;
  onConfirm: (comment: string) => void;
}) {
  const { t } = useTranslation();
  const [comment, setComment] = useState('');
  const [error, setError] = useState<string | null>(null);
  const close = () => {
    setComment('');
    setError(null);
    onCancel();
  };
  return (
    <Modal opened={opened} onClose={close} title={title} centered closeButtonProps={{ 'aria-label': t('common.close') }}>
      <Stack>
        {description}
        <Textarea
          label={commentLabel ?? t('reporting.comment')}
          value={comment}
          error={error}
          autosize
          minRows={3}
          onChange={(e) => setComment(e.currentTarget.value)}
          data-autofocus
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            {t('feedback.cancel')}
          </Button>
          <Button
            loading={busy}
            onClick={() => {
              if (required && !comment.trim()) {
                setError(t('reporting.comment_required'));
                return;
              }
              onConfirm(comment.trim());
              setComment('');
              setError(null);
            }}
          >
            {confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
