import type { ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { QueryClientProvider } from '@tanstack/react-query';
import { MantineProvider } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { Notifications } from '@mantine/notifications';
import { queryClient } from '../api/query-client.ts';
import { i18n } from '../i18n/index.ts';
import { GlobalLoadingOverlay } from '../components/feedback.tsx';
import { cssVariablesResolver, theme } from './theme.ts';

/** Everything a screen may rely on: theme, query cache, translations, modals, toasts, loading overlay. */
export function AppProviders({ children }: { children: ReactNode }) {
  return (
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>
        <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="light">
          <ModalsProvider>
            <Notifications position="top-right" />
            <GlobalLoadingOverlay />
            {children}
          </ModalsProvider>
        </MantineProvider>
      </QueryClientProvider>
    </I18nextProvider>
  );
}
