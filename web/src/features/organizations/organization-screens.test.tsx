import { describe, expect, it } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import { RouterProvider, createMemoryRouter } from 'react-router';
import type { InformationModal, Organization } from '@mss/contracts/admin';
import { AppProviders } from '../../app/providers.tsx';
import { fakeApi, type RecordedCall } from '../../test/fake-api.ts';
import { OrganizationEditScreen } from './organization-screens.tsx';

const organization: Organization = {
  id: 3,
  uuid: 'o-3',
  name: 'Nordic Sales Association',
  mail_description: null,
  settings: { deviation_percentage: 20, reminder_days: 5, min_contributors: 3, dominance_percentage: 85 },
};

const modal = (id: number, title: string, starts_on: string | null, ends_on: string | null, active = true): InformationModal => ({
  id,
  organization_id: 3,
  title,
  body: 'x',
  active,
  starts_on,
  ends_on,
});

function renderEdit() {
  const router = createMemoryRouter([{ path: '/organizations/:id', element: <OrganizationEditScreen params={{ id: '3' }} title="Edit organization" /> }], {
    initialEntries: ['/organizations/3'],
  });
  render(
    <AppProviders>
      <RouterProvider router={router} />
    </AppProviders>,
  );
}

describe("an organization's information modals", () => {
  it('when modals have dates, then the list shows them in the date format of the language; without one it says so', async () => {
    const modals = [
      modal(1, 'Maintenance', '2026-11-01', '2026-12-01'),
      modal(2, 'Reporting is open', '2026-11-10', null),
      modal(3, 'Old notice', null, '2026-01-31', false),
      modal(4, 'Welcome', null, null),
    ];
    const api = fakeApi()
      .on('GET', 'admin/organizations/3', { body: { data: organization } })
      .on('GET', 'admin/information-modals', { body: { data: modals, meta: { page: 1, per_page: 10, total: 4 } } });
    renderEdit();

    const table = await screen.findByRole('table', { name: 'Information modals' });
    const shown = (title: string) => within(within(table).getByRole('link', { name: title }).closest('tr')!).getAllByRole('cell')[1]!.textContent;
    expect(await within(table).findByRole('link', { name: 'Maintenance' })).toBeTruthy();
    expect(shown('Maintenance')).toBe('Nov 1, 2026 – Dec 1, 2026');
    expect(shown('Reporting is open')).toBe('From Nov 10, 2026');
    expect(shown('Old notice')).toBe('Until Jan 31, 2026');
    expect(shown('Welcome')).toBe('Always, while active');
    expect(within(table).getByText('Inactive')).toBeTruthy();
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent?.replace(/[▲▼↕]/g, '')),
    ).toEqual(['Title', 'Shown', 'Active']);
    const query = (call: RecordedCall) => Object.fromEntries(new URL(call.url, 'http://localhost').searchParams);
    expect(query(api.callsTo('GET', 'admin/information-modals')[0]!)).toMatchObject({ organization_id: '3', sort: 'id', direction: 'desc' });
  });
});
