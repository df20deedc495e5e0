import type { Code, CodeInput } from '@mss/contracts/admin';
import { resourceApi } from '../../../api/resource.ts';

/** Reading: view-codes or manage-codes; writing: manage-codes. */
export const codesApi = resourceApi<Code, CodeInput>({ key: 'codes', path: 'admin/codes' });
