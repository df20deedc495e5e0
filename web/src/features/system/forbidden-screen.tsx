import { useTranslation } from 'react-i18next';
import type { ScreenProps } from '../../lib/screen.ts';
import { HomeButton } from './home-button.tsx';
import { StatusPage } from './status-page.tsx';

export function ForbiddenScreen({ title }: ScreenProps) {
  const { t } = useTranslation();
  return (
    <StatusPage code="403" color="orange" title={title} message={t('generic.forbidden')} hint={t('system.forbidden_hint')}>
      <HomeButton />
    </StatusPage>
  );
}
