import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import '@mantine/charts/styles.css';
import './app/stacked-tables.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { setErrorReporter } from './api/query-client.ts';
import { setNavigator, startSessionSync } from './api/session.ts';
import { feedback } from './components/feedback.tsx';
import { AppProviders } from './app/providers.tsx';
import { createAppRouter } from './app/router.tsx';
import { startLocale } from './i18n/index.ts';

const router = createAppRouter();

setNavigator((path) => void router.navigate(path));
startSessionSync();
setErrorReporter((error, kind) => (kind === 'query' ? feedback.toastError(error) : feedback.errorOf(error)));

// The first screen in the start language (the browser's): its texts first, when it is not en-US.
void startLocale().then(() =>
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <AppProviders>
        <RouterProvider router={router} />
      </AppProviders>
    </StrictMode>,
  ),
);
