import { Badge, createTheme } from '@mantine/core';

export const theme = createTheme({
  primaryColor: 'blue',
  defaultRadius: 'md',
  fontFamily: 'Inter, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  headings: { fontWeight: '650' },
  components: {
    // A badge (a status, a group, "+1 organization") is never cut to an ellipsis: a squeezed table
    // cell or card widens, or scrolls, instead (issue 11, checked at 390 px on every screen).
    Badge: Badge.extend({ styles: { root: { flexShrink: 0, minWidth: 'max-content' } } }),
  },
});
