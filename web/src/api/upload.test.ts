import { describe, expect, it, vi } from 'vitest';
import { ApiError } from './transport.ts';
import { uploadReportFile } from './upload.ts';

/** A stand-in XMLHttpRequest that records the request and answers as told. */
function fakeXhr(answer: { status: number; body: unknown }, progress: [number, number][] = []) {
  const sent: FakeXhr[] = [];
  class FakeXhr {
    method = '';
    url = '';
    headers: Record<string, string> = {};
    withCredentials = false;
    body: unknown = null;
    status = 0;
    responseText = '';
    upload: { onprogress: ((e: { lengthComputable: boolean; loaded: number; total: number }) => void) | null } = { onprogress: null };
    onload: (() => void) | null = null;
    onerror: (() => void) | null = null;
    onabort: (() => void) | null = null;
    open(method: string, url: string) {
      this.method = method;
      this.url = url;
    }
    setRequestHeader(name: string, value: string) {
      this.headers[name.toLowerCase()] = value;
    }
    abort() {
      this.onabort?.();
    }
    send(body: unknown) {
      this.body = body;
      sent.push(this);
      setTimeout(() => {
        for (const [loaded, total] of progress) this.upload.onprogress?.({ lengthComputable: true, loaded, total });
        this.status = answer.status;
        this.responseText = JSON.stringify(answer.body);
        this.onload?.();
      }, 0);
    }
  }
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  return sent;
}

const file = () => new File(['xlsx bytes'], 'report.xlsx');

describe('uploading a report file', () => {
  it('when the server accepts the file, then progress is reported and the import uuid comes back', async () => {
    const sent = fakeXhr({ status: 202, body: { data: { uuid: 'imp-1', status: 'queued' } } }, [
      [5, 10],
      [10, 10],
    ]);
    const progress: number[] = [];

    const accepted = await uploadReportFile('rep-1', file(), { onProgress: (f) => progress.push(f) });

    expect(accepted).toEqual({ uuid: 'imp-1', status: 'queued' });
    expect(progress).toEqual([0.5, 1, 1]);
    const request = sent[0]!;
    expect(request.method).toBe('POST');
    expect(request.url).toBe('/api/v1/reports/rep-1/file');
    expect(request.withCredentials).toBe(true);
    expect(request.headers['x-requested-with']).toBe('XMLHttpRequest');
    expect(request.headers['content-type']).toBeUndefined();
    expect((request.body as FormData).get('file')).toBeInstanceOf(File);
  });

  it('when the server refuses the file, then the error carries its message and field errors', async () => {
    fakeXhr({ status: 422, body: { message: 'The file is too large.', errors: { file: ['The file is too large.'] } } });

    const error = await uploadReportFile('rep-1', file()).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(422);
    expect((error as ApiError).fieldError('file')).toBe('The file is too large.');
  });
});
