import type { Release, ReleaseInput } from '@mss/contracts/admin';
import { resourceApi } from '../../../api/resource.ts';

export const releasesApi = resourceApi<Release, ReleaseInput>({ key: 'releases', path: 'admin/releases' });
