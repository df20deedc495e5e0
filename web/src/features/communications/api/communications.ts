import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  Attachment,
  Communication,
  CommunicationInput,
  CompanyReach,
  Delivery,
  DeliveryStatus,
  NotificationSettings,
  Recipient,
  RenderedMail,
} from '@mss/contracts/communications';
import { CommunicationStatus } from '@mss/contracts/enums';
import { http, type ApiBody } from '../../../api/http.ts';
import type { ListParams, Page } from '../../../api/resource.ts';
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
  deliveries: (uuid: string, params: DeliveryListParams) => ['communications', 'deliveries', uuid, params] as const,
  notifications: ['notification-settings'] as const,
};

const data = <T>(body: ApiBody<T>) => body.data;
const path = (uuid: string, rest = '') => `communications/${encodeURIComponent(uuid)}${rest}`;

export const communicationsApi = {
  list: (params: CommunicationListParams) => http.get<Page<Communication>>('communications', { query: { ...params } }),
  one: (uuid: string) => http.get<ApiBody<Communication>>(path(uuid)).then(data),
  create: (input: CommunicationInput) => http.post<ApiBody<Communication>>('communications', input).then(data),
  update: ({ uuid, input }: { uuid: string; input: CommunicationInput }) => http.put<ApiBody<Communication>>(path(uuid), input).then(data),
  remove: (uuid: string) => http.delete<null>(path(uuid)),
  recipients: (uuid: string, params: { page: number; per_page: number }) => http.get<Page<Recipient>>(path(uuid, '/recipients'), { query: { ...params } }),
  companies: (uuid: string) => http.get<ApiBody<CompanyReach[]>>(path(uuid, '/companies')).then(data),
  preflight: ({ uuid, recipient_user_id }: { uuid: string; recipient_user_id?: number | null }) =>
    http.post<{ data: Communication; mail: RenderedMail }>(path(uuid, '/preflight'), { recipient_user_id: recipient_user_id ?? null }),
  send: ({ uuid, send_at }: { uuid: string; send_at?: string | null }) =>
    http.post<ApiBody<Communication>>(path(uuid, '/send'), { send_at: send_at ?? null }).then(data),
  backToDraft: (uuid: string) => http.post<ApiBody<Communication>>(path(uuid, '/draft')).then(data),
  retry: (uuid: string) => http.post<ApiBody<Communication>>(path(uuid, '/retry')).then(data),
  deliveries: (uuid: string, params: DeliveryListParams) => http.get<Page<Delivery>>(path(uuid, '/deliveries'), { query: { ...params } }),
  uploadAttachment: ({ uuid, file }: { uuid: string; file: File }) => {
    const body = new FormData();
    body.append('file', file);
    return http.post<ApiBody<Attachment>>(path(uuid, '/attachments'), body).then(data);
  },
  removeAttachment: ({ uuid, id }: { uuid: string; id: number }) => http.delete<null>(path(uuid, `/attachments/${id}`)),
  notificationSettings: () => http.get<ApiBody<NotificationSettings>>('users/me/notifications').then(data),
  saveNotificationSettings: (input: NotificationSettings) => http.put<ApiBody<NotificationSettings>>('users/me/notifications', input).then(data),
};

/** A plain link (GET with the session cookie) that downloads an attachment. */
export const attachmentUrl = (uuid: string, id: number) => buildUrl(path(uuid, `/attachments/${id}`));

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
