import { type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Badge, Text, Tooltip, VisuallyHidden } from '@mantine/core';
import '../i18n/statistics.ts';
import type { HiddenReason as HiddenReasonCode } from '@mss/contracts/statistics';
import { decimalSign, formatDecimal, formatMoney, formatPercent } from '../lib/numbers.ts';

/*
 * Figures as the statistics screens and the dashboard show them: exact decimals, signed changes,
 * "Confidential" for a withheld figure. Importing this module loads the statistics texts.
 */

/** A line icon drawn inline (no icon font or emoji to depend on). */
function LineIcon({ size, children }: { size: number; children: ReactNode }) {
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={2.2}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden
    >
      {children}
    </svg>
  );
}

/** A padlock. */
export const LockIcon = ({ size = 12 }: { size?: number }) => (
  <LineIcon size={size}>
    <rect x="5" y="11" width="14" height="10" rx="2" />
    <path d="M8 11V7a4 4 0 0 1 8 0v4" />
  </LineIcon>
);

/** A small line chart. */
export const TrendIcon = ({ size = 14 }: { size?: number }) => (
  <LineIcon size={size}>
    <path d="M3 17l6-6 4 4 8-8" />
    <path d="M14 7h7v7" />
  </LineIcon>
);

/** "Confidential" in place of a number: a figure the server withheld (docs/architecture.md §8). */
export function Confidential() {
  const { t } = useTranslation();
  return (
    <Tooltip label={t('statistics.confidential_hint')} withArrow>
      <Badge variant="light" color="gray" tt="none" size="sm" data-testid="confidential" leftSection={<LockIcon />}>
        {t('statistics.confidential')}
      </Badge>
    </Tooltip>
  );
}

/** A signed change, green up and red down, with the sign in the text (not by colour alone). */
export function Change({ value }: { value: string | null | undefined }) {
  if (value === null || value === undefined)
    return (
      <Text span c="dimmed">
        –
      </Text>
    );
  const sign = decimalSign(value);
  return (
    <Text span c={sign > 0 ? 'teal' : sign < 0 ? 'red' : undefined} style={{ whiteSpace: 'nowrap' }}>
      {formatPercent(value, { signed: true })}
    </Text>
  );
}

/**
 * A figure; `money`: a converted value, at the currency's usual 2 decimals (downloads keep it
 * exact). `breakable`: where it does not fit (a phone's card), it wraps after a group separator
 * instead of running into its neighbour.
 */
export const Num = ({ value, money = false, breakable = false }: { value: string | null | undefined; money?: boolean; breakable?: boolean }) => {
  const text = value === null || value === undefined ? '–' : money ? formatMoney(value) : formatDecimal(value);
  if (!breakable) return <span style={{ whiteSpace: 'nowrap' }}>{text}</span>;
  const parts = text.split(/(?<=[,\u00a0\u202f ])/);
  return (
    <span>
      {parts.map((part, i) => (
        <span key={i}>
          {part}
          {i < parts.length - 1 && <wbr />}
        </span>
      ))}
    </span>
  );
};

/** The mark of a figure that holds an estimate for a missing report (Eurostat's and SDMX's flag "e"). */
export const ESTIMATED_MARK = 'e';

/** The mark beside a figure that holds an estimate, with its meaning for screen readers and on hover. */
export function EstimatedMark() {
  const { t } = useTranslation();
  return (
    <Tooltip label={t('statistics.estimated_hint')} withArrow>
      <Text component="sup" size="xs" fw={700} ml={2} data-testid="estimated">
        <span aria-hidden>{ESTIMATED_MARK}</span>
        <VisuallyHidden>{t('statistics.estimated')}</VisuallyHidden>
      </Text>
    </Tooltip>
  );
}

/** The note under a table whose figures hold estimates: what the mark means. */
export function EstimatedNote() {
  const { t } = useTranslation();
  return (
    <Text size="sm" data-testid="estimated-note">
      <Text span fw={700}>
        {ESTIMATED_MARK}
      </Text>{' '}
      {t('statistics.estimated_note')}
    </Text>
  );
}

/** The mark of a figure that differs from the period's first publication (flag "r"). */
export const REVISED_MARK = 'r';

/** The mark beside a revised figure, with its meaning for screen readers and on hover. */
export function RevisedMark({ first }: { first?: string | null }) {
  const { t } = useTranslation();
  return (
    <Tooltip label={first ? t('statistics.revised_from', { first }) : t('statistics.revised_hint')} withArrow>
      <Text component="sup" size="xs" fw={700} ml={2} data-testid="revised">
        <span aria-hidden>{REVISED_MARK}</span>
        <VisuallyHidden>{t('statistics.revised')}</VisuallyHidden>
      </Text>
    </Tooltip>
  );
}

/** The note under a table whose figures were revised: what the mark means. */
export function RevisedNote() {
  const { t } = useTranslation();
  return (
    <Text size="sm" data-testid="revised-note">
      <Text span fw={700}>
        {REVISED_MARK}
      </Text>{' '}
      {t('statistics.revised_note')}
    </Text>
  );
}

/** Why a row is confidential, for the market's approvers (who see its figures): the answer's `hidden_reason`. */
export function HiddenReason({ reason }: { reason: HiddenReasonCode }) {
  const { t } = useTranslation();
  return (
    <Tooltip label={t(`statistics.reason_hint.${reason}`)} withArrow multiline w={260}>
      <Badge variant="outline" color="gray.7" c="gray.8" tt="none" size="sm" ml={6} leftSection={<LockIcon size={10} />} data-testid="hidden-reason">
        {t(`statistics.reason.${reason}`)}
      </Badge>
    </Tooltip>
  );
}

/** The mark beside a change compared over unequal coverage; the note that explains it starts with it. */
export const COVERAGE_MARK = '†';

/** A phone is narrower than this: breakdowns read as cards, one per row. */
export const PHONE = '(max-width: 40em)';

/**
 * A figure as a chart places it: the one place a decimal string becomes a JavaScript number, and
 * only to draw a point (tables, tooltips and downloads stay exact, docs/architecture.md §8). A withheld figure
 * (null) is a gap, never a guess.
 */
export const plot = (value: string | null | undefined): number | null => (value === null || value === undefined ? null : Number(value));

/** "2026-10 approved 2 of 5, a year earlier 5 of 5": a period compared over unequal coverage. */
export function coverageItem(
  t: (key: string, params: Record<string, string | number>) => string,
  title: string,
  coverage: { approved: number; expected: number },
  lastYear: { approved: number; expected: number },
): string {
  return t('statistics.trend.coverage_item', {
    title,
    approved: coverage.approved,
    expected: coverage.expected,
    ly_approved: lastYear.approved,
    ly_expected: lastYear.expected,
  });
}
