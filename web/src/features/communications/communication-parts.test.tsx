import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { ReportStatus } from '@mss/contracts/enums';
import { AppProviders } from '../../app/providers.tsx';
import { SubjectText } from './communication-parts.tsx';
import { REPORT_STAGES, stagesOf } from './communication-composer.tsx';

describe('communications in a person’s words', () => {
  it('when a subject holds variables, then each is marked as what it will be filled with, the rest as written', () => {
    render(
      <AppProviders>
        <p data-testid="subject">
          <SubjectText subject="Reminder for {{period}}, {{ recipient_name }}" />
        </p>
      </AppProviders>,
    );
    expect(screen.getAllByTestId('subject-placeholder').map((b) => b.textContent)).toEqual(['Period', 'Recipient’s name']);
    expect(screen.getByTestId('subject').textContent).toBe('Reminder for Period, Recipient’s name');
  });

  it('when the report-status filter is stored as statuses, then it reads back as the stages a person chose, every technical status covered', () => {
    expect(
      stagesOf([ReportStatus.Ongoing, ReportStatus.InvalidFile, ReportStatus.ProcessingFile, ReportStatus.ProcessingData, ReportStatus.WaitingForCompletion]),
    ).toEqual(['not_submitted', 'sent_back']);
    expect(stagesOf([])).toEqual([]);
    const covered = Object.values(REPORT_STAGES)
      .flat()
      .sort((a, b) => a - b);
    expect(covered).toEqual(Object.values(ReportStatus).sort((a, b) => a - b));
  });
});
