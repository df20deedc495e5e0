import { describe, expect, it } from 'vitest';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { ApiError } from '../api/transport.ts';
import { feedback } from './feedback.tsx';
import { AppProviders } from '../app/providers.tsx';

function renderProviders() {
  render(
    <AppProviders>
      <main />
    </AppProviders>,
  );
}

describe('global feedback', () => {
  it('when a confirmation is confirmed or cancelled, then the promise says which', async () => {
    renderProviders();

    let answer: Promise<boolean>;
    act(() => {
      answer = feedback.confirm({ message: 'Delete the market Sweden?', confirmLabel: 'Delete', danger: true });
    });
    expect(await screen.findByText('Delete the market Sweden?')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    await expect(answer!).resolves.toBe(true);

    act(() => {
      answer = feedback.confirm({ message: 'Discard the changes?' });
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel' }));
    await expect(answer!).resolves.toBe(false);
  });

  it('when an error is shown, then the modal carries the server message, and a non-API error the generic text', async () => {
    renderProviders();

    act(() => void feedback.errorOf(new ApiError(409, 'This report already exists.')));
    expect(await screen.findByText('This report already exists.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'OK' }));
    await waitFor(() => expect(screen.queryByText('This report already exists.')).toBeNull());

    act(() => void feedback.errorOf(new TypeError('x is undefined')));
    expect(await screen.findByText('Something went wrong, try again or contact support.')).toBeTruthy();
  });

  it('when work runs under the loading overlay, then the overlay shows until the work ends', async () => {
    renderProviders();
    let finish!: () => void;
    let done: Promise<void>;

    act(() => {
      done = feedback.loading.during(new Promise<void>((resolve) => (finish = resolve)));
    });
    await waitFor(() => expect(document.querySelector('.mantine-LoadingOverlay-root')).not.toBeNull());

    await act(async () => {
      finish();
      await done;
    });
    await waitFor(() => expect(document.querySelector('.mantine-LoadingOverlay-root')).toBeNull());
  });
});
