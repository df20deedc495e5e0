import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import '@mantine/charts/styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { setErrorReporter } from './api/query-client.ts';
import { setNavigator, startSessionSync } from './api/session.ts';
import { feedback } from './components/feedback.tsx';
import { AppProviders } from './app/providers.tsx';
import { createAppRouter } from './app/router.tsx';

const router = createAppRouter();

setNavigator((path) => void router.navigate(path));
startSessionSync();
setErrorReporter((error, kind) => (kind === 'query' ? feedback.toastError(error) : feedback.errorOf(error)));

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <AppProviders>
      <RouterProvider router={router} />
    </AppProviders>
  </StrictMode>,
);
