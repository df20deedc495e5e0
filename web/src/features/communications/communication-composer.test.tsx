import { describe, expect, it } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { RouterProvider, createMemoryRouter } from 'react-router';
import { ATTACHMENT_MAX_COUNT, type Communication } from '@mss/contracts/communications';
import { CommunicationStatus } from '@mss/contracts/enums';
import { setSession } from '../../api/session.ts';
import { AppProviders } from '../../app/providers.tsx';
import { fakeApi, makeUser, marketAbility } from '../../test/fake-api.ts';
import { CommunicationScreen } from './communication-screen.tsx';

const SWEDEN = { id: 1, international_name: 'Sweden', local_name: 'Sverige', iso_code: 'SE' };

function communication(overrides: Partial<Communication> = {}): Communication {
  return {
    uuid: 'com-1',
    status: CommunicationStatus.Draft,
    status_text: 'Draft',
    subject: 'Reminder',
    body: '<p>Please report.</p>',
    foot_notes: null,
    recipients: { market_ids: [1], roles: ['reporter'], company_ids: [], period_uuid: null, report_statuses: [] },
    period_title: null,
    author: { id: 1, name: 'Magnus Market' },
    reminder: null,
    attachments: [],
    deliveries: { total: 0, queued: 0, sent: 0, failed: 0 },
    preflight_sent_at: null,
    preflight_to: null,
    send_at: null,
    sent_at: null,
    created_at: '2026-10-01T08:00:00Z',
    updated_at: '2026-10-01T08:00:00Z',
    ...overrides,
  };
}

const recipients = {
  data: [
    {
      user_id: 7,
      name: 'Rita Reporter',
      email: 'reporter@demo.test',
      company: { id: 3, name: 'Nordlys Trading AB' },
      market: { id: 1, name: 'Sweden' },
      report_status: null,
    },
  ],
  meta: { page: 1, per_page: 25, total: 12 },
};

function serve(record?: Communication) {
  const api = fakeApi()
    .withEnumerations()
    .on('GET', 'periods', { body: { data: [] } })
    .on('GET', 'reports', { body: { data: [] } })
    .on('GET', 'communications/com-1/recipients', { body: recipients });
  if (record) api.on('GET', 'communications/com-1', { body: { data: record } });
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
  return router;
}

describe('the communication composer', () => {
  it('when a variable is clicked while the subject has the cursor, then {{name}} goes in at the cursor', async () => {
    serve();
    renderAt('/communication?new=1');
    const subject = (await screen.findByRole('textbox', { name: /Subject/ })) as HTMLInputElement;
    fireEvent.change(subject, { target: { value: 'Hello  please report' } });
    subject.focus();
    subject.setSelectionRange(6, 6);

    fireEvent.click(screen.getByRole('button', { name: 'Insert Recipient’s name' }));

    await waitFor(() => expect(subject.value).toBe('Hello {{recipient_name}} please report'));
  });

  it('when a variable is clicked while the message has the cursor, then {{name}} goes into the message', async () => {
    serve();
    renderAt('/communication?new=1');
    await screen.findByRole('textbox', { name: /Subject/ });
    const body = await waitFor(() => {
      const editor = document.querySelector('.ProseMirror');
      expect(editor).toBeTruthy();
      return editor as HTMLElement;
    });
    fireEvent.focus(body);

    fireEvent.click(screen.getByRole('button', { name: 'Insert Link to the report' }));

    await waitFor(() => expect(body.textContent).toContain('{{report_link}}'));
    expect((screen.getByRole('textbox', { name: /Subject/ }) as HTMLInputElement).value).toBe('');
  });

  it('when the draft has had no preflight, then Send is disabled and the screen says why', async () => {
    serve(communication());
    renderAt('/communication?uuid=com-1&tab=send');

    expect(await screen.findByText(/Send a test e-mail first/)).toBeTruthy();
    const send = screen.getByRole('button', { name: 'Send' }) as HTMLButtonElement;
    expect(send.disabled).toBe(true);
  });

  it('when the server refuses the send, then its message is shown', async () => {
    const api = serve(
      communication({ status: CommunicationStatus.PreflightSent, preflight_sent_at: '2026-10-01T09:00:00Z', preflight_to: 'market-admin@demo.test' }),
    );
    api.on('POST', 'communications/com-1/send', { status: 409, body: { message: 'A preflight must be sent before sending the mail.' } });
    renderAt('/communication?uuid=com-1&tab=send');

    await waitFor(() => expect((screen.getByRole('button', { name: 'Send' }) as HTMLButtonElement).disabled).toBe(false));
    await waitFor(() => expect(api.callsTo('GET', 'communications/com-1/recipients').length).toBeGreaterThan(0));
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    const dialog = await screen.findByRole('dialog');
    await within(dialog).findByText('Send to 12 recipients?');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send' }));

    expect(await screen.findByText('A preflight must be sent before sending the mail.')).toBeTruthy();
    expect(api.callsTo('POST', 'communications/com-1/send')[0]!.body).toEqual({ send_at: null });
  });

  it('when a draft has as many attachments as allowed, then adding is disabled and the limit is said', async () => {
    const attachments = Array.from({ length: ATTACHMENT_MAX_COUNT }, (_, i) => ({
      id: i + 1,
      name: `file-${i + 1}.pdf`,
      mime_type: 'application/pdf',
      size: 1000,
    }));
    serve(communication({ attachments }));
    renderAt('/communication?uuid=com-1&tab=message');

    const box = await screen.findByTestId('attachments');
    expect(within(box).getByText('Up to 5 files of at most 5 MB each: PDF, PNG, JPEG, Excel workbook (xlsx), Word document (docx), Text, CSV.')).toBeTruthy();
    expect(within(box).getByText('A communication can have at most 5 attachments. Remove one to add another.')).toBeTruthy();
    expect((within(box).getByRole('button', { name: 'Add a file' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('when a file is larger than allowed, then the browser says so and sends nothing', async () => {
    const api = serve(communication());
    renderAt('/communication?uuid=com-1&tab=message');

    const box = await screen.findByTestId('attachments');
    const input = box.querySelector('input[type="file"]') as HTMLInputElement;
    const big = new File(['x'], 'prices.pdf', { type: 'application/pdf' });
    Object.defineProperty(big, 'size', { value: 6 * 1024 * 1024 });
    fireEvent.change(input, { target: { files: [big] } });

    expect(await within(box).findByText('prices.pdf is 6 MB; an attachment can be at most 5 MB.')).toBeTruthy();
    expect(api.callsTo('POST', 'communications/com-1/attachments')).toHaveLength(0);
  });
});
