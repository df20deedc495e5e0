import { describe, expect, it } from 'vitest';
import { preflightFindings, type PreflightRow } from './preflight.service.ts';

const row = (code_id: number, volume: number | null, value: number | null): PreflightRow => ({ code_id, code: String(1000 + code_id), name: `Code ${code_id}`, volume, value });

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
    expect(findings.map((f) => [f.severity, f.params.field, f.params.percent])).toEqual([
      [20, 'volume', 21],
      [20, 'value', 50],
    ]);
  });

  it('orders findings from the most severe', () => {
    const findings = preflightFindings([row(1, 500, 100)], { title: 'P', rows: [row(1, 100, 100), row(2, 1, 1)] }, 20);
    expect(findings.map((f) => f.severity)).toEqual([30, 20]);
  });
});
