import { useCallback } from 'react';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Communication, CommunicationInput, DeliveryStatus, NotificationSettings } from '@mss/contracts/communications';
import { CommunicationStatus } from '@mss/contracts/enums';
import { api, data, routePath } from '../../../api/client.ts';
import type { ListParams } from '../../../api/resource.ts';
import { buildUrl } from '../../../api/transport.ts';

/** Communications (docs/architecture.md §6): keys start with 'communications'; every mutation invalidates them. */

export interface CommunicationListParams extends ListParams {
  status?: number;
}

export interface DeliveryListParams {
  page: number;
  per_page: number;
  status?: DeliveryStatus;
  search?: string;
}

export const communicationKeys = {
  all: ['communications'] as const,
  list: (params: CommunicationListParams) => ['communications', 'list', params] as const,
  detail: (uuid: string) => ['communications', 'detail', uuid] as const,
  recipients: (uuid: string, params: { page: number; per_page: number }) => ['communications', 'recipients', uuid, params] as const,
  companies: (uuid: string) => ['communications', 'companies', uuid] as const,
  /** Every page of one communication's deliveries. */
  allDeliveries: (uuid: string) => ['communications', 'deliveries', uuid] as const,
  deliveries: (uuid: string, params: DeliveryListParams) => ['communications', 'deliveries', uuid, params] as const,
  notifications: ['notification-settings'] as const,
};

export const communicationsApi = {
  list: (params: CommunicationListParams) => api.get('/communications', { query: { ...params } }),
  one: (uuid: string) => api.get('/communications/{uuid}', { path: { uuid } }).then(data),
  create: (input: CommunicationInput) => api.post('/communications', { body: input }).then(data),
  update: ({ uuid, input }: { uuid: string; input: CommunicationInput }) => api.put('/communications/{uuid}', { path: { uuid }, body: input }).then(data),
  remove: (uuid: string) => api.delete('/communications/{uuid}', { path: { uuid } }),
  recipients: (uuid: string, params: { page: number; per_page: number }) =>
    api.get('/communications/{uuid}/recipients', { path: { uuid }, query: { ...params } }),
  companies: (uuid: string) => api.get('/communications/{uuid}/companies', { path: { uuid } }).then(data),
  preflight: ({ uuid, recipient_user_id }: { uuid: string; recipient_user_id?: number | null }) =>
    api.post('/communications/{uuid}/preflight', { path: { uuid }, body: { recipient_user_id: recipient_user_id ?? null } }),
  send: ({ uuid, send_at }: { uuid: string; send_at?: string | null }) =>
    api.post('/communications/{uuid}/send', { path: { uuid }, body: { send_at: send_at ?? null } }).then(data),
  backToDraft: (uuid: string) => api.post('/communications/{uuid}/draft', { path: { uuid } }).then(data),
  retry: (uuid: string) => api.post('/communications/{uuid}/retry', { path: { uuid } }).then(data),
  deliveries: (uuid: string, params: DeliveryListParams) => api.get('/communications/{uuid}/deliveries', { path: { uuid }, query: { ...params } }),
  uploadAttachment: ({ uuid, file }: { uuid: string; file: File }) => {
    const body = new FormData();
    body.append('file', file);
    return api.post('/communications/{uuid}/attachments', { path: { uuid }, body }).then(data);
  },
  removeAttachment: ({ uuid, id }: { uuid: string; id: number }) => api.delete('/communications/{uuid}/attachments/{id}', { path: { uuid, id } }),
  notificationSettings: () => api.get('/users/me/notifications').then(data),
  saveNotificationSettings: (input: NotificationSettings) => api.put('/users/me/notifications', { body: input }).then(data),
};

/** A plain link (GET with the session cookie) that downloads an attachment. */
export const attachmentUrl = (uuid: string, id: number) => buildUrl(routePath('/communications/{uuid}/attachments/{id}', { uuid, id }));

/** Statuses in which the server is still working: the screen polls the communication. */
export const isBusy = (status: number) => status === CommunicationStatus.SendingPreflight || status === CommunicationStatus.WaitingToBeSent;

export const POLL_MS = 2000;

export const communicationQueries = {
  list: (params: CommunicationListParams) =>
    queryOptions({ queryKey: communicationKeys.list(params), queryFn: () => communicationsApi.list(params), placeholderData: keepPreviousData }),
  one: (uuid: string) =>
    queryOptions({
      queryKey: communicationKeys.detail(uuid),
      queryFn: () => communicationsApi.one(uuid),
      // While the preflight or the send is under way, ask again every 2 s until it settles.
      refetchInterval: (query) => (query.state.data && isBusy(query.state.data.status) ? POLL_MS : false),
    }),
  recipients: (uuid: string, params: { page: number; per_page: number }) =>
    queryOptions({
      queryKey: communicationKeys.recipients(uuid, params),
      queryFn: () => communicationsApi.recipients(uuid, params),
      placeholderData: keepPreviousData,
    }),
  companies: (uuid: string) => queryOptions({ queryKey: communicationKeys.companies(uuid), queryFn: () => communicationsApi.companies(uuid) }),
  deliveries: (uuid: string, params: DeliveryListParams, poll: boolean) =>
    queryOptions({
      queryKey: communicationKeys.deliveries(uuid, params),
      queryFn: () => communicationsApi.deliveries(uuid, params),
      placeholderData: keepPreviousData,
      refetchInterval: poll ? POLL_MS : false,
    }),
  notifications: () => queryOptions({ queryKey: communicationKeys.notifications, queryFn: communicationsApi.notificationSettings }),
};

export const useCommunication = (uuid: string) => useQuery({ ...communicationQueries.one(uuid), meta: { handlesErrors: true } });

/**
 * A communication mutation: shows its own errors (the caller decides how: field errors on the
 * form, the message elsewhere); the communication and the lists are refreshed after it.
 */
export function useCommunicationMutation<V, R>(mutationFn: (variables: V) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: (result) => {
      // The answer is the communication as it is now: shown at once, before the lists refresh.
      const communication = (result && typeof result === 'object' && 'data' in result ? result.data : result) as Communication | null;
      if (communication && typeof communication === 'object' && 'uuid' in communication)
        client.setQueryData(communicationKeys.detail(communication.uuid), communication);
    },
    onSettled: () => client.invalidateQueries({ queryKey: communicationKeys.all }),
    meta: { handlesErrors: true },
  });
}

/**
 * The deliveries of one communication fetched again (every page): their counts come with the
 * communication (polled while it is sent), and the rows follow them. Stable, for effects.
 */
export function useRefreshDeliveries() {
  const client = useQueryClient();
  return useCallback((uuid: string) => client.invalidateQueries({ queryKey: communicationKeys.allDeliveries(uuid) }), [client]);
}

export function useNotificationSettings() {
  return useQuery({ ...communicationQueries.notifications(), meta: { handlesErrors: true } });
}

export function useSaveNotificationSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: communicationsApi.saveNotificationSettings,
    onSuccess: (settings) => client.setQueryData(communicationKeys.notifications, settings),
    meta: { handlesErrors: true },
  });
}
