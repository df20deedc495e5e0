import { OrganizationSwitch } from './organization-switch.tsx';
import { Suspense, lazy } from 'react';
import { Link, Outlet, useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import {
  Anchor,
  AppShell,
  Avatar,
  Box,
  Burger,
  Button,
  Divider,
  Group,
  Loader,
  Menu,
  NavLink,
  ScrollArea,
  Stack,
  Text,
  ThemeIcon,
  UnstyledButton,
  VisuallyHidden,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { abilitySubject, logout, useSession } from '../api/session.ts';
import { BrandMark } from './brand.tsx';
import { feedback } from '../components/feedback.tsx';
import { NAV_GROUPS, canOpen, isActive, navEntries } from './navigation.ts';
import { CanOpenContext } from '../lib/route-access.ts';

/** The user menu's setting: loaded when the menu first opens, not with the first screen. */
const WorkflowMailsSwitch = lazy(() => import('../features/communications/notification-settings.tsx').then((m) => ({ default: m.WorkflowMailsSwitch })));

function initials(name: string): string {
  return name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => part[0]!.toUpperCase())
    .join('');
}

function Brand({ organization }: { organization?: string }) {
  const { t } = useTranslation();
  return (
    <UnstyledButton component={Link} to="/">
      <Group gap="xs" wrap="nowrap">
        <ThemeIcon size={32} radius="md">
          <BrandMark size={20} />
        </ThemeIcon>
        <Stack gap={0} miw={0}>
          {/* At phone width the name is smaller, so that it and "Sign out" both fit whole beside the menu button. */}
          <Text fw={700} fz={{ base: 'sm', xs: 'md', sm: 'lg' }} lh={1.2} style={{ whiteSpace: 'nowrap' }} data-testid="product-name">
            {t('app.name')}
          </Text>
          {/* On a phone the user menu (which names the organization) is hidden: the organization shows here. */}
          {organization && (
            <Text size="xs" c="dimmed" lh={1.2} truncate="end" maw="calc(100vw - 190px)" hiddenFrom="sm" data-testid="phone-organization-name">
              {organization}
            </Text>
          )}
        </Stack>
      </Group>
    </UnstyledButton>
  );
}

/** The app shell of signed-in screens: header with the user and sign-out, navbar by abilities. */
export function ShellLayout() {
  const session = useSession();
  const { t } = useTranslation();
  const location = useLocation();
  const [opened, { toggle, close }] = useDisclosure(false);
  const { user } = session;

  if (!user) {
    // 403 and 404 reached while signed out: no navigation to show.
    return (
      <Box mih="100dvh" bg="gray.0">
        <Group h={60} px="md" bg="white" style={{ borderBottom: '1px solid var(--mantine-color-gray-3)' }}>
          <Brand />
        </Group>
        <Box p="md">
          <Outlet />
        </Box>
      </Box>
    );
  }

  const subject = abilitySubject(session);
  const entries = navEntries(user, subject);
  // Links to add and edit screens ask the same check as the route guard.
  const mayOpen = (path: string) => canOpen(path, user, subject);
  const signOut = () => feedback.loading.during(logout());

  return (
    <AppShell header={{ height: 60 }} navbar={{ width: 260, breakpoint: 'sm', collapsed: { mobile: !opened } }} padding="lg" bg="gray.0">
      <AppShell.Header>
        <Group h="100%" px={{ base: 'xs', sm: 'md' }} justify="space-between" wrap="nowrap" gap="xs">
          <Group gap="xs" wrap="nowrap">
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label={t('nav.open')} />
            <Brand organization={user.organization?.name ?? t('header.no_organization')} />
          </Group>
          <Group gap="md" wrap="nowrap">
            {/* The user menu: the signed-in user's own settings. */}
            <Menu position="bottom-end" width={320} shadow="md" closeOnItemClick={false}>
              <Menu.Target>
                {/* Named by what it shows, then what it opens (a name that leaves out the visible text fails WCAG 2.5.3). */}
                <UnstyledButton visibleFrom="sm">
                  <Group gap="sm" wrap="nowrap">
                    <Avatar color="blue" radius="xl" size={34} aria-hidden>
                      {initials(user.name)}
                    </Avatar>
                    <Stack gap={0}>
                      <Text size="sm" fw={600} lh={1.2} data-testid="user-name">
                        {user.name}
                      </Text>
                      <Text size="xs" c="dimmed" lh={1.2} data-testid="organization-name">
                        {user.organization?.name ?? t('header.no_organization')}
                      </Text>
                    </Stack>
                    <VisuallyHidden>{t('profile.menu')}</VisuallyHidden>
                  </Group>
                </UnstyledButton>
              </Menu.Target>
              <Menu.Dropdown p="sm">
                <Menu.Label>{t('profile.menu')}</Menu.Label>
                <Stack gap="sm">
                  <Suspense fallback={<Loader size="xs" />}>
                    <WorkflowMailsSwitch />
                  </Suspense>
                  <OrganizationSwitch />
                  <Anchor component={Link} to="/profile" size="sm" data-testid="profile-link">
                    {t('profile.open')}
                  </Anchor>
                </Stack>
              </Menu.Dropdown>
            </Menu>
            <Button variant="default" size="xs" onClick={signOut}>
              {t('header.sign_out')}
            </Button>
          </Group>
        </Group>
      </AppShell.Header>

      <AppShell.Navbar p="xs" aria-label={t('nav.main')}>
        <AppShell.Section grow component={ScrollArea}>
          {NAV_GROUPS.map((group) => {
            const items = entries.filter((e) => e.group === group);
            if (!items.length) return null;
            return (
              <Box key={group} mb="sm">
                {group !== 'main' && (
                  <Text size="xs" fw={700} c="dimmed" tt="uppercase" px="sm" pt="xs" pb={4}>
                    {t(`nav.group.${group}`)}
                  </Text>
                )}
                {items.map((entry) => (
                  <NavLink
                    key={entry.href}
                    component={Link}
                    to={entry.href}
                    label={t(entry.title)}
                    active={isActive(
                      entry.href,
                      location.pathname,
                      entries.map((e) => e.href),
                    )}
                    onClick={close}
                    style={{ borderRadius: 'var(--mantine-radius-sm)' }}
                  />
                ))}
              </Box>
            );
          })}
        </AppShell.Section>
        <AppShell.Section hiddenFrom="sm">
          <Divider my="xs" />
          <Text size="sm" fw={600} px="sm">
            {user.name}
          </Text>
          <Text size="xs" c="dimmed" px="sm">
            {user.organization?.name ?? t('header.no_organization')}
          </Text>
          {/* On a phone the header has no room for the user menu: its settings are here (loaded once the navbar opens). */}
          {opened && (
            <Box px="sm" py="xs">
              <Suspense fallback={<Loader size="xs" />}>
                <WorkflowMailsSwitch />
              </Suspense>
              <Box mt="sm">
                <OrganizationSwitch />
              </Box>
            </Box>
          )}
        </AppShell.Section>
      </AppShell.Navbar>

      <AppShell.Main>
        <CanOpenContext.Provider value={mayOpen}>
          <Outlet />
        </CanOpenContext.Provider>
      </AppShell.Main>
    </AppShell>
  );
}
