import type { ScreenProps } from '../lib/screen.ts';
import type { ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { type QueryKey, useMutation, useQuery, useQueryClient, type UseQueryOptions } from '@tanstack/react-query';
import { Alert, Anchor, Button, Center, Group, Loader, Paper, Stack, Title } from '@mantine/core';
import { errorMessage, feedback } from './feedback.tsx';
import { useCanOpen } from '../lib/route-access.ts';

/** The frame of every administration screen: heading, actions on the right, content. */
export function AdminPage({ title, actions, back, children }: { title: string; actions?: ReactNode; back?: string; children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <Stack gap="md" maw={1200}>
      {back && (
        <Anchor component={Link} to={back} size="sm">
          ← {t('admin.back')}
        </Anchor>
      )}
      <Group justify="space-between" align="center">
        <Title order={1} fz="h2">
          {title}
        </Title>
        {actions && <Group gap="sm">{actions}</Group>}
      </Group>
      {children}
    </Stack>
  );
}

/** Add: offered only to those who may open (and so save) the add screen. */
export function AddButton({ to, label, variant, size }: { to: string; label?: string; variant?: string; size?: string }) {
  const { t } = useTranslation();
  const canOpen = useCanOpen();
  if (!canOpen(to)) return null;
  return (
    <Button component={Link} to={to} variant={variant} size={size}>
      {label ?? t('admin.add')}
    </Button>
  );
}

/** A form in a card. */
export function FormCard({ children }: { children: ReactNode }) {
  return (
    <Paper withBorder radius="md" p="lg" maw={820}>
      {children}
    </Paper>
  );
}

/** Loads one record and renders its screen; a loader meanwhile, the error if it fails. */
export function RecordLoader<T, K extends QueryKey>({ query, children }: { query: UseQueryOptions<T, Error, T, K>; children: (record: T) => ReactNode }) {
  const result = useQuery({ ...query, meta: { handlesErrors: true } });
  if (result.isPending)
    return (
      <Center py="xl">
        <Loader />
      </Center>
    );
  if (result.isError)
    return (
      <Alert color="red" role="alert">
        {errorMessage(result.error)}
      </Alert>
    );
  return <>{children(result.data)}</>;
}

/** Save and cancel (back to the list); Delete when the record exists. */
export function FormActions({ saving, cancelTo, onDelete, deleteLabel }: { saving: boolean; cancelTo: string; onDelete?: () => void; deleteLabel?: string }) {
  const { t } = useTranslation();
  return (
    <Group justify="space-between" mt="md">
      <Group gap="sm">
        <Button type="submit" loading={saving}>
          {t('admin.save')}
        </Button>
        <Button component={Link} to={cancelTo} variant="default">
          {t('feedback.cancel')}
        </Button>
      </Group>
      {onDelete && (
        <Button color="red" variant="light" onClick={onDelete}>
          {deleteLabel ?? t('admin.delete')}
        </Button>
      )}
    </Group>
  );
}

/** Edit: offered only to those who may open (and so save) the edit screen. */
export function EditLink({ to }: { to: string }) {
  const { t } = useTranslation();
  const canOpen = useCanOpen();
  if (!canOpen(to)) return null;
  return (
    <Button component={Link} to={to} size="xs" variant="light">
      {t('admin.edit')}
    </Button>
  );
}

/**
 * Deleting a record: the global confirm modal first, then the call; the server's refusal
 * (409 "… is still in use and cannot be deleted.") is shown in the error modal.
 * Resolves true when the record was deleted.
 */
export function useDeleteRecord(remove: (id: number) => Promise<unknown>, invalidateKey: readonly unknown[]) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const mutation = useMutation({ mutationFn: remove, meta: { handlesErrors: true } });
  /** `wording` replaces the confirmation, its button and the toast (removing rather than deleting). */
  return async (id: number, name: string, wording?: { confirm: string; button: string; done: string }): Promise<boolean> => {
    const confirmed = await feedback.confirm({
      message: wording?.confirm ?? t('admin.delete_confirm', { name }),
      confirmLabel: wording?.button ?? t('admin.delete'),
      danger: true,
    });
    if (!confirmed) return false;
    try {
      await feedback.loading.during(mutation.mutateAsync(id));
    } catch (error) {
      await feedback.errorOf(error);
      return false;
    }
    feedback.toast(wording?.done ?? t('admin.deleted', { name }), { color: 'teal' });
    // The deleted record is dropped, not refetched (its screen may still be open).
    client.removeQueries({ queryKey: [...invalidateKey, 'detail', id] });
    await client.invalidateQueries({ queryKey: invalidateKey });
    return true;
  };
}

export function DeleteButton({ onClick, label }: { onClick: () => void; label?: string }) {
  const { t } = useTranslation();
  return (
    <Button size="xs" variant="subtle" color="red" onClick={onClick}>
      {label ?? t('admin.delete')}
    </Button>
  );
}

/** After a successful save: a toast, then back to the list (or wherever `to` says). */
export function useSaved() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (name: string, to: string) => {
    feedback.toast(t('admin.saved', { name }), { color: 'teal' });
    void navigate(to);
  };
}

/** Create or update, by whether the record has an id yet. */
export function useSaveRecord<T, I>(
  api: {
    useCreate: () => { mutateAsync: (input: I) => Promise<T>; isPending: boolean };
    useUpdate: () => { mutateAsync: (v: { id: number; input: I }) => Promise<T>; isPending: boolean };
  },
  id: number | undefined,
) {
  const create = api.useCreate();
  const update = api.useUpdate();
  return {
    saving: create.isPending || update.isPending,
    save: (input: I): Promise<T> => (id === undefined ? create.mutateAsync(input) : update.mutateAsync({ id, input })),
  };
}

/**
 * The add and edit screens of an administration resource: the same form, empty on add and
 * loaded with the record (by the route's :id) on edit.
 */
export function recordScreens<T, K extends QueryKey>(back: string, oneQuery: (id: number) => UseQueryOptions<T, Error, T, K>, form: (record?: T) => ReactNode) {
  function AddScreen({ title }: ScreenProps) {
    return (
      <AdminPage title={title} back={back}>
        {form()}
      </AdminPage>
    );
  }
  function EditScreen({ title, params }: ScreenProps) {
    return (
      <AdminPage title={title} back={back}>
        <RecordLoader key={params.id} query={oneQuery(Number(params.id))}>
          {(record) => form(record)}
        </RecordLoader>
      </AdminPage>
    );
  }
  return { AddScreen, EditScreen };
}
