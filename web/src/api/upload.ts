import { translate } from '@mss/contracts/messages';
import { ensureFreshSession, handleUnauthorized } from './session.ts';
import { ApiError, buildHeaders, buildUrl } from './transport.ts';

export interface UploadOptions {
  /** Called with the fraction sent, 0..1. */
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
}

export interface UploadAccepted {
  /** The import's uuid, to poll (GET /imports/{uuid}, GET /history-imports/{uuid}). */
  uuid: string;
  status: string;
}

function parse(text: string): unknown {
  try {
    return text ? (JSON.parse(text) as unknown) : null;
  } catch {
    return text;
  }
}

/** POST /reports/{uuid}/file: a report's file (see `uploadFile`). */
export const uploadReportFile = (reportUuid: string, file: File, options: UploadOptions = {}) => uploadFile(`reports/${reportUuid}/file`, file, options);

/**
 * A file (multipart field "file") posted with XMLHttpRequest, the one way a browser reports
 * upload progress. Same as the api client: session refresh first, the same headers
 * (X-Requested-With, Accept-Language), credentials, ApiError on failure, a 401 signs out.
 */
export async function uploadFile(path: string, file: File, options: UploadOptions = {}): Promise<UploadAccepted> {
  await ensureFreshSession();
  const body = new FormData();
  body.append('file', file, file.name);
  try {
    return await new Promise<UploadAccepted>((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open('POST', buildUrl(path));
      xhr.withCredentials = true;
      buildHeaders(body).forEach((value, name) => xhr.setRequestHeader(name, value));
      xhr.upload.onprogress = (event) => {
        if (event.lengthComputable && event.total > 0) options.onProgress?.(event.loaded / event.total);
      };
      xhr.onload = () => {
        const parsed = parse(xhr.responseText);
        if (xhr.status >= 200 && xhr.status < 300) {
          options.onProgress?.(1);
          resolve((parsed as { data: UploadAccepted }).data);
          return;
        }
        if (parsed && typeof parsed === 'object' && 'message' in parsed && typeof parsed.message === 'string') {
          const errors = 'errors' in parsed && parsed.errors && typeof parsed.errors === 'object' ? (parsed.errors as Record<string, string[]>) : {};
          reject(new ApiError(xhr.status, parsed.message, errors, parsed));
        } else reject(new ApiError(xhr.status, translate('generic.error'), {}, parsed));
      };
      xhr.onerror = () => reject(new ApiError(0, translate('generic.error'), {}, null));
      xhr.onabort = () => reject(new DOMException('Aborted', 'AbortError'));
      options.signal?.addEventListener('abort', () => xhr.abort());
      xhr.send(body);
    });
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) await handleUnauthorized();
    throw error;
  }
}
