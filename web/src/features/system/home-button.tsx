import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Button } from '@mantine/core';
import { useSession } from '../../api/session.ts';

/** Back to the dashboard, or to sign in when nobody is signed in. */
export function HomeButton() {
  const { t } = useTranslation();
  const { user } = useSession();
  return (
    <Button component={Link} to={user ? '/' : '/login'} mt="sm">
      {user ? t('system.go_dashboard') : t('system.go_login')}
    </Button>
  );
}
