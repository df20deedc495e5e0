import { describe, expect, it } from 'vitest';
import { formatDecimal } from './numbers.ts';

describe('formatDecimal', () => {
  it('formats decimal strings exactly, by the locale, with every stored decimal', () => {
    expect(formatDecimal('123456789012345.6789', 'en-US')).toBe('123,456,789,012,345.6789');
    expect(formatDecimal('1234.5678', 'en-US')).toBe('1,234.5678');
    expect(formatDecimal('123456809.9995', 'en-US')).toBe('123,456,809.9995');
    expect(formatDecimal('-0.3000', 'en-US')).toBe('-0.3');
    expect(formatDecimal('0.0873912345', 'en-US')).toBe('0.0873912345');
    expect(formatDecimal('123456789012345.6789', 'sv-SE')).toBe('123\u00a0456\u00a0789\u00a0012\u00a0345,6789');
    expect(formatDecimal('1234.5', 'fi-FI')).toBe('1\u00a0234,5');
    expect(formatDecimal(null)).toBe('');
  });
});
