import { createContext, useContext } from 'react';

/**
 * Whether the signed-in user may open a path of the app, by the route guard's own check (the app
 * provides it; see app/navigation.ts `canOpen`). Links to add and edit screens ask it, so that a
 * screen is offered only to those who can save it. Without a provider (a component on its own),
 * every path.
 */
export const CanOpenContext = createContext<(path: string) => boolean>(() => true);

export function useCanOpen(): (path: string) => boolean {
  return useContext(CanOpenContext);
}
