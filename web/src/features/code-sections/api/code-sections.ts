import type { CodeSection, CodeSectionInput } from '@mss/contracts/admin';
import { resourceApi } from '../../../api/resource.ts';

export const codeSectionsApi = resourceApi<CodeSection, CodeSectionInput>({ key: 'code_sections', path: 'admin/code_sections' });
