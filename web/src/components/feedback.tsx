import { type ReactNode, useSyncExternalStore } from 'react';
import { Box, Button, Group, LoadingOverlay, Stack, Text, ThemeIcon } from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { translate } from '@mss/contracts/messages';
import { isApiError } from '../api/http.ts';
import { i18n } from '../i18n/index.ts';

/**
 * The global feedback of docs/product.md §1, usable from any screen (`useFeedback()`) or from plain code
 * (`feedback`): error, success and confirm modals, toasts and a loading overlay.
 */

export function errorMessage(error: unknown): string {
  if (isApiError(error)) return error.message;
  return translate('generic.error');
}

function messageModal(kind: 'error' | 'success', message: ReactNode, title?: ReactNode): Promise<void> {
  return new Promise((resolve) => {
    const color = kind === 'error' ? 'red' : 'teal';
    const id = modals.open({
      title: (
        <Group gap="xs">
          <ThemeIcon color={color} variant="light" radius="xl" size="sm">
            <Text fw={700} size="xs">
              {kind === 'error' ? '!' : '✓'}
            </Text>
          </ThemeIcon>
          <Text fw={600}>{title ?? i18n.t(kind === 'error' ? 'feedback.error_title' : 'feedback.success_title')}</Text>
        </Group>
      ),
      centered: true,
      closeButtonProps: { 'aria-label': i18n.t('feedback.dismiss') },
      onClose: () => resolve(),
      children: (
        <Stack>
          <Text>{message}</Text>
          <Group justify="flex-end">
            <Button color={color} onClick={() => modals.close(id)}>
              {i18n.t('feedback.ok')}
            </Button>
          </Group>
        </Stack>
      ),
    });
  });
}

export interface ConfirmOptions {
  title?: ReactNode;
  message: ReactNode;
  confirmLabel?: string;
  cancelLabel?: string;
  /** A destructive action: the confirm button is red. */
  danger?: boolean;
}

// --- Loading overlay: a counter, so overlapping tasks keep it up until the last one ends. ---
let loadingCount = 0;
const loadingListeners = new Set<() => void>();
const setLoading = (delta: number) => {
  loadingCount = Math.max(0, loadingCount + delta);
  for (const listener of loadingListeners) listener();
};

const dismiss = () => ({ 'aria-label': i18n.t('feedback.dismiss') });

export const feedback = {
  error: (message: ReactNode, title?: ReactNode) => messageModal('error', message, title),
  /** The error modal with the message of any thrown error (ApiError or not). */
  errorOf: (error: unknown) => messageModal('error', errorMessage(error)),
  success: (message: ReactNode, title?: ReactNode) => messageModal('success', message, title),
  confirm: (options: ConfirmOptions): Promise<boolean> =>
    new Promise((resolve) => {
      modals.openConfirmModal({
        title: options.title ?? i18n.t('feedback.confirm_title'),
        centered: true,
        // A sentence in a paragraph; anything richer (lists, alerts) in a block of its own.
        children: typeof options.message === 'string' ? <Text>{options.message}</Text> : <Box>{options.message}</Box>,
        labels: { confirm: options.confirmLabel ?? i18n.t('feedback.confirm'), cancel: options.cancelLabel ?? i18n.t('feedback.cancel') },
        // red.9: white text on it has AA contrast (red.6 has 3.2:1).
        confirmProps: options.danger ? { color: 'red.9' } : undefined,
        closeButtonProps: { 'aria-label': i18n.t('feedback.dismiss') },
        onConfirm: () => resolve(true),
        onCancel: () => resolve(false),
        onClose: () => resolve(false),
      });
    }),
  // A toast's close button is named (axe: button-name), in the language of the moment.
  toast: (message: ReactNode, options: { title?: ReactNode; color?: 'blue' | 'teal' | 'red' | 'yellow' } = {}) => {
    notifications.show({ message, title: options.title, color: options.color ?? 'blue', autoClose: 5000, closeButtonProps: dismiss() });
  },
  toastError: (error: unknown) => {
    notifications.show({ message: errorMessage(error), color: 'red', title: i18n.t('feedback.error_title'), autoClose: 7000, closeButtonProps: dismiss() });
  },
  loading: {
    show: () => setLoading(1),
    hide: () => setLoading(-1),
    /** Shows the overlay while the promise runs. */
    async during<T>(work: Promise<T> | (() => Promise<T>)): Promise<T> {
      setLoading(1);
      try {
        return await (typeof work === 'function' ? work() : work);
      } finally {
        setLoading(-1);
      }
    },
  },
};

export type Feedback = typeof feedback;

export function useFeedback(): Feedback {
  return feedback;
}

function subscribeLoading(listener: () => void) {
  loadingListeners.add(listener);
  return () => loadingListeners.delete(listener);
}

export function GlobalLoadingOverlay() {
  const count = useSyncExternalStore(subscribeLoading, () => loadingCount);
  return (
    <LoadingOverlay
      visible={count > 0}
      pos="fixed"
      zIndex={1000}
      overlayProps={{ blur: 1, backgroundOpacity: 0.35 }}
      loaderProps={{ type: 'bars' }}
      data-testid="loading-overlay"
    />
  );
}
