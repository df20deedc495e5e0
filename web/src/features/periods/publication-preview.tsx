import { useTranslation } from 'react-i18next';
import { Alert, List, Stack, Text } from '@mantine/core';
import type { PublicationPattern, PublicationPreview, UnprotectableSum } from '@mss/contracts/periods';

/**
 * What publishing a period would show viewers, in the publish confirmation (docs/decisions.md
 * "Publishing"): how many cells are hidden by breakdown, the sums no pattern can protect any more
 * and why, and for a period not complete what publishing again would hide once the missing reports
 * arrive, with the advice to wait when that would blank the period.
 */
export function PublicationPreviewDetails({ preview }: { preview: PublicationPreview }) {
  const { t } = useTranslation();
  const { now, later } = preview;
  return (
    <Stack gap="xs" data-testid="publication-preview">
      <Text size="sm">
        {now.cells === 0
          ? t('reporting.period.preview_empty')
          : preview.changed
            ? t('reporting.period.preview_now', { shown: now.cells - now.hidden, cells: now.cells, hidden: now.hidden })
            : t('reporting.period.preview_unchanged', { number: preview.number, cells: now.cells, hidden: now.hidden })}
      </Text>
      {now.cells > 0 && <Breakdowns pattern={now} />}
      {preview.estimated > 0 && (
        <Text size="sm" data-testid="preview-estimated">
          {t('reporting.period.preview_estimated', { count: preview.estimated })}
        </Text>
      )}
      {now.unprotectable.length > 0 && (
        <Alert
          color="orange"
          variant="light"
          title={t('reporting.period.preview_unprotectable_title', { count: now.unprotectable.length })}
          data-testid="preview-unprotectable"
        >
          <Stack gap={4}>
            <Text size="sm">{t('reporting.period.preview_unprotectable')}</Text>
            <List size="sm">
              {now.unprotectable.map((u, i) => (
                <List.Item key={i}>{unprotectableText(t, u)}</List.Item>
              ))}
            </List>
          </Stack>
        </Alert>
      )}
      {later && (
        <Alert
          color={preview.advice === 'wait' ? 'red' : 'blue'}
          variant="light"
          title={t(preview.advice === 'wait' ? 'reporting.period.preview_wait_title' : 'reporting.period.preview_later_title')}
          data-testid="preview-later"
        >
          <Stack gap={4}>
            <Text size="sm">
              {t('reporting.period.preview_later', { hidden: later.pattern.hidden, cells: later.pattern.cells, count: later.simulated })}
              {later.pattern.total_hidden && ` ${t('reporting.period.preview_later_total')}`}
            </Text>
            {later.unknown > 0 && <Text size="sm">{t('reporting.period.preview_later_unknown', { count: later.unknown })}</Text>}
            {preview.advice === 'wait' && <Text size="sm">{t('reporting.period.preview_wait')}</Text>}
          </Stack>
        </Alert>
      )}
    </Stack>
  );
}

function Breakdowns({ pattern }: { pattern: PublicationPattern }) {
  const { t } = useTranslation();
  return (
    <List size="sm" data-testid="preview-breakdowns">
      {pattern.by_dimension
        .filter((d) => d.cells > 0)
        .map((d) => (
          <List.Item key={d.dimension}>
            {d.dimension === 'total'
              ? t(d.hidden ? 'reporting.period.preview_total_hidden' : 'reporting.period.preview_total_shown')
              : t(`reporting.period.preview_${d.dimension}`, { hidden: d.hidden, cells: d.cells })}
          </List.Item>
        ))}
    </List>
  );
}

function unprotectableText(t: ReturnType<typeof useTranslation>['t'], u: UnprotectableSum): string {
  const total = u.name ?? t('reporting.period.total');
  // A sum of another period, tied to this one by estimates: named with its period.
  const name = u.period ? `${total} (${u.period})` : total;
  if (u.kind === 'earlier') return t('reporting.period.unprotectable_earlier', { name, publication: u.publication });
  if (u.kind === 'difference') return t('reporting.period.unprotectable_difference', { name, publication: u.publication, without: u.without });
  return t('reporting.period.unprotectable_cell', { name });
}
