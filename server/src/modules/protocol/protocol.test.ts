import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('GET /protocol/enums/{locale}', () => {
  it('when asked for en-US, then every enumeration with values and labels', async () => {
    const res = await t.app.inject({ url: '/api/v1/protocol/enums/en-US' });
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(Object.keys(data).sort()).toEqual(['code_disabled_status', 'communication_status', 'locale', 'preflight_severity', 'report_status', 'role']);
    expect(data.report_status.values).toEqual({
      ProcessingFile: 10,
      InvalidFile: 11,
      Ongoing: 20,
      ProcessingData: 30,
      WaitingForApproval: 40,
      WaitingForCompletion: 50,
      Approved: 60,
    });
    expect(data.report_status.i18n['40']).toBe('Waiting for approval');
    expect(data.preflight_severity.i18n).toEqual({ '10': 'Success', '20': 'Info', '30': 'Warning', '40': 'Error' });
    expect(data.code_disabled_status.i18n['30']).toBe('All disabled');
    expect(data.communication_status.i18n['2']).toBe('Preflight sent');
    expect(data.role.i18n['cluster-admin']).toBe('Market cluster administrator');
    expect(Object.keys(data.role.values)).toHaveLength(9);
  });

  it('when asked for another of the five languages, then the labels are in it', async () => {
    const res = await t.app.inject({ url: '/api/v1/protocol/enums/sv-SE' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.report_status.i18n['60']).toBe('Godkänd');
  });

  it('when the locale is not supported, then 422', async () => {
    const res = await t.app.inject({ url: '/api/v1/protocol/enums/de-DE' });
    expect(res.statusCode).toBe(422);
  });
});
