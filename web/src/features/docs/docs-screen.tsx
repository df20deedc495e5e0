import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import Markdown from 'react-markdown';
import { Paper, Typography } from '@mantine/core';
import type { Locale } from '@mss/contracts/enums';
import type { ScreenProps } from '../../lib/screen.ts';
import { QueryState } from '../../components/query-state.tsx';

/** The user guide in each language (docs/user-guide*.md), each loaded when it is read. */
const guides: Record<Locale, () => Promise<{ default: string }>> = {
  'en-US': () => import('../../../../docs/user-guide.md?raw'),
  'sv-SE': () => import('../../../../docs/user-guide.sv-SE.md?raw'),
  'fi-FI': () => import('../../../../docs/user-guide.fi-FI.md?raw'),
  'dk-DK': () => import('../../../../docs/user-guide.dk-DK.md?raw'),
  'no-NO': () => import('../../../../docs/user-guide.no-NO.md?raw'),
};

/**
 * A code block scrolls sideways inside the guide's column; it can take the focus, so that a
 * keyboard scrolls it too (WCAG 2.1.1).
 */
function Pre({ node: _node, ...props }: React.ComponentProps<'pre'> & { node?: unknown }) {
  return <pre tabIndex={0} {...props} />;
}

/** The user guide, in the reader's language. */
export function DocsScreen(_props: ScreenProps) {
  const { i18n } = useTranslation();
  const locale = (i18n.language in guides ? i18n.language : 'en-US') as Locale;
  const guide = useQuery({ queryKey: ['user-guide', locale], queryFn: () => guides[locale]().then((m) => m.default), staleTime: Infinity });
  return (
    <Paper withBorder radius="md" p="xl" maw={880} bg="white">
      <QueryState query={guide}>
        {(text) => (
          <Typography>
            <Markdown components={{ pre: Pre }}>{text}</Markdown>
          </Typography>
        )}
      </QueryState>
    </Paper>
  );
}
