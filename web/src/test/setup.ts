import { afterEach, beforeEach, vi } from 'vitest';
import { cleanup, configure } from '@testing-library/react';
import { queryClient } from '../api/query-client.ts';
import { resetSessionForTests, setNavigator } from '../api/session.ts';
import { mediaQueryList } from './media.ts';

// Screens load their code on first use: on a busy machine that takes longer than the library's
// default second, so findBy… and waitFor wait for the state for up to five (as a CI run showed).
configure({ asyncUtilTimeout: 5000 });

// Mantine reads these browser APIs that jsdom lacks.
if (!window.matchMedia) window.matchMedia = (query: string) => mediaQueryList(query, false);
(window as { ResizeObserver?: unknown }).ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
};
Element.prototype.scrollIntoView ??= () => {};
// ProseMirror (the rich text editor) measures ranges to scroll the cursor into view.
Range.prototype.getClientRects ??= () => ({ length: 0, item: () => null, [Symbol.iterator]: [][Symbol.iterator] }) as unknown as DOMRectList;
Range.prototype.getBoundingClientRect ??= () => new DOMRect();
// Textarea's autosize listens for web fonts loading.
if (!('fonts' in document))
  Object.defineProperty(document, 'fonts', { value: { addEventListener: () => {}, removeEventListener: () => {} }, configurable: true });

beforeEach(() => {
  localStorage.clear();
  window.history.replaceState(null, '', '/');
  resetSessionForTests();
  setNavigator(() => {});
});

afterEach(() => {
  cleanup();
  queryClient.clear();
  resetSessionForTests();
  vi.useRealTimers();
});
