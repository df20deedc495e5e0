import Markdown from 'react-markdown';
import { Paper, Typography } from '@mantine/core';
import type { ScreenProps } from '../../lib/screen.ts';
import userGuide from '../../../../docs/user-guide.md?raw';

/** The user guide (docs/user-guide.md), bundled with the app. */
export function DocsScreen(_props: ScreenProps) {
  return (
    <Paper withBorder radius="md" p="xl" maw={880} bg="white">
      <Typography>
        <Markdown>{userGuide}</Markdown>
      </Typography>
    </Paper>
  );
}
