import { useTranslation } from 'react-i18next';
import { ScrollArea, Stack, Table, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { fileErrorHint } from './file-error-hint.ts';

/** An error of a file (a report's, a history's): its row, code (a report's), column as the file names it, the cell as read, the message. */
export interface FileError {
  row: number | null;
  code?: string | null;
  /** The message's key, where known: it decides the hint of what to do (file-error-hint.ts). */
  key?: string | null;
  message: string;
  column: { letter: string; name: string; cell: string | null } | null;
}

/**
 * A file's errors (at most the first 100): an error of the whole file (no row, no column) as a
 * sentence; the rows' errors in a box of their own so that the rest of the screen stays in reach:
 * a table, or on a phone one entry per error (where, then the message). Beside a message, what to
 * do, where the message does not say it. The box is focusable, so that a keyboard scrolls it
 * (WCAG 2.1.1). `withCode`: a report file's errors name the row's code in a column of its own.
 */
export function FileErrors({ errors, withCode = false, testId }: { errors: readonly FileError[]; withCode?: boolean; testId: string }) {
  const wholeFile = errors.filter((error) => error.row === null && error.column === null);
  const rows = errors.filter((error) => error.row !== null || error.column !== null);
  return (
    <Stack gap="xs" data-testid={testId}>
      {wholeFile.map((error, i) => (
        <Text key={i} size="sm">
          {error.message}
          <Hint error={error} />
        </Text>
      ))}
      {rows.length > 0 && <RowErrors errors={rows} withCode={withCode} />}
    </Stack>
  );
}

function Hint({ error }: { error: FileError }) {
  const { t } = useTranslation();
  const hint = fileErrorHint(error, t);
  return hint ? (
    <Text span display="block" size="sm" fw={600} data-testid="file-error-hint">
      {t('reporting.import.what_to_do')}: {hint}
    </Text>
  ) : null;
}

function RowErrors({ errors, withCode }: { errors: readonly FileError[]; withCode: boolean }) {
  const { t } = useTranslation();
  const phone = useMediaQuery('(max-width: 40em)');
  return (
    <ScrollArea.Autosize mah={420} type="auto" offsetScrollbars viewportProps={{ tabIndex: 0, 'aria-label': t('reporting.import.errors') }}>
      {phone ? (
        <Stack gap="xs" bg="var(--mantine-color-body)" p="xs" style={{ borderRadius: 4 }}>
          {errors.map((error, i) => (
            <Stack key={i} gap={0}>
              <Text size="xs" c="dimmed">
                {[
                  error.row !== null ? t('reporting.import.row_number', { row: error.row }) : null,
                  withCode ? error.code : null,
                  error.column ? `${error.column.name} (${error.column.letter}): ${error.column.cell ?? t('reporting.import.cell_empty')}` : null,
                ]
                  .filter(Boolean)
                  .join(' · ')}
              </Text>
              <Text size="sm">{error.message}</Text>
              <Hint error={error} />
            </Stack>
          ))}
        </Stack>
      ) : (
        <Table withTableBorder stickyHeader aria-label={t('reporting.import.errors')} bg="var(--mantine-color-body)">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('reporting.import.row')}</Table.Th>
              {withCode && <Table.Th>{t('reporting.rows.code')}</Table.Th>}
              <Table.Th>{t('reporting.import.column')}</Table.Th>
              <Table.Th>{t('reporting.import.cell')}</Table.Th>
              <Table.Th>{t('reporting.import.message')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {errors.map((error, i) => (
              <Table.Tr key={i}>
                <Table.Td>{error.row ?? ''}</Table.Td>
                {withCode && <Table.Td>{error.code ?? ''}</Table.Td>}
                {/* The column as the file names it (its letter beside), and what the cell held, as read. */}
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{error.column ? `${error.column.name} (${error.column.letter})` : ''}</Table.Td>
                <Table.Td>
                  {error.column?.cell ? (
                    <Text span ff="monospace" size="sm">
                      {error.column.cell}
                    </Text>
                  ) : error.column ? (
                    <Text span c="dimmed" size="sm">
                      {t('reporting.import.cell_empty')}
                    </Text>
                  ) : (
                    ''
                  )}
                </Table.Td>
                <Table.Td>
                  {error.message}
                  <Hint error={error} />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </ScrollArea.Autosize>
  );
}
