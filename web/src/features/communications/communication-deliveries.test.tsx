import { describe, expect, it } from 'vitest';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { RouterProvider, createMemoryRouter } from 'react-router';
import type { Communication, Delivery } from '@mss/contracts/communications';
import { CommunicationStatus } from '@mss/contracts/enums';
import { setSession } from '../../api/session.ts';
import { AppProviders } from '../../app/providers.tsx';
import { fakeApi, makeUser, marketAbility } from '../../test/fake-api.ts';
import { CommunicationScreen } from './communication-screen.tsx';

const SWEDEN = { id: 1, international_name: 'Sweden', local_name: 'Sverige', iso_code: 'SE' };

/** A communication sent to five, two of whom the mail server refused. */
function partlySent(overrides: Partial<Communication> = {}): Communication {
  return {
    uuid: 'com-1',
    status: CommunicationStatus.Sent,
    status_text: 'Sent — 2 of 5 failed',
    subject: 'Reminder',
    body: '<p>Please report.</p>',
    foot_notes: null,
    recipients: { market_ids: [1], roles: ['reporter'], company_ids: [], period_uuid: null, report_statuses: [] },
    period_title: null,
    author: { id: 1, name: 'Magnus Market' },
    reminder: null,
    attachments: [],
    deliveries: { total: 5, queued: 0, sent: 3, failed: 2 },
    preflight_sent_at: '2026-10-01T09:00:00Z',
    preflight_to: 'market-admin@demo.test',
    send_at: null,
    sent_at: '2026-10-01T10:00:00Z',
    created_at: '2026-10-01T08:00:00Z',
    updated_at: '2026-10-01T10:00:00Z',
    ...overrides,
  };
}

const refusedTwice: Delivery = {
  id: 11,
  user_id: 7,
  name: 'Rita Reporter',
  email: 'rita@demo.test',
  status: 'sent',
  attempts: 3,
  smtp_response: '250 2.0.0 OK: queued as 9C1F',
  attempt_history: [
    { number: 1, outcome: 'failed', smtp_response: '550 5.1.1 Mailbox unavailable', started_at: '2026-10-01T10:00:00Z', finished_at: '2026-10-01T10:00:01Z' },
    { number: 2, outcome: 'deferred', smtp_response: '451 4.3.0 Try again later', started_at: '2026-10-02T08:00:00Z', finished_at: '2026-10-02T08:00:01Z' },
    { number: 3, outcome: 'sent', smtp_response: '250 2.0.0 OK: queued as 9C1F', started_at: '2026-10-02T08:05:00Z', finished_at: '2026-10-02T08:05:01Z' },
  ],
  sent_at: '2026-10-02T08:05:01Z',
  updated_at: '2026-10-02T08:05:01Z',
};

function serve(record: Communication, deliveries: Delivery[] = []) {
  const api = fakeApi()
    .withEnumerations()
    .on('GET', 'communications', { body: { data: [record], meta: { page: 1, per_page: 25, total: 1 } } })
    .on('GET', 'communications/com-1', { body: { data: record } })
    .on('GET', 'communications/com-1/deliveries', { body: { data: deliveries, meta: { page: 1, per_page: 25, total: deliveries.length } } });
  setSession({ user: makeUser({ role: 'market-admin', markets: [SWEDEN] }), abilities: [marketAbility('send-communications', 1)] });
  return api;
}

function renderAt(url: string) {
  const router = createMemoryRouter([{ path: '/communication', element: <CommunicationScreen params={{}} title="Communication" /> }], {
    initialEntries: [url],
  });
  render(
    <AppProviders>
      <RouterProvider router={router} />
    </AppProviders>,
  );
}

describe('a send that did not reach everyone', () => {
  it('when 2 of 5 deliveries failed, then the list says "Sent — 2 of 5 failed", not "Sent"', async () => {
    serve(partlySent());
    renderAt('/communication');

    expect(await screen.findByText('Reminder')).toBeTruthy();
    expect(screen.getByTestId('communication-status').textContent).toBe('Sent — 2 of 5 failed');
  });

  it('when 2 of 5 deliveries failed, then the communication says so beside its subject', async () => {
    serve(partlySent());
    renderAt('/communication?uuid=com-1&tab=message');

    expect((await screen.findByTestId('communication-status')).textContent).toBe('Sent — 2 of 5 failed');
  });

  it('when every delivery went out, then the status is plainly "Sent"', async () => {
    serve(partlySent({ status_text: 'Sent', deliveries: { total: 5, queued: 0, sent: 5, failed: 0 } }));
    renderAt('/communication?uuid=com-1&tab=message');

    expect((await screen.findByTestId('communication-status')).textContent).toBe('Sent');
  });

  it('when a delivery was tried three times, then the table shows the count and the last answer, and each attempt with its answer on demand', async () => {
    serve(partlySent(), [refusedTwice]);
    renderAt('/communication?uuid=com-1&tab=deliveries');

    const count = await screen.findByRole('button', { name: '3 attempts: Show the attempts for rita@demo.test' });
    expect(count.textContent).toBe('3 attempts');
    const table = screen.getByRole('table', { name: 'Deliveries' });
    expect(within(table).getByText('250 2.0.0 OK: queued as 9C1F')).toBeTruthy();

    fireEvent.click(count);
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Attempts for Rita Reporter <rita@demo.test>')).toBeTruthy();
    const rows = within(within(dialog).getByTestId('attempt-history')).getAllByRole('listitem');
    expect(rows.map((row) => within(row).getByTestId('attempt-outcome').textContent)).toEqual(['Failed', 'Tried again later', 'Accepted']);
    expect(rows.map((row) => within(row).getByTestId('attempt-smtp-response').textContent)).toEqual([
      '550 5.1.1 Mailbox unavailable',
      '451 4.3.0 Try again later',
      '250 2.0.0 OK: queued as 9C1F',
    ]);
  });
});
