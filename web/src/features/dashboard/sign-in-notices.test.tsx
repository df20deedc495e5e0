import { describe, expect, it } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { AppProviders } from '../../app/providers.tsx';
import { fakeApi } from '../../test/fake-api.ts';
import { SignInNotices } from './sign-in-notices.tsx';

const release = { id: 4, version: '2.1.0', release_date: '2026-11-01', title: 'Administration', notes: 'New **screens** for *administrators*.', views: 3 };
const modal = { id: 7, organization_id: 1, title: 'Maintenance', body: 'Down on Friday.', active: true, starts_on: null, ends_on: null };

describe('the notices after sign-in', () => {
  it('when there is an information modal and an unread release, then the modal shows first, and closing each dismisses it or marks it read', async () => {
    const api = fakeApi()
      .on('GET', 'information-modals/active', { body: { data: [modal] } })
      .on('GET', 'releases/unread', { body: { data: [release] } })
      .on('POST', 'information-modals/7/dismiss', { status: 204 })
      .on('POST', 'releases/4/view', { status: 204 });
    render(
      <AppProviders>
        <SignInNotices hasOrganization />
      </AppProviders>,
    );

    expect(await screen.findByText('Down on Friday.')).toBeTruthy();
    fireEvent.click(screen.getAllByRole('button', { name: 'Close' }).at(-1)!);
    expect(await screen.findByText('What is new in 2.1.0')).toBeTruthy();
    expect(api.callsTo('POST', 'information-modals/7/dismiss')).toHaveLength(1);
    // The notes' markdown is rendered, not shown with its asterisks; the date as the language writes it.
    expect((await screen.findByText('screens')).tagName).toBe('STRONG');
    expect(screen.getByText('administrators').tagName).toBe('EM');
    expect(screen.getByText(/Nov 1, 2026/)).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Got it' }));
    await waitFor(() => expect(screen.queryByText('What is new in 2.1.0')).toBeNull());
    expect(api.callsTo('POST', 'releases/4/view')).toHaveLength(1);
  });

  it('when the release notes answer before the information modals, then the notes wait: the modal shows first, never the notes before it', async () => {
    fakeApi()
      .on('GET', 'information-modals/active', { body: { data: [modal] }, delay: 300 })
      .on('GET', 'releases/unread', { body: { data: [release] } });
    render(
      <AppProviders>
        <SignInNotices hasOrganization />
      </AppProviders>,
    );
    // The notes have answered; until the modals have too, no dialog opens.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(await screen.findByText('Down on Friday.')).toBeTruthy();
    expect(screen.queryByText('What is new in 2.1.0')).toBeNull();
  });

  it('when the session has no organization (super-admin), then no information modals are asked for', async () => {
    const api = fakeApi().on('GET', 'releases/unread', { body: { data: [] } });
    render(
      <AppProviders>
        <SignInNotices hasOrganization={false} />
      </AppProviders>,
    );
    await waitFor(() => expect(api.callsTo('GET', 'releases/unread')).toHaveLength(1));
    expect(api.callsTo('GET', 'information-modals/active')).toHaveLength(0);
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
