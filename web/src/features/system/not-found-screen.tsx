import { useTranslation } from 'react-i18next';
import type { ScreenProps } from '../../lib/screen.ts';
import { HomeButton } from './home-button.tsx';
import { StatusPage } from './status-page.tsx';

export function NotFoundScreen({ title }: ScreenProps) {
  const { t } = useTranslation();
  return (
    <StatusPage code="404" color="gray" title={title} message={t('generic.not_found')} hint={t('system.not_found_hint')}>
      <HomeButton />
    </StatusPage>
  );
}
