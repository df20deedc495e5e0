import { CommunicationStatus } from './enums.ts';
import type { HistoryStatus } from './history.ts';
import { IMPORT_STATUSES, type ImportStatus } from './imports.ts';
import { PERIOD_STATUSES, type PeriodStatus } from './periods.ts';

// ---------------------------------------------------------------------------------------------
// The lifecycles of periods, communications and their deliveries, and imports, declared as tables
// like the report workflow (report-workflow.ts): the server changes a status only through its
// table (each module has one writer of its statuses), and the web reads the same table for the
// actions it offers. docs/architecture.md §5.
// ---------------------------------------------------------------------------------------------

/** An event moves a record from one of `from` to `to` (`From` may add null: the record does not exist yet). */
export interface Transition<S, From = S> {
  readonly from: readonly From[];
  readonly to: S;
}
export type Lifecycle<S, E extends string, From = S> = Readonly<Record<E, Transition<S, From>>>;

/** Whether `event` may happen to a record in `state`. */
export function allows<S, E extends string, From>(table: Lifecycle<S, E, From>, state: From, event: E): boolean {
  return table[event].from.includes(state);
}

/** The statuses no event leaves: the record's story is over. */
export function finalStates<S, E extends string>(table: Lifecycle<S, E>, states: readonly S[]): S[] {
  const left = new Set(Object.values<Transition<S>>(table).flatMap((t) => t.from));
  return states.filter((s) => !left.has(s));
}

// --- Periods ------------------------------------------------------------------------------------

/**
 * A period's status: draft until opened, open while companies report, closed after. Its publication
 * is a second state beside it (viewers see a published period's latest publication; its figures may
 * have changed since), which the publishing actions change, not the status.
 */
export type PeriodStatusAction = 'open' | 'close';
export type PeriodPublishingAction = 'publish' | 'republish' | 'unpublish';
export type PeriodAction = PeriodStatusAction | PeriodPublishingAction;
export const PERIOD_ACTIONS: readonly PeriodAction[] = ['open', 'close', 'publish', 'republish', 'unpublish'];

export const PERIOD_LIFECYCLE: Lifecycle<PeriodStatus, PeriodStatusAction> = {
  // Opening (from draft, or re-opening a closed period) creates an Ongoing report for every company
  // reporting in the market that has none yet.
  open: { from: ['draft', 'closed'], to: 'open' },
  close: { from: ['open'], to: 'closed' },
};

export type PublicationState = 'unpublished' | 'published';
export const PERIOD_PUBLICATION_LIFECYCLE: Lifecycle<PublicationState, PeriodPublishingAction> = {
  // Publishing a published period publishes its latest figures again (as republishing does).
  publish: { from: ['unpublished', 'published'], to: 'published' },
  republish: { from: ['published'], to: 'published' },
  // Viewers see nothing of the period until it is published again.
  unpublish: { from: ['unpublished', 'published'], to: 'unpublished' },
};
/** A draft period has nothing to publish. */
export const PUBLISHABLE_PERIOD_STATUSES: readonly PeriodStatus[] = PERIOD_STATUSES.filter((s) => s !== 'draft');

const isStatusAction = (action: PeriodAction): action is PeriodStatusAction => action === 'open' || action === 'close';

export interface PeriodState {
  status: PeriodStatus;
  published: boolean;
  /** A published period's figures or settings changed since its latest publication. */
  changed?: boolean;
}

/** Whether the server lets `action` happen to the period (republishing needs a publication). */
export function periodAllows(state: PeriodState, action: PeriodAction): boolean {
  if (isStatusAction(action)) return allows(PERIOD_LIFECYCLE, state.status, action);
  if (action !== 'unpublish' && !PUBLISHABLE_PERIOD_STATUSES.includes(state.status)) return false;
  return allows(PERIOD_PUBLICATION_LIFECYCLE, state.published ? 'published' : 'unpublished', action);
}

/**
 * The actions the periods screen offers: those the server allows, and of the publishing ones only
 * what would change something: publish while not published, publish again once the figures
 * changed, unpublish while published.
 */
export function periodActionsOffered(state: PeriodState): PeriodAction[] {
  return PERIOD_ACTIONS.filter((action) => {
    if (!periodAllows(state, action)) return false;
    if (action === 'publish') return !state.published;
    if (action === 'republish') return state.changed === true;
    if (action === 'unpublish') return state.published;
    return true;
  });
}

// --- Communications and their deliveries ---------------------------------------------------------

const C = CommunicationStatus;
export type CommunicationEvent =
  'create' | 'edit' | 'preflight' | 'preflight_sent' | 'preflight_failed' | 'to_draft' | 'send' | 'schedule_reminder' | 'delivered' | 'undelivered' | 'retry';

/** `null` as a "from" status: the communication does not exist yet. */
export const COMMUNICATION_LIFECYCLE: Lifecycle<CommunicationStatus, CommunicationEvent, CommunicationStatus | null> = {
  create: { from: [null], to: C.Draft },
  // Its subject, body, attachments and recipients change only in draft.
  edit: { from: [C.Draft], to: C.Draft },
  // The preflight (the mail to its author) is sent with the status Sending preflight, and ends in
  // Preflight sent, or back in draft when it could not be sent.
  preflight: { from: [C.Draft], to: C.SendingPreflight },
  preflight_sent: { from: [C.SendingPreflight], to: C.PreflightSent },
  preflight_failed: { from: [C.SendingPreflight], to: C.Draft },
  // Back to editing: the preflight no longer stands.
  to_draft: { from: [C.SendingPreflight, C.PreflightSent], to: C.Draft },
  // Sent only after its preflight: now or at its time.
  send: { from: [C.PreflightSent], to: C.WaitingToBeSent },
  // An automatic reminder is made ready to send (it has no preflight).
  schedule_reminder: { from: [null], to: C.WaitingToBeSent },
  // When no delivery waits any more: Sent if any was sent, Failed if none.
  delivered: { from: [C.WaitingToBeSent], to: C.Sent },
  undelivered: { from: [C.WaitingToBeSent], to: C.Failed },
  // Sends again to the failed recipients only.
  retry: { from: [C.Sent, C.Failed], to: C.WaitingToBeSent },
};

export const DELIVERY_STATUSES = ['queued', 'sending', 'sent', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];
export type DeliveryEvent = 'claim' | 'sent' | 'wait' | 'fail' | 'interrupted' | 'retry';

/** One recipient's mail: claimed by a send, then sent, failed for good, or queued for a later attempt. */
export const DELIVERY_LIFECYCLE: Lifecycle<DeliveryStatus, DeliveryEvent> = {
  // Queued and due, or left sending by a run whose lease ended.
  claim: { from: ['queued', 'sending'], to: 'sending' },
  sent: { from: ['sending'], to: 'sent' },
  // A temporary failure: queued again for a later attempt (exponential backoff).
  wait: { from: ['sending'], to: 'queued' },
  fail: { from: ['sending'], to: 'failed' },
  // The process sending it stopped (embedded database: at the next start).
  interrupted: { from: ['sending'], to: 'queued' },
  // The communication is sent again to its failed recipients.
  retry: { from: ['failed'], to: 'queued' },
};

// --- Imports of a report's file ----------------------------------------------------------------

export type ImportEvent = 'claim' | 'invalid' | 'done' | 'abandon' | 'give_up';

/**
 * An uploaded file's import: queued, then processing by the job (claimed again by a later run when
 * its lease ended), and ends invalid (the file has errors), done (its rows are the report's) or
 * failed (given up after its runs, or the report left Processing meanwhile).
 */
export const IMPORT_LIFECYCLE: Lifecycle<ImportStatus, ImportEvent> = {
  claim: { from: ['queued', 'processing'], to: 'processing' },
  invalid: { from: ['processing'], to: 'invalid' },
  done: { from: ['processing'], to: 'done' },
  // The report is no longer Processing file (changed by other means): nothing to import into.
  abandon: { from: ['queued', 'processing'], to: 'failed' },
  give_up: { from: ['processing'], to: 'failed' },
};

/** Invalid, done and failed: no event leaves them (the import screen stops polling). */
export const IMPORT_FINAL_STATUSES: readonly ImportStatus[] = finalStates(IMPORT_LIFECYCLE, IMPORT_STATUSES);

// --- History imports --------------------------------------------------------------------------------

export type HistoryEvent = 'checked' | 'invalid' | 'import' | 'imported' | 'publish' | 'published' | 'cancelled' | 'failed' | 'publish_failed';

/**
 * A history file's import (docs/decisions.md "History import"): queued, checked by a dry
 * run, then imported and published, each step asked for by an administrator and run by the job.
 * A step asked to stop ends cancelled at its next period; a step that fails ends failed (a
 * publication goes back to imported). Every step can be asked for again.
 */
export const HISTORY_LIFECYCLE: Lifecycle<HistoryStatus, HistoryEvent> = {
  checked: { from: ['checking'], to: 'checked' },
  // The file has problems (found by the dry run, or by the import's own reading of it).
  invalid: { from: ['checking', 'importing'], to: 'invalid' },
  import: { from: ['checked', 'cancelled', 'failed', 'imported', 'published'], to: 'importing' },
  imported: { from: ['importing'], to: 'imported' },
  publish: { from: ['imported', 'published', 'cancelled'], to: 'publishing' },
  published: { from: ['publishing'], to: 'published' },
  cancelled: { from: ['checking', 'importing'], to: 'cancelled' },
  failed: { from: ['checking', 'importing'], to: 'failed' },
  publish_failed: { from: ['publishing'], to: 'imported' },
};
/** A step may be asked to stop while it is queued, checking or importing (publishing runs to its end). */
export const HISTORY_CANCELLABLE: readonly HistoryStatus[] = ['queued', 'checking', 'importing'];
