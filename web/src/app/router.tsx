import { Suspense } from 'react';
import { Center, Loader } from '@mantine/core';
import { type RouteObject, createBrowserRouter, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ShellLayout } from './shell-layout.tsx';
import { AuthLayout } from './auth-layout.tsx';
import { guardLoader } from './guard.ts';
import { useSession } from '../api/session.ts';
import { RootLayout, RootErrorBoundary, RootHydrateFallback } from './root-layout.tsx';
import { type AppRoute, appRoutes } from './routes.tsx';
import { type RouteHandle, titleFor } from './route-title.ts';

function RouteScreen({ route }: { route: AppRoute }) {
  const params = useParams();
  const { t } = useTranslation();
  const { user } = useSession();
  const Screen = route.screen;
  return (
    <Suspense
      fallback={
        <Center py="xl">
          <Loader />
        </Center>
      }
    >
      <Screen params={params} title={t(titleFor({ title: route.title, userTitle: route.nav?.title }, user))} />
    </Suspense>
  );
}

function toRouteObject(route: AppRoute): RouteObject {
  return {
    path: route.path,
    loader: guardLoader(route),
    handle: { title: route.title, userTitle: route.nav?.title } satisfies RouteHandle,
    element: <RouteScreen route={route} />,
  };
}

/** The route objects: public screens in the sign-in layout, everything else in the app shell. */
export function buildRouteObjects(routes: AppRoute[] = appRoutes): RouteObject[] {
  return [
    {
      id: 'root',
      Component: RootLayout,
      HydrateFallback: RootHydrateFallback,
      ErrorBoundary: RootErrorBoundary,
      children: [
        { Component: AuthLayout, children: routes.filter((r) => r.access === 'public').map(toRouteObject) },
        { Component: ShellLayout, children: routes.filter((r) => r.access !== 'public').map(toRouteObject) },
      ],
    },
  ];
}

export function createAppRouter() {
  return createBrowserRouter(buildRouteObjects());
}
