import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, FileInput, Group, Progress, Stack } from '@mantine/core';
import { isApiError } from '../api/transport.ts';
import { errorMessage } from './feedback.tsx';
import { Section } from './query-state.tsx';

/** The file types an upload of figures takes (a report's file, an association's history): xlsx or CSV. */
const FIGURE_FILES = '.xlsx,.csv,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/**
 * Choose a file and upload it with a progress bar (a report's file, a history file): `upload` sends
 * it and answers the accepted job's uuid, handed to `onAccepted`. A refusal is said under the field
 * (the server's message for the file, or the request's).
 */
export function FileUploadPanel({
  title,
  label,
  action,
  upload,
  onAccepted,
}: {
  title: string;
  label: string;
  /** The button's label. */
  action: string;
  upload: (file: File, onProgress: (fraction: number) => void) => Promise<{ uuid: string }>;
  onAccepted: (uuid: string) => void | Promise<void>;
}) {
  const { t } = useTranslation();
  const [file, setFile] = useState<File | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const send = async () => {
    if (!file) return;
    setError(null);
    setProgress(0);
    try {
      const accepted = await upload(file, setProgress);
      setFile(null);
      await onAccepted(accepted.uuid);
    } catch (e) {
      setError(isApiError(e) && e.errors.file?.[0] ? e.errors.file[0] : errorMessage(e));
    } finally {
      setProgress(null);
    }
  };
  const uploading = progress !== null;
  return (
    <Section title={title}>
      <Stack gap="xs">
        <Group align="flex-end">
          <FileInput
            label={label}
            description={t('reporting.import.file_help')}
            placeholder={t('reporting.import.choose_file')}
            accept={FIGURE_FILES}
            value={file}
            onChange={setFile}
            clearable
            disabled={uploading}
            error={error}
            w={360}
            maw="100%"
          />
          <Button onClick={() => void send()} disabled={!file} loading={uploading}>
            {action}
          </Button>
        </Group>
        {uploading && (
          <Progress value={Math.round(progress * 100)} aria-label={t('reporting.import.progress')} role="progressbar" data-testid="upload-progress" animated />
        )}
      </Stack>
    </Section>
  );
}
