import { useTranslation } from 'react-i18next';
import type { Import } from '@mss/contracts/imports';
import type { ScreenProps } from '../../lib/screen.ts';
import { AdminPage } from '../../components/page.tsx';
import { DataTable } from '../../components/data-table.tsx';
import { importKeys, importQueries } from './api/imports.ts';
import { ImportActions, importColumns } from './import-columns.tsx';

/** /history/import — the imports of the reports the user may see: paged, sorted and searched, newest first. */
export function ImportHistoryScreen({ title }: ScreenProps) {
  const { t } = useTranslation();
  return (
    <AdminPage title={title}>
      <DataTable<Import, ReturnType<typeof importKeys.importList>>
        label={title}
        rowKey={(item) => item.uuid}
        defaultSort={{ sort: 'created_at', direction: 'desc' }}
        query={(params) => importQueries.imports(params)}
        columns={importColumns(t, { withReport: true })}
        rowActions={(item) => <ImportActions item={item} withReport />}
      />
    </AdminPage>
  );
}
