import type { CodeGroup, CodeGroupInput } from '@mss/contracts/admin';
import { resourceApi } from '../../../api/resource.ts';

export const codeGroupsApi = resourceApi<CodeGroup, CodeGroupInput>({ key: 'code_groups', path: 'admin/code_groups' });
