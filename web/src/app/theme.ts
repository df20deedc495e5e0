import { Alert, Badge, type CSSVariablesResolver, createTheme } from '@mantine/core';

export const theme = createTheme({
  primaryColor: 'blue',
  // Filled buttons and light variants' text in the 8th shade: white on blue.6 is 3.5:1, on blue.8 4.9:1 (WCAG AA).
  primaryShade: { light: 8, dark: 8 },
  defaultRadius: 'md',
  fontFamily: 'Inter, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  headings: { fontWeight: '650' },
  components: {
    // A badge (a status, a group, "+1 organization") is never cut to an ellipsis: a squeezed table
    // cell or card widens, or scrolls, instead (issue 11, checked at 390 px on every screen).
    Badge: Badge.extend({ styles: { root: { flexShrink: 0, minWidth: 'max-content' } } }),
    // An alert's title in its color darkened past the 9th shade: on the light teal, teal.8 is 3.9:1 and teal.9 4.3:1 (WCAG AA asks 4.5:1).
    Alert: Alert.extend({
      styles: (_theme, props) => ({
        title: props.color ? { color: `color-mix(in srgb, var(--mantine-color-${props.color}-9) 80%, black)` } : {},
        // A wide table inside scrolls within the alert instead of widening it past a phone's screen.
        body: { minWidth: 0 },
      }),
    }),
  },
});

/**
 * Text at WCAG AA contrast (4.5:1) on white and on the page's gray (#f8f9fa): dimmed text (labels,
 * hints, descriptions; Mantine's #868e96 is 3.3:1), placeholders (#adb5bd, 2.1:1), links
 * (#228be6, 3.4:1) and blue buttons under the pointer.
 */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': '#5f666d',
    '--mantine-color-placeholder': '#676e75',
    '--mantine-color-anchor': '#1864ab',
    // A light or subtle blue button under the pointer: blue.2 behind its blue.9 text is 4.0:1, blue.1 5.3:1.
    '--mantine-color-blue-light-hover': 'var(--mantine-color-blue-1)',
  },
  dark: {},
});
