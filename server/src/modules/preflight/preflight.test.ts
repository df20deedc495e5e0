import { describe, expect, it } from 'vitest';
import { translate } from '@mss/contracts/messages';
import { preflightFindings, type PreflightRow } from './preflight.service.ts';

const text = (n: number | string | null) => (n === null ? null : String(n));
const row = (code_id: number, volume: number | string | null, value: number | string | null): PreflightRow => ({
  code_id,
  code: String(1000 + code_id),
  name: `Code ${code_id}`,
  volume: text(volume),
  value: text(value),
});

describe('preflight checks', () => {
  it('when the report is empty, then an Error', () => {
    expect(preflightFindings([], null, 20)).toEqual([{ severity: 40, key: 'preflight.empty', params: {} }]);
  });

  it('when there is nothing to compare with, then Success', () => {
    expect(preflightFindings([row(1, 5, 5)], null, 20)).toEqual([{ severity: 10, key: 'preflight.ok', params: {} }]);
  });

  it('when codes of the previous report are missing, then a Warning each', () => {
    const findings = preflightFindings([row(1, 5, 5)], { title: 'P', rows: [row(1, 5, 5), row(2, 1, 1), row(3, 1, 1)] }, 20);
    expect(findings.map((f) => [f.severity, f.params.code])).toEqual([
      [30, '1002'],
      [30, '1003'],
    ]);
  });

  it('when a value moves more than the threshold, then Info; at the threshold or from zero, nothing', () => {
    const previous = { title: 'P', rows: [row(1, 100, 100), row(2, 0, 100)] };
    expect(preflightFindings([row(1, 120, 100), row(2, 50, 100)], previous, 20)).toEqual([{ severity: 10, key: 'preflight.ok', params: {} }]);
    const findings = preflightFindings([row(1, 121, 50), row(2, 50, 100)], previous, 20);
    // The larger change first.
    expect(findings.map((f) => [f.severity, f.params.field, f.params.percent])).toEqual([
      [20, 'value', 50],
      [20, 'volume', 21],
    ]);
  });

  it('when a change is five times the threshold or more, then it is a Warning, ranked above the smaller changes', () => {
    const previous = { title: 'P', rows: [row(1, 100, 100), row(2, 100, 100)] };
    // +3,370 % and +21 % against 20 %: the first is a Warning (over 100 %), the second Info; exactly 100 % stays Info.
    const findings = preflightFindings([row(1, 3470, 200), row(2, 121, 100)], previous, 20);
    expect(findings.map((f) => [f.severity, f.params.code, f.params.field, f.params.percent])).toEqual([
      [30, '1001', 'volume', 3370],
      [20, '1001', 'value', 100],
      [20, '1002', 'volume', 21],
    ]);
    // A threshold of 0 reports every change, as Info.
    expect(preflightFindings([row(1, 3470, 100)], { title: 'P', rows: [row(1, 100, 100)] }, 0).map((f) => f.severity)).toEqual([20]);
  });

  it('when the change is just over or at a fractional threshold, then it is decided exactly (no float)', () => {
    // 0.1 → 0.1125 is exactly 12.5 %: at the threshold, so nothing; 0.11251 would be over, but
    // 4 decimals are stored, so 0.1126 (12.6 %) is the next step and is reported, rounded to 13.
    const previous = { title: 'P', rows: [row(1, '0.1000', '123456789012345.6789')] };
    expect(preflightFindings([row(1, '0.1125', '123456789012345.6789')], previous, 12.5)).toEqual([{ severity: 10, key: 'preflight.ok', params: {} }]);
    const findings = preflightFindings([row(1, '0.1126', '138888887638888.8888')], previous, 12.5);
    expect(findings.map((f) => [f.params.field, f.params.percent])).toEqual([
      ['volume', 13],
      ['value', 13],
    ]);
  });

  it('when a figure rose or fell past the threshold, then the finding says which, in the catalogue text', () => {
    const previous = { title: '2026-09', rows: [row(1, 100, 100)] };
    const findings = preflightFindings([row(1, 8, 150)], previous, 20);
    expect(findings.map((f) => [f.key, translate(f.key, f.params)])).toEqual([
      ['preflight.deviation_fall', 'Code 1001 (Code 1): volume fell by 92 % against 2026-09.'],
      ['preflight.deviation_rise', 'Code 1001 (Code 1): value rose by 50 % against 2026-09.'],
    ]);
  });

  it('when a volume or value is negative, then a Warning naming it; past fifty, one more says how many are left', () => {
    const findings = preflightFindings([row(1, '-3.5', 10), row(2, 4, '-0.0001')], null, 20);
    expect(findings.map((f) => [f.severity, translate(f.key, f.params)])).toEqual([
      [30, 'Code 1001 (Code 1) has a negative volume (-3.5). Is it a return or a correction? Check it before you submit.'],
      [30, 'Code 1002 (Code 2) has a negative value (-0.0001). Is it a return or a correction? Check it before you submit.'],
    ]);
    const many = preflightFindings(
      Array.from({ length: 60 }, (_, i) => row(i + 1, -1, 1)),
      null,
      20,
    );
    expect(many.filter((f) => f.key === 'preflight.negative')).toHaveLength(50);
    expect(many.at(-1)).toEqual({ severity: 30, key: 'preflight.negative_more', params: { count: 10 } });
    // From the database: the first rows and the count of all.
    const counted = preflightFindings([row(0, null, null)], null, 20, { rows: [row(7, -1, -2)], total: 80 });
    expect(counted.map((f) => f.key)).toEqual(['preflight.negative', 'preflight.negative', 'preflight.negative_more']);
    expect(counted[2]!.params).toEqual({ count: 78 });
  });

  it('when the report equals the previous one code by code (in any order, "12.5" as "12.5000"), then a Warning says so; one figure apart, not', () => {
    const previous = { title: '2026-09', rows: [row(1, '12.5000', 100), row(2, null, 7)] };
    const findings = preflightFindings([row(2, null, '7.0'), row(1, '12.5', 100)], previous, 20);
    expect(findings.map((f) => [f.severity, f.key, translate(f.key, f.params)])).toEqual([
      [
        30,
        'preflight.identical',
        'The report is identical to 2026-09: every code with the same volume and value. Was it copied without the new figures? Check it before you submit.',
      ],
    ]);
    expect(preflightFindings([row(1, '12.5', 100), row(2, '0', 7)], previous, 20).map((f) => f.key)).toEqual(['preflight.ok']);
    expect(preflightFindings([row(1, '12.5', 100)], previous, 20).map((f) => f.key)).toEqual(['preflight.missing_code']);
  });

  it('orders findings from the most severe', () => {
    const findings = preflightFindings([row(1, 500, 100)], { title: 'P', rows: [row(1, 100, 100), row(2, 1, 1)] }, 20);
    expect(findings.map((f) => f.severity)).toEqual([30, 30]);
    expect(preflightFindings([row(1, 150, 100)], { title: 'P', rows: [row(1, 100, 100), row(2, 1, 1)] }, 20).map((f) => f.severity)).toEqual([30, 20]);
  });
});
