import { useTranslation } from 'react-i18next';
import { ENUMERATIONS, type EnumerationName } from '@mss/contracts/enums';
import { enumLabel, useEnumerations } from '../api/enumerations.ts';

/**
 * The label of an enumeration value as the server's enumerations give it (loaded before every
 * navigation), falling back to the catalogue while they load.
 */
export function useEnumLabel() {
  const { t } = useTranslation();
  const { data } = useEnumerations();
  return (name: EnumerationName, value: string | number) => enumLabel(data, name, value) ?? t(`enum.${name}.${value}`, { defaultValue: String(value) });
}

/** The choices of an enumeration for a Select / MultiSelect / Checkbox group. */
export function useEnumOptions<V extends string | number>(name: EnumerationName): { value: V; label: string }[] {
  const label = useEnumLabel();
  return Object.values(ENUMERATIONS[name]).map((value) => ({ value: value as V, label: label(name, value) }));
}
