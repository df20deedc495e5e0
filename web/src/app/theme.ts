import { Badge, type CSSVariablesResolver, createTheme } from '@mantine/core';

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

/**
 * Text at WCAG AA contrast (4.5:1) on white and on the page's gray (#f8f9fa): dimmed text (labels,
 * hints, descriptions; Mantine's #868e96 is 3.3:1), placeholders (#adb5bd, 2.1:1) and links
 * (#228be6, 3.4:1).
 */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: { '--mantine-color-dimmed': '#5f666d', '--mantine-color-placeholder': '#676e75', '--mantine-color-anchor': '#1864ab' },
  dark: {},
});
