import { vi } from 'vitest';

/** A MediaQueryList that answers `matches` (jsdom has no layout, so no media query of its own). */
export const mediaQueryList = (query: string, matches: boolean) =>
  ({
    matches,
    media: query,
    onchange: null,
    addListener: () => {},
    removeListener: () => {},
    addEventListener: () => {},
    removeEventListener: () => {},
    dispatchEvent: () => false,
  }) as MediaQueryList;

/** The screen is a phone until the test's mocks are restored: every max-width query matches. */
export function atPhoneWidth(): void {
  vi.spyOn(window, 'matchMedia').mockImplementation((query: string) => mediaQueryList(query, query.includes('max-width')));
}
