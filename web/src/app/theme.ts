import { Alert, Badge, type CSSVariablesResolver, createTheme } from '@mantine/core';

export const theme = createTheme({
  primaryColor: 'blue',
  // Filled buttons and light variants' text in the 8th shade: white on blue.6 is 3.5:1, on blue.8 4.9:1 (WCAG AA).
  primaryShade: { light: 8, dark: 8 },
  defaultRadius: 'md',
  fontFamily: 'Inter, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  headings: { fontWeight: '650' },
  // Someone whose system asks for less motion gets dialogs, menus and popovers without their fade
  // and slide (and the e2e browser asks for it: an accessibility check reads a dialog once it is
  // there, never half faded in).
  respectReducedMotion: true,
  components: {
    // A badge (a status, a group, "+1 organization") is never cut to an ellipsis: a squeezed table
    // cell or card widens, or scrolls, instead (checked at 390 px on every screen).
    Badge: Badge.extend({ styles: { root: { flexShrink: 0, minWidth: 'max-content' } } }),
    // An alert's title in its color's text shade (colorTextVariables below): on the light teal, teal.8 is 3.9:1 and teal.9 4.3:1 (WCAG AA asks 4.5:1).
    Alert: Alert.extend({
      styles: (_theme, props) => ({
        title: props.color && props.color in NINTH_SHADE_SHARE ? { color: `var(--mantine-color-${props.color}-text)` } : {},
        // A wide table inside scrolls within the alert instead of widening it past a phone's screen.
        body: { minWidth: 0 },
      }),
    }),
  },
});

/**
 * Colored text (`<Text c="teal">`, a change figure, a coverage) and a light badge's or button's
 * label, at 4.5:1 (WCAG AA) on white, on the page's gray and on the color's own light background:
 * the 9th shade, darkened with black where it is a light color. Mantine's default, the 8th shade
 * (the primary shade), is 3.9:1 for teal, 3.5:1 for green, 3.6:1 for orange and 2.5:1 for yellow.
 * The share of the 9th shade in each (the rest black) was computed for a ratio of at least 4.6:1
 * on `rgba(shade 6, 0.1)` over the page's gray, the lightest background such a label sits on.
 */
const NINTH_SHADE_SHARE: Record<string, number> = {
  dark: 100,
  gray: 100,
  red: 90,
  pink: 100,
  grape: 100,
  violet: 100,
  indigo: 100,
  blue: 100,
  cyan: 90,
  teal: 90,
  green: 80,
  lime: 80,
  yellow: 70,
  orange: 80,
};
/** Colors whose 8th shade behind white text is under 4.5:1 (teal 3.9, cyan 4.4, orange 3.6, green 3.5): a filled button or badge takes the text's color. */
const DARKER_FILL = new Set(['cyan', 'teal', 'green', 'lime', 'yellow', 'orange']);
const colorTextVariables = Object.fromEntries(
  Object.entries(NINTH_SHADE_SHARE).flatMap(([color, share]) => {
    const text = share === 100 ? `var(--mantine-color-${color}-9)` : `color-mix(in srgb, var(--mantine-color-${color}-9) ${share}%, black)`;
    return [
      [`--mantine-color-${color}-text`, text],
      [`--mantine-color-${color}-light-color`, text],
      ...(DARKER_FILL.has(color)
        ? [
            [`--mantine-color-${color}-filled`, text],
            [`--mantine-color-${color}-filled-hover`, `color-mix(in srgb, ${text} 85%, black)`],
          ]
        : []),
    ];
  }),
);

/**
 * Text at WCAG AA contrast (4.5:1) on white and on the page's gray (#f8f9fa): dimmed text (labels,
 * hints, descriptions; Mantine's #868e96 is 3.3:1), field errors, placeholders (#adb5bd, 2.1:1), links
 * (#228be6, 3.4:1) and blue buttons under the pointer.
 */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    ...colorTextVariables,
    '--mantine-color-dimmed': '#5f666d',
    '--mantine-color-placeholder': '#676e75',
    '--mantine-color-anchor': '#1864ab',
    // A field's error (Mantine's red.6 is 3.3:1 on white): the red of colored text.
    '--mantine-color-error': 'var(--mantine-color-red-text)',
    // A light or subtle blue button under the pointer: blue.2 behind its blue.9 text is 4.0:1, blue.1 5.3:1.
    '--mantine-color-blue-light-hover': 'var(--mantine-color-blue-1)',
  },
  dark: {},
});
