import { useQuery } from '@tanstack/react-query';
import { can, canInMarket } from '@mss/contracts/abilities';
import type { AbilityName } from '@mss/contracts/enums';
import { abilitySubject, useSession } from '../api/session.ts';
import { marketLabel, optionQueries } from '../api/options.ts';

export interface MarketChoice {
  id: number;
  international_name: string;
  iso_code: string;
}

/**
 * The ability is granted for every market of the organization (an administrator's), not through
 * a company's markets: `can` counts those too, and a company's user may not list every market
 * (GET /markets answered 403, shown as "Permission denied" on their report history).
 */
const heldEverywhere = (subject: ReturnType<typeof abilitySubject>, ability: AbilityName) => can({ abilities: subject.abilities }, ability);

/**
 * The markets where the user holds `ability`: every market of the organization (GET /markets)
 * when the ability is global (admins), else the user's own and company markets that grant it.
 */
export function useMarketsWith(ability: AbilityName): { markets: MarketChoice[]; options: { value: string; label: string }[]; loading: boolean } {
  const session = useSession();
  const subject = abilitySubject(session);
  const global = heldEverywhere(subject, ability);
  const all = useQuery({ ...optionQueries.markets(), enabled: global });
  const own = [...(session.user?.markets ?? []), ...(session.user?.company?.markets ?? []).map((m) => m.market)];
  const source: MarketChoice[] = global ? (all.data ?? []) : own.filter((m) => canInMarket(subject, ability, m.id));
  const markets = [...new Map(source.map((m) => [m.id, m])).values()].sort((a, b) => a.international_name.localeCompare(b.international_name));
  return { markets, options: markets.map((m) => ({ value: String(m.id), label: marketLabel(m) })), loading: global && all.isPending };
}

/**
 * A `:market` route parameter: a market id, or an ISO code (SE) looked up among the user's
 * markets, then among every market when the ability is global. undefined while unknown.
 */
export function useMarketParam(param: string | undefined, ability: AbilityName): number | undefined {
  const session = useSession();
  const numeric = param && /^\d+$/.test(param) ? Number(param) : undefined;
  const iso = param && numeric === undefined ? param.toUpperCase() : undefined;
  const own = [...(session.user?.markets ?? []), ...(session.user?.company?.markets ?? []).map((m) => m.market)].find((m) => m.iso_code.toUpperCase() === iso);
  const global = heldEverywhere(abilitySubject(session), ability);
  const all = useQuery({ ...optionQueries.markets(), enabled: !!iso && !own && global });
  if (numeric !== undefined) return numeric;
  if (!iso) return undefined;
  return own?.id ?? all.data?.find((m) => m.iso_code.toUpperCase() === iso)?.id;
}
