import type { QueryKey } from '@tanstack/react-query';
import { Text } from '@mantine/core';
import { AddButton, AdminPage, DeleteButton, EditLink, useDeleteRecord } from './page.tsx';
import { DataTable, type DataTableProps } from './data-table.tsx';

export interface RecordListPageProps<T extends { id: number }, K extends QueryKey> extends Omit<DataTableProps<T, K>, 'label' | 'rowActions'> {
  title: string;
  /** The list's route: add is `${base}/add`, edit `${base}/:id`. */
  base: string;
  /** Deletes a record and names the queries to refresh (see `resourceApi`). */
  api: { remove: (id: number) => Promise<unknown>; keys: { all: readonly unknown[] } };
  /** How a record is named in the delete confirmation. */
  nameOf: (row: T) => string;
  /** Shown read-only (no Add, Edit or Delete), with `notice` saying why. */
  readOnly?: boolean;
  notice?: string;
}

/**
 * The list screen of an administration resource: its table, Add, and Edit and Delete on every row.
 * Lists with other actions or permissions (markets, users, codes) compose the same pieces.
 */
export function RecordListPage<T extends { id: number }, K extends QueryKey = QueryKey>({
  title,
  base,
  api,
  nameOf,
  readOnly,
  notice,
  ...table
}: RecordListPageProps<T, K>) {
  const remove = useDeleteRecord(api.remove, api.keys.all);
  return (
    <AdminPage title={title} actions={readOnly ? undefined : <AddButton to={`${base}/add`} />}>
      {readOnly && notice && (
        <Text size="sm" c="dimmed">
          {notice}
        </Text>
      )}
      <DataTable
        label={title}
        {...table}
        rowActions={
          readOnly
            ? undefined
            : (row) => (
                <>
                  <EditLink to={`${base}/${row.id}`} />
                  <DeleteButton onClick={() => void remove(row.id, nameOf(row))} />
                </>
              )
        }
      />
    </AdminPage>
  );
}
