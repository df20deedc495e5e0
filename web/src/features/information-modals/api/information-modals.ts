import type { InformationModal, InformationModalInput } from '@mss/contracts/admin';
import { resourceApi } from '../../../api/resource.ts';

export const informationModalsApi = resourceApi<InformationModal, InformationModalInput>({
  key: 'information_modals',
  path: 'admin/information-modals',
});
