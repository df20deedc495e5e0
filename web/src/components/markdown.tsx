import { lazy, Suspense } from 'react';
import { Text, Typography } from '@mantine/core';

/** react-markdown and its parser, loaded the first time some markdown is shown (not with the sign-in screen). */
const Renderer = lazy(() => import('react-markdown'));

/**
 * Markdown written by administrators (release notes, the user guide), rendered as formatted text.
 * react-markdown builds React elements: raw HTML in the text is shown as text, never run. Until
 * the renderer has loaded, the text is shown as it is written.
 */
export function MarkdownText({ children }: { children: string }) {
  return (
    <Suspense fallback={<Text style={{ whiteSpace: 'pre-wrap' }}>{children}</Text>}>
      <Typography>
        <Renderer>{children}</Renderer>
      </Typography>
    </Suspense>
  );
}
