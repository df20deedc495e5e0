import { useNavigate } from 'react-router';
import { type FormValidateInput, useForm } from '@mantine/form';
import { useDeleteRecord, useSaved, useSaveRecord } from '../components/page.tsx';
import { showSaveError } from './form.ts';
import { useIsSuperAdmin } from '../components/organization-field.tsx';

/** What an administration resource's API gives its add/edit form (see `resourceApi`). */
export interface RecordFormApi<T, I> {
  useCreate: () => { mutateAsync: (input: I) => Promise<T>; isPending: boolean };
  useUpdate: () => { mutateAsync: (v: { id: number; input: I }) => Promise<T>; isPending: boolean };
  remove: (id: number) => Promise<unknown>;
  keys: { all: readonly unknown[] };
}

export interface RecordFormOptions<T extends { id: number }, I, V extends object> {
  api: RecordFormApi<T, I>;
  /** The record on the edit screen; undefined on the add screen. */
  record: T | undefined;
  /** The list the form goes back to. */
  back: string;
  /** The form's fields, for the server's field errors (see `showSaveError`). */
  fields: readonly string[];
  /** Server field names that belong to another input: `{ markets: 'market_ids' }`. */
  aliases?: Record<string, string>;
  /** The resource's name in "… not saved." */
  model: string;
  initialValues: V;
  /** The request for the form's values (the organization a super-admin picked is added to it). */
  toInput: (values: V) => I | Omit<I, 'organization_id'>;
  /** Checks in the browser before sending (Mantine's `validate`). */
  validate?: FormValidateInput<V>;
  /** How the record is named in the saved toast and the delete confirmation. */
  nameOf: (record: T) => string;
  /** Where to go after saving (default: back to the list). */
  savedTo?: (record: T) => string;
  /** Offer delete on the edit screen (default true). */
  deletable?: boolean;
}

/** The organization field of a form's values, if it has one. */
const organizationOf = (values: object): number | null =>
  'organization_id' in values && typeof values.organization_id === 'number' ? values.organization_id : null;

/**
 * The set-up every add/edit form of an administration resource shares: the Mantine form,
 * create-or-update with the server's field errors on the inputs, the saved toast and the way back,
 * the super-admin's organization in the request, and delete (with its confirmation) on the edit
 * screen.
 */
export function useRecordForm<T extends { id: number }, I, V extends object>(options: RecordFormOptions<T, I, V>) {
  const { api, record, back, nameOf } = options;
  const navigate = useNavigate();
  const superAdmin = useIsSuperAdmin();
  const { save, saving } = useSaveRecord(api, record?.id);
  const saved = useSaved();
  const remove = useDeleteRecord(api.remove, api.keys.all);
  const form = useForm<V>({ initialValues: options.initialValues, validate: options.validate });
  const submit = form.onSubmit(async (values) => {
    try {
      const organizationId = superAdmin ? organizationOf(values) : null;
      const input = { ...(organizationId ? { organization_id: organizationId } : {}), ...options.toInput(values) } as I;
      const result = await save(input);
      saved(nameOf(result), options.savedTo?.(result) ?? back);
    } catch (error) {
      showSaveError(form, error, options.fields, options.model, options.aliases);
    }
  });
  const onDelete = record && options.deletable !== false ? () => void remove(record.id, nameOf(record)).then((ok) => ok && navigate(back)) : undefined;
  /** The organization whose options the form offers: the one picked by a super-admin, else the user's own (null). */
  const organizationId = superAdmin ? organizationOf(form.values) : null;
  return { form, submit, saving, onDelete, superAdmin, organizationId };
}
